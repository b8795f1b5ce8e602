/// The headless model of `WalletCardStack` (seed 004): a stack of cards, each showing its top edge
/// above the next; a tapped card rises to the top with its details below while the others wait in
/// a pile at the bottom; a tap on any card, or Escape, closes it.
///
/// Model state is what the seed keeps in its binding and `@State`: `selection`, the items and the
/// height the stack is given (W1). Everything on screen is computed from it, from the screen's
/// Dynamic Type size (W12), and from the values that animate on their own (SEMANTICS.md): each
/// card's y offset (W6), each card's press scale (W7) and the detail area's fade (W5).
public final class WalletCardStack: Component {
    public let kind = ComponentKind.walletCardStack
    public let name: String
    /// Where the stack's top-left corner sits on the screen, and how wide it is.
    public let origin: Point
    @exclusivity(unchecked) public private(set) var width: Double {
        didSet { frames.bump() }
    }
    /// Which of its width and height follow the screen's (``ContainerFill``).
    public var fill = ContainerFill.none
    /// Every card's height (W3): the cards' own heights are ignored.
    public let cardHeight: Double
    /// How much of a card shows above the next, before Dynamic Type (W1, W12).
    public let peek: Double
    /// The room the pile keeps at the bottom while a card is open (W2).
    public let pileHeight: Double

    // `@exclusivity(unchecked)` on the state a touch move or a frame reads (as `Screen` does).
    /// The cards, as the owner holds them.
    @exclusivity(unchecked) public private(set) var cards: [CardSpec] {
        didSet { frames.bump() }
    }
    /// The `selection` binding: an id, or nil. An id that names no card counts as none (W11), but
    /// is kept, as the binding keeps it.
    @exclusivity(unchecked) public private(set) var selection: String? {
        didSet { frames.bump() }
    }
    /// The height the stack is given (W1).
    @exclusivity(unchecked) public private(set) var height: Double {
        didSet { frames.bump() }
    }

    /// What is left of each card's travel after a change of selection, by card id: the card's y
    /// offset on screen is its top from the math plus this value, which animates to 0 (W6).
    ///
    /// Keeping the travel apart from the top means a re-layout for any other reason (height,
    /// Dynamic Type, cards) jumps, as in the seed, whose only animation is keyed on `selection`.
    @exclusivity(unchecked) var travel: [ByteKey: AnimatedValue] = [:] {
        didSet { frames.bump() }
    }
    /// Each card's `scaleEffect` from the press style (W7), by card id.
    @exclusivity(unchecked) var pressScale: [ByteKey: AnimatedValue] = [:] {
        didSet { frames.bump() }
    }
    /// The detail area's opacity (`.transition(.opacity)`, W5).
    @exclusivity(unchecked) var detailOpacity: AnimatedValue {
        didSet { frames.bump() }
    }
    /// The card each finger went down on, and whether the finger is inside it now, by touch id.
    @exclusivity(unchecked) var presses = TouchMap<Press>()
    /// How many fingers are inside each card they went down on (``presses`` counted, kept by
    /// ``setPress(_:of:)``): whether a card is pressed, without a look at every finger held down.
    @exclusivity(unchecked) var insidePresses: [ByteKey: Int] = [:]
    /// What the last gesture's gate decided, until the screen takes it (``GestureVerdict``).
    var verdict: GestureVerdict?
    /// The frames computed for the state above (the presses are none of it) at a moment, kept
    /// until it changes: every stored property above bumps its revision.
    let frames = KeptFrames()

    /// A finger's press on a card (W7).
    struct Press: Hashable, Sendable {
        let card: String
        var isInside: Bool
    }

    // MARK: The seed's numbers, named once

    /// W5: the gap between the open card and its details, and under the details.
    public static let spacing = WalletCardStackMath.spacing
    /// W8: the room the mask leaves for shadows above and to the sides.
    public static let shadowRoom = WalletCardStackMath.shadowRoom
    /// W7: a pressed card's scale.
    public static let pressedScale = WalletCardStackMath.pressedScale
    /// W7: the press style's animation.
    public static let pressAnimation = Animation.easeOut(
        duration: Mutant.number(0.15, (.w7PressDurationUp, 0.3), (.w7PressDurationDown, 0.05)))
    /// W10: the hints.
    public static let selectedHint = "Returns to the stack"
    public static let stackedHint = "Shows its details"
    /// W9: the action the stack offers VoiceOver.
    public static let escapeAction = "escape"

    /// - Parameters:
    ///   - cards: the items; their heights are ignored, every card is `cardHeight` high (W3).
    ///   - selection: the id of the open card, or nil (W11: an unknown id counts as none).
    ///   - height: the height the stack is given (W1), as `onGeometryChange` reads it.
    public init(
        name: String = Defaults.name, cards: [CardSpec], selection: String? = nil,
        cardHeight: Double = Defaults.cardHeight, peek: Double = Defaults.peek,
        pileHeight: Double = Defaults.pileHeight, origin: Point = .zero, width: Double = 350,
        height: Double = 600
    ) throws {
        try CardSpec.validate(cards)
        try StackModelError.requireNonNegative(cardHeight, "cardHeight")
        try StackModelError.requireFinite(peek, "peek")
        try StackModelError.requireNonNegative(pileHeight, "pileHeight")
        try StackModelError.requirePlacement(origin, width: width)
        try StackModelError.requireNonNegative(height, "height")
        self.name = name
        self.cards = cards
        self.selection = selection
        self.cardHeight = cardHeight
        self.peek = peek
        self.pileHeight = pileHeight
        self.origin = origin
        self.width = width
        self.height = height
        detailOpacity = AnimatedValue(0)
        resetValues()
        detailOpacity = AnimatedValue(selectedIndex == nil ? 0 : 1)
    }

    // MARK: Derived model state

    /// The index of the open card: nil when `selection` is nil or names no card (W11).
    public var selectedIndex: Int? {
        cards.firstIndex { selection.isSameBytes($0.id) }
            ?? (Mutant.w11UnknownCounted.isActive && selection != nil && !cards.isEmpty ? 0 : nil)
    }

    /// `peek` scaled by the headline text style at the screen's Dynamic Type size (W12).
    public func scaledPeek(in settings: ScreenSettings) -> Double {
        peek * settings.dynamicTypeSize.headlineScale
    }

    /// The distance between card tops in the stack (W1).
    public func step(in settings: ScreenSettings) -> Double {
        WalletCardStackMath.step(
            count: cards.count, peek: scaledPeek(in: settings), cardHeight: cardHeight, height: height)
    }

    /// Every card's top below the stack's top, with the selected card as given (W2).
    func tops(selected: Int?, in settings: ScreenSettings) -> [Double] {
        WalletCardStackMath.tops(
            count: cards.count, selected: selected, step: step(in: settings), height: height,
            pileHeight: pileHeight, pileStep: WalletCardStackMath.pileStep)
    }

    // MARK: Changes

    /// Sets the `selection` binding, as the owner or the seed's own tap and Escape do (W4, W9).
    /// The cards travel with spring(0.5, 0.2), overshooting, and the details fade in or out with it
    /// (W5, W6); with Reduce Motion everything jumps (G2).
    public func setSelection(_ newSelection: String?, in settings: ScreenSettings) {
        guard !newSelection.isSameBytes(selection) else { return }
        let animation = settings.animation(.walletSelection)
        let now = settings.now
        let before = tops(selected: selectedIndex, in: settings)
        selection = newSelection
        let after = tops(selected: selectedIndex, in: settings)
        for (index, card) in cards.enumerated() {
            if animation == nil {
                // G2: under Reduce Motion the new place shows at once, whatever was running.
                travel[ByteKey(card.id)] = AnimatedValue(0)
            } else {
                // The card stays where it shows and carries on with its velocity (G3).
                travel[ByteKey(card.id)]?.displace(
                    by: before[index] - after[index], animation: animation, at: now)
            }
        }
        detailOpacity.set(selectedIndex == nil ? 0 : 1, animation: animation, at: now)
    }

    /// Sets the height the stack is given (W1). The stack re-lays at once: the seed animates only
    /// changes of selection.
    public func setHeight(_ newHeight: Double) throws {
        try StackModelError.requireNonNegative(newHeight, "height")
        height = newHeight
        resetTravel()
    }

    /// A new width, as the container lays the stack out again (``ContainerFill``): at once.
    public func setWidth(_ newWidth: Double) throws {
        try StackModelError.requireNonNegative(newWidth, "width")
        width = newWidth
        resetTravel()
    }

    public func containerChanges(for size: Size) -> [OwnerChange] {
        fill.changes(for: size, width: width, height: height)
    }

    /// Replaces the cards, as the owner does. They re-lay at once; a selection whose card left
    /// counts as none (W11) and its details go without a fade, since `selection` did not change.
    public func setCards(_ newCards: [CardSpec]) throws {
        try CardSpec.validate(newCards)
        cards = newCards
        resetValues()
        detailOpacity = AnimatedValue(selectedIndex == nil ? 0 : 1)
    }

    public func settingsChanged(from old: ScreenSettings, to new: ScreenSettings) {
        // W12: a new text size changes the step; the seed does not animate it.
        if old.dynamicTypeSize != new.dynamicTypeSize { resetTravel() }
    }

    /// Stops every card's travel, so that each shows at its top from the math.
    private func resetTravel() {
        for id in travel.keys { travel[id] = AnimatedValue(0) }
    }

    /// One travel and one press scale per card, keeping those of the cards that stay.
    private func resetValues() {
        travel = Dictionary(uniqueKeysWithValues: cards.map { (ByteKey($0.id), AnimatedValue(0)) })
        pressScale = Dictionary(
            uniqueKeysWithValues: cards.map {
                (ByteKey($0.id), pressScale[ByteKey($0.id)] ?? AnimatedValue(1))
            })
        presses = presses.filter { pressScale[ByteKey($0.value.card)] != nil }
        insidePresses = [:]
        for press in presses.values where press.isInside {
            insidePresses[ByteKey(press.card), default: 0] += 1
        }
    }

    public var animationEndTime: Double? {
        frames.endTime { latestEnd(Array(travel.values) + Array(pressScale.values) + [detailOpacity]) }
    }
}
