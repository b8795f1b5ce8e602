import Testing

@testable import StackModel

/// A component keeps the frames it computed until its state or the settings change
/// (``FrameCache``): every reading after every kind of input must be what a component that
/// never cached anything reads, byte for byte.
struct FrameCacheTests {
    /// Everything a frame shows of `component` at this moment, as bytes.
    static func reading(_ component: any Component, on screen: Screen) -> String {
        let settings = screen.settings
        let hit = screen.hitTest(Point(x: 195, y: 140)).map { "\($0.componentName) \($0.part.name)" }
        return "\(component.snapshot(in: settings))\n\(component.cardSnapshots(in: settings))\n"
            + "\(component.accessibilityElements(in: settings))\n\(String(describing: component.animationEndTime))\n"
            + "\(screen.pendingAnimationEnd.map { "\($0)" } ?? "nil") \(hit ?? "nothing")"
    }

    /// The inputs, each a kind of change a frame follows: touches (a tap that opens the pile, a
    /// swipe that springs back, one that dismisses, raw touches), the clock, every setting, the
    /// owner's changes (the items added and removed, the binding), and an accessibility action.
    static let inputs: [(name: String, run: @Sendable (Screen) throws -> Void)] = [
        ("tap", { try $0.tap(at: Point(x: 195, y: 140)) }),
        ("advance mid-animation", { try $0.advance(by: 0.05) }),
        ("settle", { try $0.settle() }),
        ("drag back", { try $0.drag(from: Point(x: 195, y: 190), by: Point(x: -60, y: 0), steps: 5) }),
        ("advance", { try $0.advance(by: 0.1) }),
        ("drag away", { try $0.drag(from: Point(x: 195, y: 190), by: Point(x: -200, y: 0), steps: 5) }),
        ("touch down", { _ = try $0.touchDown(at: Point(x: 195, y: 215)) }),
        ("touch move", { try $0.touchMove($0.touches.map(\.key).max() ?? 0, to: Point(x: 120, y: 215)) }),
        ("touch up", { try $0.touchUp($0.touches.map(\.key).max() ?? 0) }),
        ("reduce motion on", { $0.setReduceMotion(true) }),
        ("layout direction", { $0.setLayoutDirection(.rightToLeft) }),
        ("dynamic type", { $0.setDynamicTypeSize(.accessibility2) }),
        ("a card added", {
            try $0.setItems(["new", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) }, of: "n")
        }),
        ("reduce motion off", { $0.setReduceMotion(false) }),
        ("a card removed", { try $0.setItems(["new", "fitness"].map { CardSpec(id: $0, height: 90) }, of: "n") }),
        ("advance", { try $0.advance(by: 0.02) }),
        ("size", { try $0.setSize(Size(width: 500, height: 900)) }),
        ("accessibility action", { try $0.performAction("Clear", on: "card:new", of: "n") }),
        ("closed", { try $0.setExpanded(false, of: "n") }),
        ("advance", { try $0.advance(by: 0.03) }),
        ("escape", { try $0.escape() }),
        ("settle", { try $0.settle() }),
    ]

    static func screen(keepsFrames: Bool) throws -> (Screen, NotificationStack) {
        let screen = try Screen()
        let stack = try NotificationStack(
            name: "n", cards: NotificationFixture.ids.map { CardSpec(id: $0, height: 70) }, isDismissible: true,
            origin: Point(x: 16, y: 100), width: 358)
        stack.fill = ContainerFill(widthMargin: 32)
        if !keepsFrames { stack.stopKeepingFrames() }
        try screen.add(stack)
        return (screen, stack)
    }

    @Test func aNotificationStackReadAfterEveryInputReadsAsOneThatKeepsNoFrame() throws {
        let (screen, stack) = try Self.screen(keepsFrames: true)
        let (reference, referenceStack) = try Self.screen(keepsFrames: false)
        #expect(Self.reading(stack, on: screen) == Self.reading(referenceStack, on: reference))
        var revisions: Set<Int> = [stack.revision.count]
        for input in Self.inputs {
            try input.run(screen)
            try input.run(reference)
            let kept = Self.reading(stack, on: screen)
            #expect(kept == Self.reading(referenceStack, on: reference), "after \(input.name)")
            // Read again, from what was kept.
            #expect(Self.reading(stack, on: screen) == kept, "read again after \(input.name)")
            revisions.insert(stack.revision.count)
        }
        // The touches, the settings and the owner's changes changed the stack's state (the clock
        // changes none): the comparison saw frames the cache had to drop.
        #expect(revisions.count >= 8)
    }

    @Test func aCachedFrameIsKeptOnlyForSettingsThatAreTheSameBitForBit() {
        let zero = ScreenSettings(now: 0)
        #expect(zero.isIdentical(to: ScreenSettings(now: 0)))
        #expect(!zero.isIdentical(to: ScreenSettings(now: -0.0)))
        #expect(!zero.isIdentical(to: ScreenSettings(size: Size(width: -0.0, height: 844))))
        #expect(!zero.isIdentical(to: ScreenSettings(layoutDirection: .rightToLeft)))
        #expect(!zero.isIdentical(to: ScreenSettings(reduceMotion: true)))
        #expect(!zero.isIdentical(to: ScreenSettings(dynamicTypeSize: .small)))
        #expect(!zero.isIdentical(to: ScreenSettings(now: 1e-300)))
    }
}
