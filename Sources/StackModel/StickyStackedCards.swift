/// The headless model of `StickyStackedCards` (seed 003): cards in a vertical scroll view that pin
/// near its top and shrink as the next card scrolls over them.
///
/// Model state is the scroll view's offset; everything on screen follows it at once (S7), so
/// nothing here animates. `origin`, `width` and `viewportHeight` are the scroll view's visible
/// rectangle on the screen; the cards fill its width less `insetHorizontal` on each side (the
/// demo pads them 20 on each side inside the scroll view, R5).
public final class StickyStackedCards: Component {
    public let kind = ComponentKind.stickyStackedCards
    public let name: String
    public let origin: Point
    @exclusivity(unchecked) public private(set) var width: Double {
        didSet { frames.bump() }
    }
    /// The scroll view's visible height.
    @exclusivity(unchecked) public private(set) var viewportHeight: Double {
        didSet { frames.bump() }
    }
    /// Which of its width and visible height follow the screen's (``ContainerFill``).
    public var fill = ContainerFill.none
    /// The space between cards in the column (S3 counts it in a card's travel).
    public let spacing: Double
    /// The first card's pin line, below the scroll view's top (S1).
    public let top: Double
    /// How much lower each of the first `maxPeeking` cards pins (S1).
    public let peek: Double
    public let maxPeeking: Int
    /// The content's padding above the first card and below the last (the demo pads 12 and 40).
    public let insetTop: Double
    public let insetBottom: Double
    /// The content's padding on each side of the cards (the demo pads 20): the scroll view keeps
    /// the whole width, the cards are `width − 2 × insetHorizontal` wide.
    public let insetHorizontal: Double
    /// The cards, each with its own height.
    public let cards: [CardSpec]

    // `@exclusivity(unchecked)` on the state a touch move or a frame reads (as `Screen` does).
    /// The scroll offset: how far the content has moved up, always in `0...maxOffset` (S6).
    @exclusivity(unchecked) public internal(set) var scrollOffset: Double {
        didSet { frames.bump() }
    }
    /// The finger panning the scroll view, if any.
    @exclusivity(unchecked) var pan: Pan?
    /// What the last gesture's gate decided, until the screen takes it (``GestureVerdict``).
    var verdict: GestureVerdict?
    /// The frames computed for the state above (the pan is none of it) at a moment, kept until it
    /// changes: every stored property above bumps its revision.
    let frames = KeptFrames()

    /// A finger on the scroll view, and the offset when it went down.
    struct Pan {
        var touch: Int
        var startOffset: Double
        var drag = DragRecognizer(minimumDistance: StickyStackedCards.panMinimumDistance)
    }

    // MARK: Numbers, named once

    /// S3: how much smaller a card gets per card's worth of travel.
    public static let shrinkStep = StickyStackedCardsMath.shrinkStep
    /// S3: the smallest a card gets.
    public static let minimumScale = StickyStackedCardsMath.minimumScale
    /// How far a finger moves before the scroll view pans: UIScrollView's pan hysteresis, about
    /// 10 pt. Inferred: neither the seed nor Apple's documentation gives the number.
    public static let panMinimumDistance = Mutant.number(
        10.0, (.s6PanDistanceUp, 20), (.s6PanDistanceDown, 5))

    public init(
        name: String = Defaults.name, cards: [CardSpec], spacing: Double = Defaults.spacing,
        top: Double = Defaults.top, peek: Double = Defaults.peek, maxPeeking: Int = Defaults.maxPeeking,
        origin: Point = .zero, width: Double = 390, viewportHeight: Double = 844,
        insetTop: Double = Defaults.insetTop, insetBottom: Double = Defaults.insetBottom,
        insetHorizontal: Double = Defaults.insetHorizontal, scrollOffset: Double = Defaults.scrollOffset
    ) throws {
        try CardSpec.validate(cards)
        try StackModelError.requireFinite(spacing, "spacing")
        try StackModelError.requireFinite(top, "top")
        try StackModelError.requireFinite(peek, "peek")
        try StackModelError.requirePlacement(origin, width: width)
        try StackModelError.requireNonNegative(viewportHeight, "viewportHeight")
        try StackModelError.requireNonNegative(insetTop, "insetTop")
        try StackModelError.requireNonNegative(insetBottom, "insetBottom")
        try StackModelError.requireNonNegative(insetHorizontal, "insetHorizontal")
        try StackModelError.requireFinite(scrollOffset, "scrollOffset")
        self.name = name
        self.cards = cards
        self.spacing = spacing
        self.top = top
        self.peek = peek
        self.maxPeeking = maxPeeking
        self.origin = origin
        self.width = width
        self.viewportHeight = viewportHeight
        self.insetTop = insetTop
        self.insetBottom = insetBottom
        self.insetHorizontal = insetHorizontal
        self.scrollOffset = 0
        self.scrollOffset = clampOffset(scrollOffset)
    }

    // MARK: Scrolling

    /// Each card's top in the content: the top inset, then the column `spacing` apart.
    public var contentTops: [Double] {
        var y = insetTop
        return cards.map { card in
            defer { y += card.height + spacing }
            return y
        }
    }

    /// The content's height: the insets, the cards and the gaps between them.
    public var contentHeight: Double {
        insetTop + cards.map(\.height).reduce(0, +) + spacing * Double(max(cards.count - 1, 0)) + insetBottom
    }

    /// The largest offset (S6): `max(contentHeight - viewportHeight, 0)`.
    public var maxOffset: Double { max(contentHeight - viewportHeight, 0) }

    func clampOffset(_ offset: Double) -> Double {
        Mutant.s6ScrollUnclamped.isActive ? offset : min(max(offset, 0), maxOffset)
    }

    /// `scrollTo(y:)`: moves the content to `offset`, clamped to `0...maxOffset` (S6). Nothing
    /// animates (S7).
    public func scroll(to offset: Double) throws {
        try StackModelError.requireFinite(offset, "offset")
        scrollOffset = clampOffset(offset)
    }

    /// A new width, as the container lays the scroll view out again (``ContainerFill``).
    public func setWidth(_ newWidth: Double) throws {
        try StackModelError.requireNonNegative(newWidth, "width")
        width = newWidth
    }

    /// A new visible height (``ContainerFill``): the offset stays within the new `maxOffset` (S6).
    public func setViewportHeight(_ newHeight: Double) throws {
        try StackModelError.requireNonNegative(newHeight, "height")
        viewportHeight = newHeight
        scrollOffset = clampOffset(scrollOffset)
    }

    public func containerChanges(for size: Size) -> [OwnerChange] {
        fill.changes(for: size, width: width, height: viewportHeight)
    }

    /// Nothing in the component animates (S7).
    public var animationEndTime: Double? { nil }
}
