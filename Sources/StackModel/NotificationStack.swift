/// The headless model of `NotificationStack` (seed 000): a pile under the newest notification
/// that opens into a column with a tap, where each card can be swiped away towards the leading
/// edge.
///
/// Model state is what the seed keeps in `@State` and bindings (`isExpanded`, the items, each
/// row's `offset`); everything on screen is computed from it and from the values that animate on
/// their own (SEMANTICS.md): the layout's `progress`, each card's scale and opacity effects, each
/// row's offset and fade, the header's fade, and the cards' placement after a count change.
public final class NotificationStack: Component {
    public let kind = ComponentKind.notificationStack
    public let name: String
    /// Where the stack's top-left corner sits on the screen, and how wide it is.
    public let origin: Point
    @exclusivity(unchecked) public private(set) var width: Double {
        didSet { frames.bump() }
    }
    /// Whether its width follows the screen's (``ContainerFill``; it has no height of its own).
    public var fill = ContainerFill.none
    /// The header's title (the seed's `title`, default "Notifications").
    public let title: String
    public let spacing: Double
    public let peek: Double
    /// Whether the owner sets `onDismiss` (N9). Without it no card can be swiped away.
    public let isDismissible: Bool

    // `@exclusivity(unchecked)` on the state a touch move or a frame reads (as `Screen` does):
    // the run-time checks cost a sixth of a touch move; no access here overlaps another.
    /// The cards, newest first, as the owner holds them.
    @exclusivity(unchecked) public private(set) var cards: [CardSpec] {
        didSet {
            cacheCards()
            frames.bump()
        }
    }
    /// The cards' heights and ids, kept beside them so that a frame costs no array of its own.
    @exclusivity(unchecked) private(set) var heights: [Double] = []
    @exclusivity(unchecked) private(set) var ids: [String] = []
    /// The `isExpanded` binding.
    @exclusivity(unchecked) public private(set) var isExpanded: Bool {
        didSet { frames.bump() }
    }
    /// The ids `onDismiss` was called with, oldest first.
    @exclusivity(unchecked) public private(set) var dismissed: [String] = [] {
        didSet { frames.bump() }
    }

    @exclusivity(unchecked) var progress: AnimatedValue {
        didSet { frames.bump() }
    }
    @exclusivity(unchecked) var headerOpacity: AnimatedValue {
        didSet { frames.bump() }
    }
    /// How far below the stack's top the cards start: the header's height and `spacing` while the
    /// header shows (N8), the header's height at `textSize` (N18).
    @exclusivity(unchecked) var cardsTop: AnimatedValue {
        didSet { frames.bump() }
    }
    /// The Dynamic Type size the header was laid out for (N18): the screen's, from when the stack
    /// is put on it (`settingsChanged`).
    @exclusivity(unchecked) private(set) var textSize = DynamicTypeSize.large {
        didSet { frames.bump() }
    }
    /// What is left of the layout's height change after the number of cards changed (N17): the
    /// stack's frame moves to its new height with the count spring, as the cards do.
    @exclusivity(unchecked) var heightShift = AnimatedValue(0) {
        didSet { frames.bump() }
    }
    /// The cards removed inside an animated transaction, fading out where they were (G8, N17);
    /// those whose transition has finished are dropped at the next change.
    @exclusivity(unchecked) var leaving: [LeavingCard] = [] {
        didSet { frames.bump() }
    }
    /// Each card's animatable values, in the cards' order.
    @exclusivity(unchecked) var rows: [Row] = [] {
        didSet { frames.bump() }
    }
    @exclusivity(unchecked) var gestures = TouchMap<RowGesture>()
    /// What the last gesture's gate decided, until the screen takes it (``GestureVerdict``).
    var verdict: GestureVerdict?
    /// The frames computed for the state above (the gestures are none of it) at a moment, kept
    /// until it changes: every stored property above bumps its revision.
    let frames = KeptFrames()

    /// One row's animatable values.
    struct Row {
        /// The row's `@State offset`: towards the leading edge is negative (N10, N11).
        var offset = AnimatedValue(0)
        /// `1 - min(|offset| / 275, 0.6)` (N12), animating on its own.
        var fade = AnimatedValue(1)
        /// The scale effect (N3), animating on its own; it can overshoot 1.
        var scale: AnimatedValue
        /// The opacity effect: 1 while open or among the first three (N4).
        var opacity: AnimatedValue
        /// What is left of a placement change after the number of cards changed (N14).
        var shift = AnimatedValue(0)
    }

    /// A finger that went down on the stack.
    struct RowGesture {
        /// What the finger went down on: a card, "stack", "show_less" or "header".
        var target: ComponentTarget
        var drag = DragRecognizer(minimumDistance: NotificationStack.swipeMinimumDistance)
        var isSwiping = false
    }

    // MARK: The seed's numbers, named once

    /// N10: the swipe's minimum distance.
    public static let swipeMinimumDistance = Mutant.number(20.0, (.n10DistanceUp, 30), (.n10DistanceDown, 10))
    /// N13: a card leaves when let go with `offset < -110`.
    public static let swipeThreshold = Mutant.number(110.0, (.n13ThresholdUp, 140), (.n13ThresholdDown, 80))
    /// N12: the fade reaches its floor at `threshold × 2.5`.
    public static let fadeDistance = Mutant.number(
        swipeThreshold * 2.5, (.n12FadeDistanceUp, 350), (.n12FadeDistanceDown, 200))
    /// N12: a swiped card fades by at most this much.
    public static let maximumFade = Mutant.number(0.6, (.n12FadeCapUp, 0.8), (.n12FadeCapDown, 0.4))
    /// N8: the "Show less" button is at least 44 pt high.
    public static let minimumTarget = Mutant.number(44.0, (.n8HeaderUp, 60), (.n8HeaderDown, 30))
    /// The "Show less" button's width at the default text size: subheadline semibold text measures
    /// about 72 pt; it grows with the subheadline's point size (N18). An estimate, since no text is
    /// laid out headlessly.
    public static let showLessWidth = 72.0
    /// N15: the closed stack's hint.
    public static let closedHint = Mutant.number("Shows them all", (.n15HintChanged, "Shows all"))
    /// N15: the open cards' named action.
    public static let clearAction = "Clear"

    public init(
        name: String = Defaults.name, cards: [CardSpec], isExpanded: Bool = Defaults.isExpanded,
        title: String = Defaults.title, spacing: Double = Defaults.spacing, peek: Double = Defaults.peek,
        isDismissible: Bool = Defaults.isDismissible, origin: Point = .zero, width: Double = 390
    ) throws {
        try CardSpec.validate(cards)
        try StackModelError.requireFinite(spacing, "spacing")
        try StackModelError.requireFinite(peek, "peek")
        try StackModelError.requirePlacement(origin, width: width)
        self.name = name
        self.cards = cards
        heights = cards.map(\.height)
        ids = cards.map(\.id)
        self.isExpanded = isExpanded
        self.title = title
        self.spacing = spacing
        self.peek = peek
        self.isDismissible = isDismissible
        self.origin = origin
        self.width = width
        let open = isExpanded || cards.count < 2
        progress = AnimatedValue(open ? 1 : 0)
        let header = isExpanded && cards.count > 1
        headerOpacity = AnimatedValue(header ? 1 : 0)
        cardsTop = AnimatedValue(header ? Self.headerHeight(at: .large) + spacing : 0)
        rows = cards.indices.map { index in
            Row(
                scale: AnimatedValue(NotificationStackMath.scale(depth: index, progress: open ? 1 : 0)),
                opacity: AnimatedValue(Self.opacity(index: index, open: open)))
        }
    }

    // MARK: Derived model state

    private func cacheCards() {
        heights = cards.map(\.height)
        ids = cards.map(\.id)
    }

    /// N1: open when expanded or holding fewer than 2 cards.
    public var isOpen: Bool {
        isExpanded || cards.count < 2 || Mutant.n1OpenStrict.isActive && cards.count == 2
    }
    /// N8: the header shows when expanded with more than one card.
    public var showsHeader: Bool {
        isExpanded && (cards.count > 1 || Mutant.n8HeaderStrict.isActive && cards.count == 1)
    }
    /// N9: cards can be swiped while open and when the owner sets `onDismiss`.
    public var isSwipeable: Bool {
        (isOpen || Mutant.n9SwipeWhileClosed.isActive)
            && (isDismissible || Mutant.n9SwipeWithoutDismiss.isActive)
    }

    /// N4: closed, only the first `visibleBehind + 1` cards show.
    static func opacity(index: Int, open: Bool) -> Double {
        open
            || index <= NotificationStackMath.visibleBehind
                && !(Mutant.n4ShownStrict.isActive && index == NotificationStackMath.visibleBehind)
            ? 1 : 0
    }

    /// N12: the fade for a row offset.
    static func fade(offset: Double) -> Double {
        Mutant.n12FadeUnclamped.isActive
            ? 1 - abs(offset) / fadeDistance : 1 - min(abs(offset) / fadeDistance, maximumFade)
    }

    // MARK: Changes

    /// A new width, as the container lays the stack out again (``ContainerFill``): at once.
    public func setWidth(_ newWidth: Double) throws {
        try StackModelError.requireNonNegative(newWidth, "width")
        width = newWidth
    }

    public func containerChanges(for size: Size) -> [OwnerChange] {
        fill.changes(for: size, width: width, height: nil)
    }

    /// Sets `isExpanded`, as the binding's owner or the seed's own tap and button do (N6, N8),
    /// animating with spring(0.45, 0.2) unless Reduce Motion is on (N7).
    public func setExpanded(_ expanded: Bool, in settings: ScreenSettings) {
        guard expanded != isExpanded else { return }
        isExpanded = expanded
        retarget(animation: settings.animation(.notificationExpand), at: settings.now)
    }

    /// Replaces the cards, as the owner does (the demo removes a dismissed card). A change in their
    /// number moves the others with spring(0.4, 0.15) (N14).
    public func setCards(_ newCards: [CardSpec], in settings: ScreenSettings) throws {
        try CardSpec.validate(newCards)
        let oldCards = cards
        let countChanged = oldCards.count != newCards.count
        let animation = countChanged ? settings.animation(.notificationCountChange) : nil
        let now = settings.now
        let shown = min(max(progress.value(at: now), 0), 1)
        let oldTops = NotificationStackMath.tops(
            heights: oldCards.map(\.height), spacing: spacing, peek: peek, progress: shown)
        let newTops = NotificationStackMath.tops(
            heights: newCards.map(\.height), spacing: spacing, peek: peek, progress: shown)
        let oldIndex = Dictionary(uniqueKeysWithValues: oldCards.enumerated().map { (ByteKey($1.id), $0) })
        let newIDs = Set(newCards.map { ByteKey($0.id) })
        // G8, N17: a removed card leaves with its transition (`.opacity`) from where it shows.
        let left = left(in: settings)
        let departing = cardSnapshots(in: settings).filter { !newIDs.contains(ByteKey($0.id)) }.compactMap {
            LeavingCard($0, left: left, width: width, in: settings, animation: animation)
        }
        leaving = leaving.filter { $0.isPresent(at: now) } + departing
        if !Mutant.n17HeightJumps.isActive {
            let heightBefore = NotificationStackMath.height(
                heights: heights, spacing: spacing, peek: peek, progress: shown)
            let heightAfter = NotificationStackMath.height(
                heights: newCards.map(\.height), spacing: spacing, peek: peek, progress: shown)
            heightShift.displace(by: heightBefore - heightAfter, animation: animation, at: now)
        }
        cards = newCards
        var kept: [Row] = []
        kept.reserveCapacity(newCards.count)
        for (index, card) in newCards.enumerated() {
            if let before = oldIndex[ByteKey(card.id)] {
                var row = rows[before]
                row.shift.displace(by: oldTops[before] - newTops[index], animation: animation, at: now)
                kept.append(row)
            } else {
                // An inserted card fades in (the default transition) with the count spring.
                var row = Row(
                    scale: AnimatedValue(NotificationStackMath.scale(depth: index, progress: isOpen ? 1 : 0)),
                    opacity: AnimatedValue(Self.opacity(index: index, open: isOpen)))
                row.opacity.displace(by: -row.opacity.target, animation: animation, at: now)
                kept.append(row)
            }
        }
        rows = kept
        gestures = gestures.filter { $0.value.target.cardID.map { newIDs.contains(ByteKey($0)) } ?? true }
        retarget(animation: animation, at: now)
    }

    /// Moves every animatable value towards what the model now says, with `animation`.
    private func retarget(animation: Animation?, at now: Double) {
        let open = isOpen
        progress.set(open ? 1 : 0, animation: animation, at: now)
        headerOpacity.set(showsHeader ? 1 : 0, animation: animation, at: now)
        cardsTop.set(
            showsHeader ? Self.headerHeight(at: textSize) + spacing : 0, animation: animation, at: now)
        for index in rows.indices {
            rows[index].scale.set(
                NotificationStackMath.scale(depth: index, progress: open ? 1 : 0), animation: animation,
                at: now)
            rows[index].opacity.set(Self.opacity(index: index, open: open), animation: animation, at: now)
        }
    }

    /// `onDismiss` for `id`: the owner removes the card (N13).
    func dismiss(_ id: String, in settings: ScreenSettings) {
        dismissed.append(id)
        try? setCards(cards.filter { !$0.id.isSameBytes(id) }, in: settings)
    }

    /// Sets a row's offset and its fade together, as the seed's `offset` drives both (N10, N12).
    func setOffset(_ offset: Double, of id: String, animation: Animation?, at now: Double) {
        guard let index = cards.firstIndex(where: { $0.id.isSameBytes(id) }) else { return }
        rows[index].offset.set(offset, animation: animation, at: now)
        rows[index].fade.set(Self.fade(offset: offset), animation: animation, at: now)
    }

    /// N18: a new text size lays the header out again at once (no animation is attached to it), and
    /// the cards below it follow. The screen also calls this when the stack is put on it.
    public func settingsChanged(from old: ScreenSettings, to new: ScreenSettings) {
        guard new.dynamicTypeSize != textSize else { return }
        textSize = new.dynamicTypeSize
        cardsTop = AnimatedValue(showsHeader ? Self.headerHeight(at: textSize) + spacing : 0)
    }

    /// The cards on their way out at `settings.now` (G8, N17), oldest removal first.
    public func leavingSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        guard !leaving.isEmpty else { return [] }
        let left = left(in: settings)
        return leaving.filter { $0.isPresent(at: settings.now) }.map { $0.snapshot(left: left, in: settings) }
    }

    /// The animatable values of the card `id`.
    func row(_ id: String) -> Row? {
        cards.firstIndex { $0.id.isSameBytes(id) }.map { rows[$0] }
    }

    public var animationEndTime: Double? {
        frames.endTime(makeEndTime)
    }

    private func makeEndTime() -> Double? {
        var values = [progress, headerOpacity, cardsTop, heightShift] + leaving.map(\.transition)
        for row in rows { values += [row.offset, row.fade, row.scale, row.opacity, row.shift] }
        return latestEnd(values)
    }

}
