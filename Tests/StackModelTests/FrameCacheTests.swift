import Testing

@testable import StackModel

/// A component keeps the frames it computed until its state or the settings change
/// (``KeptFrames``): every reading after every kind of input must be what a component that keeps
/// no frame reads, byte for byte.
struct FrameCacheTests {
    typealias Input = (name: String, run: (Screen) throws -> Void)

    /// Everything a frame shows of `component` at this moment, as bytes.
    static func reading(_ component: any Component, on screen: Screen, probe: Point) -> String {
        let settings = screen.settings
        let hit = screen.hitTest(probe).map { "\($0.componentName) \($0.part.name)" }
        return "\(component.snapshot(in: settings))\n\(component.cardSnapshots(in: settings))\n"
            + "\(component.accessibilityElements(in: settings))\n\(String(describing: component.animationEndTime))\n"
            + "\(screen.pendingAnimationEnd.map { "\($0)" } ?? "nil") \(hit ?? "nothing")"
    }

    /// Runs `inputs` on a screen whose component keeps its frames and on one whose component keeps
    /// none (`make(false)`), reading both after every input (the first twice: the second reading
    /// comes from what was kept).
    static func compare(
        _ make: (_ keepsFrames: Bool) throws -> (Screen, any Component, KeptFrames), inputs: [Input],
        probe: Point, changes: Int
    ) throws {
        let (screen, component, frames) = try make(true)
        let (reference, referenceComponent, _) = try make(false)
        func readings() -> (String, String) {
            (
                reading(component, on: screen, probe: probe),
                reading(referenceComponent, on: reference, probe: probe)
            )
        }
        #expect(readings().0 == readings().1)
        var revisions: Set<Int> = [frames.revision.count]
        for input in inputs {
            try input.run(screen)
            try input.run(reference)
            let (kept, fresh) = readings()
            #expect(kept == fresh, "after \(input.name)")
            #expect(reading(component, on: screen, probe: probe) == kept, "read again after \(input.name)")
            revisions.insert(frames.revision.count)
        }
        // The touches, the settings and the owner's changes changed the component's state (the
        // clock changes none): the comparison saw frames the cache had to drop.
        #expect(revisions.count >= changes)
    }

    /// The inputs every kind takes: the clock, every setting, the screen's size, Escape.
    static func settingsInputs(_ name: String) -> [Input] {
        [
            ("reduce motion on", { $0.setReduceMotion(true) }),
            ("layout direction", { $0.setLayoutDirection(.rightToLeft) }),
            ("dynamic type", { $0.setDynamicTypeSize(.accessibility2) }),
            ("advance", { try $0.advance(by: 0.02) }),
            ("reduce motion off", { $0.setReduceMotion(false) }),
            ("size", { try $0.setSize(Size(width: 500, height: 900)) }),
            ("escape", { try $0.escape() }),
            ("advance", { try $0.advance(by: 0.03) }),
            ("settle", { try $0.settle() }),
        ]
    }

    /// Presses and drags on card `id` of the component `name`, found where it is now.
    static func point(_ screen: Screen, _ name: String, _ id: String) throws -> Point {
        try screen.component(named: name)!.point(of: .card(id), in: screen.settings)
    }

    @Test func aNotificationStackReadAfterEveryInputReadsAsOneThatKeepsNoFrame() throws {
        // Touches (a tap that opens the pile, a swipe that springs back, one that dismisses, raw
        // touches), the clock, the settings, the owner's changes (items added and removed, the
        // binding), an accessibility action.
        let inputs: [Input] =
            [
                ("tap", { try $0.tap(at: Point(x: 195, y: 140)) }),
                ("advance mid-animation", { try $0.advance(by: 0.05) }),
                ("settle", { try $0.settle() }),
                (
                    "drag back",
                    { try $0.drag(from: Self.point($0, "n", "messages"), by: Point(x: -60, y: 0), steps: 5) }
                ),
                ("advance", { try $0.advance(by: 0.1) }),
                (
                    "drag away",
                    { try $0.drag(from: Self.point($0, "n", "messages"), by: Point(x: -200, y: 0), steps: 5) }
                ),
                ("touch down", { _ = try $0.touchDown(at: Self.point($0, "n", "calendar")) }),
                (
                    "touch move",
                    { try $0.touchMove($0.touches.map(\.key).max() ?? 0, to: Point(x: 120, y: 215)) }
                ),
                ("touch up", { try $0.touchUp($0.touches.map(\.key).max() ?? 0) }),
                (
                    "a card added",
                    {
                        try $0.setItems(
                            ["new", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) },
                            of: "n")
                    }
                ),
                (
                    "a card removed",
                    {
                        try $0.setItems(["new", "fitness"].map { CardSpec(id: $0, height: 90) }, of: "n")
                    }
                ),
                ("accessibility action", { try $0.performAction("Clear", on: "card:new", of: "n") }),
                ("closed", { try $0.setExpanded(false, of: "n") }),
            ] + Self.settingsInputs("n")
        try Self.compare(
            { keepsFrames in
                let screen = try Screen()
                let stack = try NotificationStack(
                    name: "n", cards: NotificationFixture.ids.map { CardSpec(id: $0, height: 70) },
                    isDismissible: true, origin: Point(x: 16, y: 100), width: 358)
                stack.fill = ContainerFill(widthMargin: 32)
                if !keepsFrames { stack.frames.stop() }
                try screen.add(stack)
                return (screen, stack, stack.frames)
            }, inputs: inputs, probe: Point(x: 195, y: 140), changes: 10)
    }

    @Test func aWalletReadAfterEveryInputReadsAsOneThatKeepsNoFrame() throws {
        // A tap that selects, a press that slides off its card, the owner's selection, items and
        // height, VoiceOver's activate, then the settings and Escape.
        let inputs: [Input] =
            [
                ("tap", { try $0.tap(at: Self.point($0, "w", "visa")) }),
                ("advance mid-animation", { try $0.advance(by: 0.05) }),
                ("settle", { try $0.settle() }),
                ("tap to close", { try $0.tap(at: Self.point($0, "w", "visa")) }),
                ("press", { _ = try $0.touchDown(at: Self.point($0, "w", "amex")) }),
                ("advance", { try $0.advance(by: 0.05) }),
                ("slide off", { try $0.touchMove($0.touches.map(\.key).max() ?? 0, to: Point(x: 5, y: 5)) }),
                ("up", { try $0.touchUp($0.touches.map(\.key).max() ?? 0) }),
                ("selection", { try $0.select("mc", of: "w") }),
                (
                    "items",
                    {
                        try $0.setItems(["mc", "amex", "new"].map { CardSpec(id: $0, height: 200) }, of: "w")
                    }
                ),
                ("height", { try $0.setHeight(450, of: "w") }),
                ("activate", { try $0.performAction("activate", on: "card:mc", of: "w") }),
            ] + Self.settingsInputs("w")
        try Self.compare(
            { keepsFrames in
                let screen = try Screen()
                let wallet = try WalletCardStack(
                    name: "w", cards: ["visa", "amex", "mc", "apple"].map { CardSpec(id: $0, height: 200) },
                    origin: Point(x: 20, y: 100), width: 350, height: 600)
                wallet.fill = ContainerFill(widthMargin: 40, heightMargin: 200)
                if !keepsFrames { wallet.frames.stop() }
                try screen.add(wallet)
                return (screen, wallet, wallet.frames)
            }, inputs: inputs, probe: Point(x: 195, y: 150), changes: 10)
    }

    @Test func stickyCardsReadAfterEveryInputReadAsOnesThatKeepNoFrame() throws {
        // A scroll by a drag, raw touches that pan, the owner's scroll, the container's height, then
        // the settings.
        let inputs: [Input] =
            [
                ("scroll", { try $0.drag(from: Point(x: 195, y: 600), by: Point(x: 0, y: -300), steps: 6) }),
                ("touch down", { _ = try $0.touchDown(at: Point(x: 195, y: 500)) }),
                ("pan", { try $0.touchMove($0.touches.map(\.key).max() ?? 0, to: Point(x: 195, y: 560)) }),
                ("up", { try $0.touchUp($0.touches.map(\.key).max() ?? 0) }),
                ("owner's scroll", { try $0.change(.scrollTo(120), of: "s") }),
                ("viewport height", { try $0.change(.setHeight(500), of: "s") }),
            ] + Self.settingsInputs("s")
        try Self.compare(
            { keepsFrames in
                let screen = try Screen()
                let sticky = try StickyStackedCards(
                    name: "s", cards: (1...12).map { CardSpec(id: "c\($0)", height: 180) }, width: 390,
                    viewportHeight: 844)
                sticky.fill = ContainerFill(widthMargin: 0, heightMargin: 0)
                if !keepsFrames { sticky.frames.stop() }
                try screen.add(sticky)
                return (screen, sticky, sticky.frames)
            }, inputs: inputs, probe: Point(x: 195, y: 300), changes: 5)
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
