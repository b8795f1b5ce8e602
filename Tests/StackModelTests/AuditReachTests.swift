import Testing

@testable import StackModel

/// The audit's reach, the straightforward way: the region cut by every edge of every frame on the
/// screen (`frames`: every component, card, part and element frame), each cell hit-tested at its
/// centre through `Screen.hitTest`, one region at a time. What the audit's shared grid must agree
/// with, cell for cell.
private func referenceReach(
    _ screen: Screen, _ frames: [Rect], _ region: Rect, index: Int, target: String
) -> Auditor.Reach {
    let kept = frames.filter { $0.width > 0 && $0.height > 0 }
    func cuts(_ low: Double, _ high: Double, _ edges: [Double]) -> [Double] {
        [low] + Set(edges).filter { $0 > low && $0 < high }.sorted() + (high != low ? [high] : [])
    }
    let xs = cuts(region.minX, region.maxX, kept.flatMap { [$0.minX, $0.maxX] })
    let ys = cuts(region.minY, region.maxY, kept.flatMap { [$0.minY, $0.maxY] })
    let cells = (0..<(ys.count - 1)).map { row in
        (0..<(xs.count - 1)).map { column in
            let hit = screen.hitTest(
                Point(x: (xs[column] + xs[column + 1]) / 2, y: (ys[row] + ys[row + 1]) / 2))
            return hit?.componentIndex == index && hit?.target.isSameBytes(target) == true
        }
    }
    return Auditor.Reach(xs: xs, ys: ys, cells: cells)
}

extension SplitMix {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func number(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}

/// A random screen of one to three components of random kinds, sizes, cards and states.
private func randomScreen(_ random: inout SplitMix) throws -> Screen {
    let screen = try Screen(settings: ScreenSettings())
    for number in 0..<(1 + random.below(3)) {
        let count = random.below(30)
        let cards = (0..<count).map { CardSpec(id: "c\($0)", height: random.number(0...120).rounded()) }
        let origin = Point(x: random.number(-20...60).rounded(), y: random.number(-40...500).rounded())
        switch random.below(3) {
        case 0:
            let wallet = try WalletCardStack(
                name: "w\(number)", cards: cards.map { CardSpec(id: $0.id, height: 200) },
                selection: count > 0 && random.below(2) == 0 ? "c\(random.below(count))" : nil,
                cardHeight: random.number(20...240).rounded(), origin: origin,
                width: random.number(40...390).rounded(), height: random.number(100...844).rounded())
            try screen.add(wallet)
        case 1:
            let stack = try NotificationStack(
                name: "n\(number)", cards: cards, isExpanded: random.below(2) == 0,
                isDismissible: random.below(2) == 0, origin: origin, width: random.number(40...390).rounded())
            try screen.add(stack)
        default:
            let sticky = try StickyStackedCards(
                name: "s\(number)", cards: cards, origin: origin, width: random.number(40...390).rounded(),
                viewportHeight: random.number(100...844).rounded(),
                scrollOffset: random.number(0...600).rounded())
            try screen.add(sticky)
        }
    }
    return screen
}

@Suite("Audit reach: the shared grid agrees with cutting each region")
struct AuditReachTests {
    @Test(arguments: 0..<60)
    func `every target's reach on a random screen is the reference's (bounds and fitting squares)`(seed: Int)
        throws
    {
        var random = SplitMix(seed: UInt64(seed))
        let screen = try randomScreen(&random)
        let auditor = Auditor(screen: screen)
        var frames: [Rect] = []
        for (component, snapshot) in zip(screen.components, screen.snapshot().components) {
            frames += [snapshot.frame] + snapshot.cards.map(\.frame) + snapshot.parts.map(\.frame)
            frames += component.accessibilityElements(in: screen.settings).map(\.frame)
        }
        var checked = 0
        for index in screen.components.indices {
            let subject = auditor.subject(index)
            var regions: [(Rect, String)] = subject.targets.compactMap { target in
                subject.element(target.element)?.frame.intersection(auditor.bounds).map {
                    ($0, target.element)
                }
            }
            regions += subject.snapshot.cards.compactMap { card in
                card.frame.intersection(auditor.bounds).map { ($0, "card:\(card.id)") }
            }
            for (region, target) in regions {
                let fast = auditor.reach(region, index: index, target: target)
                let reference = referenceReach(screen, frames, region, index: index, target: target)
                let cut = auditor.cutReach(region, index: index, target: target)
                #expect(fast.bounds == reference.bounds, "seed \(seed): \(target) in \(region)")
                #expect(
                    fast.fits(side: 44) == reference.fits(side: 44), "seed \(seed): \(target) in \(region)")
                #expect(cut.bounds == reference.bounds && cut.fits(side: 44) == reference.fits(side: 44))
                for side in [1.0, 10, 30, 60] {
                    #expect(
                        fast.fits(side: side) == reference.fits(side: side),
                        "seed \(seed): \(target) side \(side)")
                }
                checked += 1
            }
        }
        #expect(checked > 0 || screen.components.allSatisfy { $0.cardCount == 0 })
    }

    @Test func `a screen whose grid would be larger than a multiple of its edges cuts each region instead`() {
        let edges = (0...400).map(Double.init)
        #expect(HitGrid(xEdges: edges, yEdges: edges, hitTest: { _ in nil }) == nil)
        #expect(HitGrid(xEdges: [0, 1, 2], yEdges: edges, hitTest: { _ in nil }) != nil)
        #expect(HitGrid(xEdges: [0, .infinity], yEdges: edges, hitTest: { _ in nil }) == nil)
    }
}
