/// Where a StickyStackedCards card pins and how much it shrinks: the seed's math (seed 003).
///
/// Lengths are points in the scroll view's coordinates, y growing downwards. NaN is not cleaned
/// up: Swift's `min`/`max` pass a NaN first argument through, as in the seed's code.
public enum StickyStackedCardsMath {
    /// The shrink a card of travel when Reduce Motion is off (S3); with it on the step is 0 (S4).
    public static let shrinkStep = Mutant.number(0.05, (.s3StepUp, 0.08), (.s3StepDown, 0.02))

    /// The smallest scale a pinned card is drawn at (S3).
    public static let minimumScale = Mutant.number(0.6, (.s3FloorUp, 0.7), (.s3FloorDown, 0.5))

    /// How many cards' worth of travel a card shrinks for at most (S3).
    public static let maximumShrinkCards = Mutant.number(4.0, (.s3TravelCapUp, 5), (.s3TravelCapDown, 3))

    /// How far down a card must move to stay on its pin line (S2): 0 until its top reaches it.
    public static func pinOffset(cardTop: Double, pinY: Double) -> Double {
        Mutant.s2PinUnclamped.isActive ? pinY - cardTop : max(pinY - cardTop, 0)
    }

    /// The y of a card's pin line (S1): `top`, plus `peek` for each of the first `maxPeeking` cards.
    ///
    /// A negative `index`, `peek` or `maxPeeking` counts as 0. An infinite `peek` gives NaN for
    /// the first card (0 × ∞).
    public static func pinY(index: Int, top: Double, peek: Double, maxPeeking: Int) -> Double {
        top + Double(min(max(index, 0), max(maxPeeking, 0))) * max(peek, 0)
    }

    /// The scale of a pinned card, anchored at its top (S3).
    ///
    /// One card's travel is `cardHeight + spacing` (a negative spacing counts as 0); the card
    /// loses `step` for each, for at most `maximumShrinkCards`, never going below `minimumScale`.
    /// A travel that is not above 0 (NaN included) gives 1. `pinOffset` is not clamped: a
    /// negative one gives a scale above 1.
    public static func scale(pinOffset: Double, cardHeight: Double, spacing: Double, step: Double) -> Double {
        let travel = cardHeight + max(spacing, 0)
        guard travel > 0 else { return 1 }
        if Mutant.s3FloorUnclamped.isActive {
            return 1 - min(pinOffset / travel, maximumShrinkCards) * max(step, 0)
        }
        return max(1 - min(pinOffset / travel, maximumShrinkCards) * max(step, 0), minimumScale)
    }
}
