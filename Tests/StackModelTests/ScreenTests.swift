import Testing

@testable import StackModel

/// A component whose one value springs with bounce 1: it never comes to rest.
private final class Pendulum: Component {
    let kind = ComponentKind.notificationStack
    let name = "pendulum"
    var value = AnimatedValue(0)

    func swing(at time: Double) { value.set(1, animation: .spring(Spring(duration: 1, bounce: 1)), at: time) }
    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: .zero, cards: [],
            state: [("value", .number(value.value(at: settings.now)))])
    }
    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] { [] }
    var cardCount: Int { 0 }
    var cardTextBytes: Int { 0 }
    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? { nil }
    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point { .zero }
    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {}
    func touchMoved(_ touch: Touch, in settings: ScreenSettings) {}
    func touchEnded(_ touch: Touch, in settings: ScreenSettings) {}
    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] { [] }
    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    {
        false
    }
    var animationEndTime: Double? { value.endTime }
}

@Suite("G1 screen and clock")
struct ScreenTests {
    @Test("G1 settle reports an animation that never settles, and leaves the clock where it was")
    func settleCap() throws {
        let screen = try Screen()
        let pendulum = Pendulum()
        try screen.add(pendulum)
        pendulum.swing(at: 0)
        #expect(throws: StackModelError("an animation of pendulum did not settle within 10 s")) {
            try screen.settle()
        }
        #expect(screen.now == 0)
    }

    @Test("G1 settle with nothing running moves no time; advance moves exactly what it is told")
    func settleNothing() throws {
        let f = try NotificationFixture()
        #expect(try f.screen.settle() == 0)
        try f.screen.advance(by: 0.25)
        try f.screen.advance(by: 0.5)
        #expect(f.screen.now == 0.75)
    }

    @Test("G5 the tap helper and raw touches give the same result")
    func tapPathsAgree() throws {
        let helper = try NotificationFixture()
        let raw = try NotificationFixture()
        try helper.screen.tap(at: Point(x: 50, y: 120), duration: 0.1)
        let (finger, _) = try raw.screen.touchDown(at: Point(x: 50, y: 120))
        try raw.screen.advance(by: 0.1)
        try raw.screen.touchUp(finger)
        #expect(helper.screen.snapshot() == raw.screen.snapshot())
    }

    @Test("G5 the drag helper and raw touches give the same result")
    func dragPathsAgree() throws {
        let helper = try NotificationFixture(expanded: true)
        let raw = try NotificationFixture(expanded: true)
        let start = try helper.stack.point(of: "calendar", in: helper.screen.settings)
        try helper.screen.drag(from: start, by: Point(x: -90, y: 4), steps: 3, duration: 0.3)
        let (finger, _) = try raw.screen.touchDown(at: start)
        for step in 1...3 {
            try raw.screen.advance(by: 0.3 / 3)
            try raw.screen.touchMove(
                finger, to: Point(x: start.x - 30 * Double(step), y: start.y + 4 * Double(step) / 3))
        }
        try raw.screen.touchUp(finger)
        #expect(helper.screen.snapshot() == raw.screen.snapshot())
    }

    @Test("G5 a tap fails past 45 pt of movement or 0.75 s down")
    func tapLimits() throws {
        let far = try NotificationFixture()
        try far.screen.drag(from: Point(x: 50, y: 120), by: Point(x: 0, y: 46), steps: 1)
        #expect(!far.stack.isExpanded)
        let near = try NotificationFixture()
        try near.screen.drag(from: Point(x: 50, y: 120), by: Point(x: 0, y: 45), steps: 1)
        #expect(near.stack.isExpanded)
        let long = try NotificationFixture()
        try long.screen.tap(at: Point(x: 50, y: 120), duration: 0.76)
        #expect(!long.stack.isExpanded)
        let short = try NotificationFixture()
        try short.screen.tap(at: Point(x: 50, y: 120), duration: 0.75)
        #expect(short.stack.isExpanded)
    }

    @Test("G1 every input is reported once, after it took effect")
    func events() throws {
        let f = try NotificationFixture()
        var seen: [InputEvent] = []
        f.screen.onEvent = { seen.append($0) }
        try f.screen.tap(at: Point(x: 50, y: 120))
        f.screen.setReduceMotion(true)
        try f.screen.advance(by: 0.5)
        #expect(
            seen == [
                .touchDown(touch: 1, at: Point(x: 50, y: 120)), .touchUp(touch: 1), .setReduceMotion(true),
                .advance(seconds: 0.5),
            ])
    }
}
