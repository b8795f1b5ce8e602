import Testing

@testable import StackModel

/// The seed's math (seed 003), with its defaults `top` 12, `peek` 12, `maxPeeking` 3 and the
/// demo's cards: 348 pt high (300 + 2 × 24 padding), `spacing` 20, so one card's travel is 368.
///
/// Expected values are worked by hand from the seed's formulas:
/// pinY = top + min(max(index, 0), max(maxPeeking, 0)) × max(peek, 0);
/// pinOffset = max(pinY − cardTop, 0);
/// scale = max(1 − min(pinOffset / travel, 4) × max(step, 0), 0.6), travel = cardHeight + max(spacing, 0),
/// and 1 when travel is not > 0 (NaN included).
@Suite("StickyStackedCardsMath")
struct StickyStackedCardsMathTests {
    @Test("S3 the seed's numbers: step 0.05, never below 0.6, at most 4 cards of travel")
    func constants() {
        #expect(StickyStackedCardsMath.shrinkStep == 0.05)
        #expect(StickyStackedCardsMath.minimumScale == 0.6)
        #expect(StickyStackedCardsMath.maximumShrinkCards == 4)
    }

    @Test(
        "S1 the first maxPeeking cards pin peek lower each",
        arguments: [
            (0, 12.0, 12.0, 3, 12.0),  // 12 + 0 × 12
            (1, 12, 12, 3, 24),
            (2, 12, 12, 3, 36),
            (3, 12, 12, 3, 48),  // 12 + 3 × 12
            (4, 12, 12, 3, 48),  // min(4, 3) = 3
            (5, 12, 12, 3, 48),
            (-1, 12, 12, 3, 12),  // max(−1, 0) = 0
            (5, 12, -12, 3, 12),  // max(−12, 0) = 0
            (5, 12, 12, -3, 12),  // min(5, max(−3, 0)) = 0
            (5, 12, 12, 0, 12),
            (2, 12, .nan, 3, .nan),  // max(NaN, 0) is NaN
            (0, 12, .infinity, 3, .nan),  // 0 × ∞ is NaN, even for the first card
            (2, 12, .infinity, 3, .infinity),
            (0, .nan, 12, 3, .nan),
        ] as [(Int, Double, Double, Int, Double)])
    func pinY(index: Int, top: Double, peek: Double, maxPeeking: Int, expected: Double) {
        let pinY = StickyStackedCardsMath.pinY(index: index, top: top, peek: peek, maxPeeking: maxPeeking)
        #expect(pinY.exactly == expected.exactly)
    }

    @Test(
        "S2 a card above its pin line is pushed down to it, else not at all",
        arguments: [
            (0.0, 12.0, 12.0),  // 12 − 0
            (-100, 12, 112),  // 12 + 100
            (12, 12, 0),  // on the line: +0
            (100, 12, 0),  // max(−88, 0)
            (.nan, 12, .nan),  // max(NaN, 0) is NaN
            (-.infinity, 12, .infinity),
            (.infinity, 12, 0),  // max(−∞, 0)
            (.infinity, .infinity, .nan),  // ∞ − ∞
        ] as [(Double, Double, Double)])
    func pinOffset(cardTop: Double, pinY: Double, expected: Double) {
        #expect(StickyStackedCardsMath.pinOffset(cardTop: cardTop, pinY: pinY).exactly == expected.exactly)
    }

    @Test(
        "S3 a pinned card shrinks by step per card of travel, at most 4 cards, never below 0.6",
        arguments: [
            (0.0, 348.0, 20.0, 0.05, 1.0),  // 1 − 0 × 0.05
            (368, 348, 20, 0.05, 0.95),  // 1 − 1 × 0.05
            (1472, 348, 20, 0.05, 0.8),  // 4 travels: 1 − 4 × 0.05
            (3680, 348, 20, 0.05, 0.8),  // 10 travels, capped at 4
            (1472, 348, 20, 0.2, 0.6),  // 1 − 4 × 0.2 = 0.19999999999999996, floored
            (348, 348, -20, 0.05, 0.95),  // travel 348 + max(−20, 0)
            (100, 0, 0, 0.05, 1),  // travel 0: guard
            (368, -400, 20, 0.05, 1),  // travel −380: guard
            (368, 348, 20, -0.05, 1),  // max(−0.05, 0) = 0
            (-368, 348, 20, 0.05, 1.05),  // not from pinOffset, but not clamped: 1 − (−1) × 0.05
        ] as [(Double, Double, Double, Double, Double)])
    func scale(pinOffset: Double, cardHeight: Double, spacing: Double, step: Double, expected: Double) {
        let scale = StickyStackedCardsMath.scale(
            pinOffset: pinOffset, cardHeight: cardHeight, spacing: spacing, step: step)
        #expect(scale.exactly == expected.exactly)
    }

    @Test(
        "S4 with step 0 (Reduce Motion) a pinned card keeps scale 1",
        arguments: [0.0, 368, 1472, 3680, .infinity])
    func noShrink(pinOffset: Double) {
        // 1 − min(x / 368, 4) × 0 = 1, and max(1, 0.6) = 1.
        #expect(
            StickyStackedCardsMath.scale(pinOffset: pinOffset, cardHeight: 348, spacing: 20, step: 0) == 1)
    }

    /// Swift's `min(x, y)` is `y < x ? y : x` and `max(x, y)` is `y >= x ? y : x`: a NaN first
    /// argument passes through both, a NaN travel fails `travel > 0`.
    @Test(
        "S3 NaN and infinities: what the seed's min/max order gives",
        arguments: [
            (Double.nan, 348.0, 20.0, 0.05, Double.nan),  // min(NaN, 4), max(NaN, 0.6): NaN
            (.nan, 348, 20, 0, .nan),  // NaN × 0
            (.infinity, 348, 20, 0.05, 0.8),  // min(∞, 4) = 4
            (-.infinity, 348, 20, 0.05, .infinity),  // 1 − (−∞) × 0.05, above the floor
            (-.infinity, 348, 20, 0, .nan),  // −∞ × 0
            (368, .nan, 20, 0.05, 1),  // travel NaN: guard
            (368, 348, .nan, 0.05, 1),  // max(NaN, 0) = NaN travel: guard
            (368, .infinity, 20, 0.05, 1),  // 368 / ∞ = 0
            (368, 348, 20, .nan, .nan),  // max(NaN, 0) is NaN
        ] as [(Double, Double, Double, Double, Double)])
    func scaleNonFinite(
        pinOffset: Double, cardHeight: Double, spacing: Double, step: Double, expected: Double
    ) {
        let scale = StickyStackedCardsMath.scale(
            pinOffset: pinOffset, cardHeight: cardHeight, spacing: spacing, step: step)
        #expect(scale.exactly == expected.exactly)
    }
}
