// Uses StackModel from outside: a screen with a notification stack, and a component kind of its
// own (ComponentKind is open), driven by the same touches and owner changes.
import StackModel

/// A kind StackModel does not know: a card that counts the taps on it.
final class Counter: Component {
    let kind = ComponentKind("counter")
    let name = "counter"
    let frame = Rect(x: 0, y: 700, width: 100, height: 100)
    var taps = 0

    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(kind: kind, name: name, frame: frame, cards: cardSnapshots(in: settings))
    }
    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        [CardSnapshot(id: "c", frame: frame, scale: 1, opacity: 1, z: 0, isVisible: true, isHittable: true)]
    }
    var cardCount: Int { 1 }
    var cardTextBytes: Int { 0 }
    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        frame.contains(point) ? .card("c") : nil
    }
    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point { frame.center }
    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {}
    func touchMoved(_ touch: Touch, in settings: ScreenSettings) {}
    func touchEnded(_ touch: Touch, in settings: ScreenSettings) { taps += 1 }
    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] { [] }
    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    { false }
    var animationEndTime: Double? { nil }
}

let screen = try Screen()
let stack = try NotificationStack(
    cards: ["mail", "calendar"].map { CardSpec(id: $0, height: 70) }, origin: Point(x: 16, y: 100), width: 358
)
try screen.add(stack)
let counter = Counter()
try screen.add(counter)
try screen.tap(at: try stack.point(of: "stack", in: screen.settings))
try screen.settle()
try screen.tap(at: counter.frame.center)
try screen.setExpanded(false, of: "notifications")
try screen.settle()
print("StackModelUser: expanded \(stack.isExpanded), counter taps \(counter.taps), t = \(screen.now)")
