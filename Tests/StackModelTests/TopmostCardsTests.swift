import Testing

@testable import StackModel

/// `TopmostCards` answers a pile's hit tests from an index (issue 23: the audit hit-tests every
/// cell of every card); it must pick exactly the card the plain scan picks, edges included.
@Suite struct TopmostCardsTests {
    /// The plain scan: the hittable card with the highest z under `point`, the later on a tie.
    static func scan(_ point: Point, _ cards: [CardSnapshot]) -> CardSnapshot? {
        cards.enumerated()
            .filter { $0.element.isHittable && $0.element.frame.contains(point) }
            .max { a, b in a.element.z != b.element.z ? a.element.z < b.element.z : a.offset < b.offset }?
            .element
    }

    /// A pile of `count` cards in a column: steps, heights, z (ties and reversals) and
    /// hittability drawn from `seed` (a small linear congruential generator, the same every run).
    static func pile(_ count: Int, seed: UInt64) -> [CardSnapshot] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var y = 0.0
        return (0..<count).map { index in
            y += [0, 0.25, 1.6, 8, 64][next(5)]
            let height = [0, 30, 200, 200.5][next(4)]
            let z = [Double(index), Double(count - index), 1, Double(next(3))][Int(seed % 4)]
            return CardSnapshot(
                id: "c\(index)", frame: Rect(x: 20, y: y, width: 350, height: height), scale: 1, opacity: 1,
                z: z, isVisible: true, isHittable: next(7) != 0)
        }
    }

    @Test(arguments: [9, 40, 300], [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func `the index picks the card the plain scan picks, at every edge and between`(count: Int, seed: UInt64)
    {
        let cards = Self.pile(count, seed: seed)
        let index = TopmostCards(cards)
        var ys: [Double] = [-1, -.infinity, .infinity, .nan]
        for card in cards {
            for edge in [card.frame.minY, card.frame.maxY] {
                ys += [edge, edge.nextDown, edge.nextUp, edge + 0.1]
            }
        }
        for y in ys {
            for x in [19.999, 20, 100, 369.999, 370, .nan] {
                let point = Point(x: x, y: y)
                #expect(index.card(at: point)?.id == Self.scan(point, cards)?.id, "at \(x), \(y)")
            }
        }
    }

    @Test func `a pile whose cards do not share their x range is scanned, with the same answers`() {
        var cards = Self.pile(20, seed: 3)
        cards[5].frame.x = 30
        let index = TopmostCards(cards)
        for card in cards {
            let point = Point(x: 25, y: card.frame.midY)
            #expect(index.card(at: point)?.id == Self.scan(point, cards)?.id)
        }
    }
}
