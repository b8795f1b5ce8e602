/// The mutants of `StickyStackedCards` (seed 003): its numbers moved both ways, its clamps
/// removed, Reduce Motion ignored, its z-order reversed, its hit testing and label changed.
extension Mutant {
    public static let s1TopUp = Mutant(
        301, "S1.top+", "S1", .number, "StickyStackedCards+Kind.swift", "s1TopUp",
        "the first pin line is 20 pt down, not 12")
    public static let s1TopDown = Mutant(
        302, "S1.top-", "S1", .number, "StickyStackedCards+Kind.swift", "s1TopDown",
        "the first pin line is 4 pt down, not 12")
    public static let s1PeekUp = Mutant(
        303, "S1.peek+", "S1", .number, "StickyStackedCards+Kind.swift", "s1PeekUp",
        "each pin line is 20 pt lower, not 12")
    public static let s1PeekDown = Mutant(
        304, "S1.peek-", "S1", .number, "StickyStackedCards+Kind.swift", "s1PeekDown",
        "each pin line is 4 pt lower, not 12")
    public static let s1MaxPeekingUp = Mutant(
        305, "S1.max-peeking+", "S1", .number, "StickyStackedCards+Kind.swift", "s1MaxPeekingUp",
        "4 cards peek, not 3")
    public static let s1MaxPeekingDown = Mutant(
        306, "S1.max-peeking-", "S1", .number, "StickyStackedCards+Kind.swift", "s1MaxPeekingDown",
        "2 cards peek, not 3")
    public static let s2PinUnclamped = Mutant(
        307, "S2.pin-clamp", "S2", .clamp, "StickyStackedCardsMath.swift", "s2PinUnclamped",
        "max(..., 0) removed: a card not yet at its pin line is pulled up to it")
    public static let s3StepUp = Mutant(
        308, "S3.step+", "S3", .number, "StickyStackedCardsMath.swift", "s3StepUp",
        "a card shrinks 0.08 a card of travel, not 0.05")
    public static let s3StepDown = Mutant(
        309, "S3.step-", "S3", .number, "StickyStackedCardsMath.swift", "s3StepDown",
        "a card shrinks 0.02 a card of travel, not 0.05")
    public static let s3FloorUp = Mutant(
        310, "S3.floor+", "S3", .number, "StickyStackedCardsMath.swift", "s3FloorUp",
        "the smallest scale is 0.7, not 0.6")
    public static let s3FloorDown = Mutant(
        311, "S3.floor-", "S3", .number, "StickyStackedCardsMath.swift", "s3FloorDown",
        "the smallest scale is 0.5, not 0.6")
    public static let s3TravelCapUp = Mutant(
        312, "S3.travel-cap+", "S3", .number, "StickyStackedCardsMath.swift", "s3TravelCapUp",
        "a card shrinks for at most 5 cards of travel, not 4")
    public static let s3TravelCapDown = Mutant(
        313, "S3.travel-cap-", "S3", .number, "StickyStackedCardsMath.swift", "s3TravelCapDown",
        "a card shrinks for at most 3 cards of travel, not 4")
    public static let s3FloorUnclamped = Mutant(
        314, "S3.floor-clamp", "S3", .clamp, "StickyStackedCardsMath.swift", "s3FloorUnclamped",
        "max(..., 0.6) removed: a card shrinks below the floor")
    public static let s4ReduceMotionIgnored = Mutant(
        315, "S4.reduce-motion-ignored", "S4", .gate, "StickyStackedCards+Layout.swift",
        "s4ReduceMotionIgnored",
        "pinned cards shrink with Reduce Motion on")
    public static let s5ZReversed = Mutant(
        316, "S5.z-reversed", "S5", .direction, "StickyStackedCards+Layout.swift", "s5ZReversed",
        "the z-order is reversed: earlier cards are drawn over later ones")
    public static let s6ScrollUnclamped = Mutant(
        317, "S6.scroll-clamp", "S6", .clamp, "StickyStackedCards.swift", "s6ScrollUnclamped",
        "the scroll offset is not clamped to 0...maxOffset")
    public static let s6PanDistanceUp = Mutant(
        318, "S6.pan-distance+", "S6", .number, "StickyStackedCards.swift", "s6PanDistanceUp",
        "the scroll view pans after 20 pt, not 10")
    public static let s6PanDistanceDown = Mutant(
        319, "S6.pan-distance-", "S6", .number, "StickyStackedCards.swift", "s6PanDistanceDown",
        "the scroll view pans after 5 pt, not 10")
    public static let s6HitOutside = Mutant(
        320, "S6.hit-outside", "S6", .gate, "StickyStackedCards+Layout.swift", "s6HitOutside",
        "touches outside the scroll view's visible rectangle land on its cards")
    public static let s7LabelChanged = Mutant(
        321, "G6.sticky-label", "G6", .accessibility, "StickyStackedCards+Accessibility.swift",
        "s7LabelChanged",
        "VoiceOver reads each card's id, not its label")

    /// The mutants of `StickyStackedCards`.
    public static let stickyStackedCards: [Mutant] = [
        .s1TopUp, .s1TopDown, .s1PeekUp, .s1PeekDown, .s1MaxPeekingUp, .s1MaxPeekingDown, .s2PinUnclamped,
        .s3StepUp, .s3StepDown, .s3FloorUp, .s3FloorDown, .s3TravelCapUp, .s3TravelCapDown, .s3FloorUnclamped,
        .s4ReduceMotionIgnored, .s5ZReversed, .s6ScrollUnclamped, .s6PanDistanceUp, .s6PanDistanceDown,
        .s6HitOutside, .s7LabelChanged,
    ]
}
