import Testing

@testable import StackModel

/// The seed's math with the demo's cards: 70 pt high, default `spacing` 10 and `peek` 10 (seed 000).
///
/// Expected values are worked by hand from the seed's formulas, with h = 70, s = 10, p = 10:
/// closed top(i) = h + p × min(i, 2) − h(i); open top(i) = Σ (h(j) + s) for j < i;
/// any top = closed + (open − closed) × progress; closed height = h + p × min(n − 1, 2);
/// open height = Σ h + s × (n − 1).
@Suite("NotificationStackMath")
struct NotificationStackMathTests {
    private static func cards(_ count: Int) -> [Double] { Array(repeating: 70, count: count) }

    /// Checks `tops` and `height` together: they take the same inputs (N2).
    private func expectLayout(
        _ heights: [Double], spacing: Double = 10, peek: Double = 10, progress: Double,
        tops: [Double], height: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let gotTops = NotificationStackMath.tops(
            heights: heights, spacing: spacing, peek: peek, progress: progress)
        let gotHeight = NotificationStackMath.height(
            heights: heights, spacing: spacing, peek: peek, progress: progress)
        #expect(gotTops.exactly == tops.exactly, "tops", sourceLocation: sourceLocation)
        #expect(gotHeight.exactly == height.exactly, "height", sourceLocation: sourceLocation)
    }

    @Test("N2 visibleBehind is 2") func visibleBehind() {
        #expect(NotificationStackMath.visibleBehind == 2)
    }

    @Test(
        "N2 tops and height of 0, 1, 2, 3 and 6 demo cards: closed, open, half-way",
        arguments: [
            // Closed: tops 10 × min(i, 2); height 70 + 10 × min(n − 1, 2).
            (0, 0.0, [], 0),
            (1, 0, [0], 70),
            (2, 0, [0, 10], 80),
            (3, 0, [0, 10, 20], 90),
            (6, 0, [0, 10, 20, 20, 20, 20], 90),
            // Open: tops 80 × i; height 70n + 10(n − 1).
            (0, 1, [], 0),
            (1, 1, [0], 70),
            (2, 1, [0, 80], 150),
            (3, 1, [0, 80, 160], 230),
            (6, 1, [0, 80, 160, 240, 320, 400], 470),
            // Half-way: closed + (open − closed) / 2, e.g. 20 + (400 − 20) / 2 = 210; 90 + 380 / 2 = 280.
            (0, 0.5, [], 0),
            (1, 0.5, [0], 70),
            (2, 0.5, [0, 45], 115),
            (3, 0.5, [0, 45, 90], 160),
            (6, 0.5, [0, 45, 90, 130, 170, 210], 280),
        ] as [(Int, Double, [Double], Double)])
    func demoCards(count: Int, progress: Double, tops: [Double], height: Double) {
        expectLayout(Self.cards(count), progress: progress, tops: tops, height: height)
    }

    /// `min(max(progress, 0), 1)`: Swift's `max(x, y)` is `y >= x ? y : x` and `min(x, y)` is
    /// `y < x ? y : x`, so a NaN `x` falls through both and comes out NaN.
    @Test(
        "N2 progress is clamped to 0...1, and NaN spreads to every top and the height",
        arguments: [
            (-1.0, [0, 10, 20], 90),  // as closed
            (-.infinity, [0, 10, 20], 90),
            (2, [0, 80, 160], 230),  // as open
            (.infinity, [0, 80, 160], 230),
            (.nan, [.nan, .nan, .nan], .nan),  // even the first: 0 + (0 − 0) × NaN
        ] as [(Double, [Double], Double)])
    func progressOutOfRange(progress: Double, tops: [Double], height: Double) {
        expectLayout(Self.cards(3), progress: progress, tops: tops, height: height)
    }

    @Test(
        "N2 no cards: no tops and height 0, whatever the progress",
        arguments: [Double.nan, -.infinity, .infinity])
    func noCardsAnyProgress(progress: Double) {
        expectLayout([], progress: progress, tops: [], height: 0)
    }

    /// A 100 pt card behind a 70 pt one: closed top 70 + 10 − 100 = −20, open 70 + 10 = 80,
    /// half-way −20 + (80 + 20) / 2 = 30. Height: closed 70 + 10 = 80 (the taller card is not in
    /// it), open 170 + 10 = 180, half-way 80 + 100 / 2 = 130.
    @Test(
        "N16 a card taller than the first tops above it while closed",
        arguments: [
            (0.0, [0, -20], 80),
            (0.5, [0, 30], 130),
            (1, [0, 80], 180),
        ] as [(Double, [Double], Double)])
    func tallerCard(progress: Double, tops: [Double], height: Double) {
        expectLayout([70, 100], progress: progress, tops: tops, height: height)
    }

    /// Spacing −10 and peek −10 are used as given: closed tops 70 − 10 × min(i, 2) − 70, open
    /// tops 60 × i; heights 70 − 20 = 50 and 210 − 20 = 190.
    @Test(
        "N2 negative spacing and peek are not clamped",
        arguments: [
            (0.0, [0, -10, -20], 50),
            (1, [0, 60, 120], 190),
        ] as [(Double, [Double], Double)])
    func negativeSpacingAndPeek(progress: Double, tops: [Double], height: Double) {
        expectLayout(Self.cards(3), spacing: -10, peek: -10, progress: progress, tops: tops, height: height)
    }

    /// 1 − 0.06 × min(max(depth, 0), 2) × (1 − progress), progress clamped to 0...1.
    @Test(
        "N3 a card behind the first is drawn 0.06 smaller a depth, up to 2, while closed",
        arguments: [
            (0, 0.0, 1.0), (1, 0, 0.94), (2, 0, 0.88), (3, 0, 0.88), (-1, 0, 1),  // 1 − 0.06 × 2 = 0.88
            (0, 0.5, 1), (1, 0.5, 0.97), (2, 0.5, 0.94), (3, 0.5, 0.94), (-1, 0.5, 1),  // 1 − 0.12 × 0.5
            (0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 1, 1), (-1, 1, 1),  // 1 − x × 0
            (2, -1, 0.88), (2, -.infinity, 0.88), (2, 2, 1), (2, .infinity, 1),  // clamped
            (0, .nan, .nan), (2, .nan, .nan),  // NaN × even 0 is NaN
        ] as [(Int, Double, Double)])
    func scale(depth: Int, progress: Double, expected: Double) {
        #expect(NotificationStackMath.scale(depth: depth, progress: progress).exactly == expected.exactly)
    }
}
