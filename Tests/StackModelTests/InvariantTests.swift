import Testing

@testable import StackModel

/// A component whose snapshot says whatever the test gives it: the invariants must catch each lie.
private final class Scripted: Component {
    let kind = ComponentKind("scripted")
    let name: String
    var cards: [CardSnapshot]
    var progress: Double?
    init(name: String = "scripted", cards: [CardSnapshot], progress: Double? = nil) {
        self.name = name
        self.cards = cards
        self.progress = progress
    }
    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: Rect(x: 0, y: 0, width: 100, height: 100), cards: cards,
            state: progress.map { [("progress", .number($0))] } ?? [])
    }
    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] { cards }
    var cardCount: Int { cards.count }
    var cardTextBytes: Int { 0 }
    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? { nil }
    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point { .zero }
    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {}
    func touchMoved(_ touch: Touch, in settings: ScreenSettings) {}
    func touchEnded(_ touch: Touch, in settings: ScreenSettings) {}
    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] { [] }
    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    { false }
    var animationEndTime: Double? { nil }
    func apply(_ change: OwnerChange, in settings: ScreenSettings) throws { throw unsupported(change) }
}

private func card(_ id: String, z: Double, opacity: Double = 1, scale: Double = 1, width: Double = 10)
    -> CardSnapshot
{
    CardSnapshot(
        id: id, frame: Rect(x: 0, y: 0, width: width, height: 10), scale: scale, opacity: opacity, z: z,
        isVisible: true, isHittable: true)
}

@Suite struct InvariantTests {
    @Test func `a coherent snapshot breaks nothing`() throws {
        let screen = try Screen()
        try screen.add(Scripted(cards: [card("a", z: 1), card("b", z: 2)], progress: 1))
        #expect(screen.invariantViolations() == [])
    }

    @Test(
        arguments: [
            ([card("a", z: 1), card("a", z: 2)], nil, "scripted 'scripted' holds card 'a' twice"),
            ([card("a", z: 1), card("b", z: 1)], nil, "scripted 'scripted': card 'b' shares z 1"),
            ([card("a", z: 1, opacity: .nan)], nil, "scripted 'scripted': card 'a' has opacity nan"),
            ([card("a", z: 1, opacity: 1.5)], nil, "scripted 'scripted': card 'a' has opacity 1.5"),
            ([card("a", z: 1, scale: -0.5)], nil, "scripted 'scripted': card 'a' has scale -0.5"),
            ([card("a", z: 1, width: .infinity)], nil, "scripted 'scripted': card 'a' has frame"),
            ([card("a", z: 1, width: -1)], nil, "scripted 'scripted': card 'a' has frame"),
            ([], 2.5, "scripted 'scripted': progress 2.5 is beyond its spring's reach"),
            ([], -Double.infinity, "scripted 'scripted': progress -inf is beyond its spring's reach"),
        ] as [([CardSnapshot], Double?, String)])
    func `each broken invariant is named`(cards: [CardSnapshot], progress: Double?, message: String) throws {
        let screen = try Screen()
        let scripted = Scripted(cards: [])
        try screen.add(scripted)
        // Broken behind the screen's back: through an input, a debug build would stop right here.
        scripted.cards = cards
        scripted.progress = progress
        let violations = screen.invariantViolations()
        #expect(violations.count == 1)
        #expect(violations.first?.hasPrefix(message) == true, "\(violations)")
    }

    #if DEBUG
        @Test func `a debug build stops at the input that broke one`() async {
            await #expect(processExitsWith: .failure) {
                let screen = try Screen()
                try screen.add(Scripted(cards: [card("a", z: 1), card("a", z: 2)]))
            }
        }
    #endif

    /// The three seeds' models hold every invariant through their gestures, for 0, 1, 2 and many
    /// cards (debug builds also check this after every input; this says it in release too).
    @Test(arguments: [0, 1, 2, 7])
    func `the seeds' models hold them through their gestures`(count: Int) throws {
        let screen = try Screen()
        let cards = makeCards(count, height: 70)
        try screen.add(NotificationStack(cards: cards, isDismissible: true))
        try screen.add(WalletCardStack(name: "wallet", cards: cards, origin: Point(x: 0, y: 300)))
        try screen.add(StickyStackedCards(name: "sticky", cards: cards, origin: Point(x: 0, y: 600)))
        let points = [Point(x: 195, y: 30), Point(x: 175, y: 330), Point(x: 195, y: 650)]
        for point in points {
            _ = try screen.tap(at: point)
            #expect(screen.invariantViolations() == [])
            for _ in 0..<6 {
                try screen.advance(by: 0.05)
                #expect(screen.invariantViolations() == [])
            }
            try screen.drag(from: point, by: Point(x: -150, y: -40))
            _ = try screen.settle()
            #expect(screen.invariantViolations() == [])
        }
    }
}
