import Testing

@testable import StackModel

/// The seed's math (seed 004) with its defaults: `cardHeight` 200, `peek` 64, `pileHeight` 76.
///
/// Expected values are worked by hand from the seed's formulas:
/// step = 0 unless count > 1 and peek, cardHeight, height are finite; else
/// min(max(peek, 0), max(height − cardHeight, 0) / (count − 1));
/// tops, none selected: i × step; one selected: 0 for it, and for the k-th other card
/// height − pileHeight + k × min(max(pileStep, 0), max(pileHeight, 0) / others), pileStep 14.
@Suite("WalletCardStackMath")
struct WalletCardStackMathTests {
    /// AX5's headline is 53 pt where the default (Large) is 17 pt (W12).
    private static let ax5Peek = 64.0 * 53 / 17  // 199.52941176470588

    @Test("W2 W5 W7 W8 the seed's fixed numbers") func constants() {
        #expect(WalletCardStackMath.pileStep == 14)
        #expect(WalletCardStackMath.spacing == 16)
        #expect(WalletCardStackMath.shadowRoom == 40)
        #expect(WalletCardStackMath.pressedScale == 0.98)
    }

    @Test(
        "W1 step is peek, or less when the stack would not fit",
        arguments: [
            (0, 64.0, 200.0, 600.0, 0.0),  // count ≤ 1: guard
            (1, 64, 200, 600, 0),
            (-1, 64, 200, 600, 0),
            (2, 64, 200, 600, 64),  // min(64, 400 / 1)
            (4, 64, 200, 600, 64),  // min(64, 400 / 3)
            (6, 64, 200, 600, 64),  // min(64, 400 / 5 = 80)
            (6, 64, 200, 400, 40),  // min(64, 200 / 5 = 40): tightened
            (4, 64, 200, 200, 0),  // room 0
            (4, 64, 200, 150, 0),  // max(150 − 200, 0) = 0: smaller than a card
            (4, -10, 200, 600, 0),  // max(−10, 0)
            (4, ax5Peek, 200, 1000, ax5Peek),  // min(199.53, 800 / 3 = 266.67): W12 peek as is
            (4, ax5Peek, 200, 600, 400.0 / 3),  // min(199.53, 400 / 3 = 133.33): tightened
        ] as [(Int, Double, Double, Double, Double)])
    func step(count: Int, peek: Double, cardHeight: Double, height: Double, expected: Double) {
        let step = WalletCardStackMath.step(count: count, peek: peek, cardHeight: cardHeight, height: height)
        #expect(step.exactly == expected.exactly)
    }

    @Test(
        "W1 a NaN or infinite peek, cardHeight or height gives step 0",
        arguments: [
            (Double.nan, 200.0, 600.0), (.infinity, 200, 600), (-.infinity, 200, 600),
            (64, .nan, 600), (64, .infinity, 600), (64, -.infinity, 600),
            (64, 200, .nan), (64, 200, .infinity), (64, 200, -.infinity),
        ] as [(Double, Double, Double)])
    func stepNonFinite(peek: Double, cardHeight: Double, height: Double) {
        let step = WalletCardStackMath.step(count: 4, peek: peek, cardHeight: cardHeight, height: height)
        #expect(step.exactly == 0.0.exactly)
    }

    @Test(
        "W2 W11 tops: a column step apart, or the selected card at 0 over a pile",
        arguments: [
            (0, nil, 600.0, 76.0, []),
            (0, 0, 600, 76, []),
            (1, nil, 600, 76, [0]),
            (1, 0, 600, 76, [0]),  // no others: gap 0
            (4, nil, 600, 76, [0, 64, 128, 192]),  // i × 64
            // Pile from 600 − 76 = 524, min(14, 76 / 3 = 25.33) = 14 apart.
            (4, 0, 600, 76, [0, 524, 538, 552]),
            (4, 1, 600, 76, [524, 0, 538, 552]),
            (4, 3, 600, 76, [524, 538, 552, 0]),
            (4, 4, 600, 76, [0, 64, 128, 192]),  // W11: out of range counts as none
            (4, -1, 600, 76, [0, 64, 128, 192]),
            // 7 cards: min(14, 76 / 6 = 12.67) = 76 / 6 apart.
            (
                7, 2, 600, 76,
                [
                    524, 524 + 76.0 / 6, 0, 524 + 2 * (76.0 / 6), 524 + 3 * (76.0 / 6), 524 + 4 * (76.0 / 6),
                    524 + 5 * (76.0 / 6),
                ]
            ),
            (4, 0, 600, 0, [0, 600, 600, 600]),  // min(14, 0 / 3) = 0
            (4, 0, 600, -20, [0, 620, 620, 620]),  // gap min(14, max(−20, 0) / 3) = 0, from 600 + 20
        ] as [(Int, Int?, Double, Double, [Double])])
    func tops(count: Int, selected: Int?, height: Double, pileHeight: Double, expected: [Double]) {
        let tops = WalletCardStackMath.tops(
            count: count, selected: selected, step: 64, height: height, pileHeight: pileHeight)
        #expect(tops.exactly == expected.exactly)
    }

    @Test(
        "W2 the pile step is clamped to 0 or more and to pileHeight / others",
        arguments: [
            (0.0, [0, 524, 524, 524]),  // min(0, 25.33)
            (-5, [0, 524, 524, 524]),  // max(−5, 0)
            (30, [0, 524, 524 + 76.0 / 3, 524 + 2 * (76.0 / 3)]),  // min(30, 76 / 3)
        ] as [(Double, [Double])])
    func pileStep(pileStep: Double, expected: [Double]) {
        let tops = WalletCardStackMath.tops(
            count: 4, selected: 0, step: 64, height: 600, pileHeight: 76, pileStep: pileStep)
        #expect(tops.exactly == expected.exactly)
    }

    /// `min(14, NaN / others)` is 14 (`NaN < 14` is false), but `height − NaN` is NaN anyway.
    @Test(
        "W2 NaN and infinities in tops: what the seed's order gives",
        arguments: [
            (nil, Double.nan, 600.0, 76.0, [Double.nan, .nan, .nan]),  // 0 × NaN
            (nil, .infinity, 600, 76, [.nan, .infinity, .infinity]),  // 0 × ∞ is NaN
            (0, 64, 600, .nan, [0, .nan, .nan]),
            (0, 64, .nan, 76, [0, .nan, .nan]),
            (0, 64, 600, .infinity, [0, -.infinity, -.infinity]),  // gap min(14, ∞) = 14; −∞ + k × 14
            (0, 64, .infinity, 76, [0, .infinity, .infinity]),
        ] as [(Int?, Double, Double, Double, [Double])])
    func topsNonFinite(selected: Int?, step: Double, height: Double, pileHeight: Double, expected: [Double]) {
        let tops = WalletCardStackMath.tops(
            count: 3, selected: selected, step: step, height: height, pileHeight: pileHeight)
        #expect(tops.exactly == expected.exactly)
    }
}
