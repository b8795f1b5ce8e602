import Codegen
import StackModel
import Testing
import Traces

/// `ScenarioWriter`: traces recorded through the Swift model (as the studio records a person's
/// pointer) written back as the scenario a person would write.
@Suite struct ScenarioWriterTests {
    /// Records what `act` does to a screen holding `components`, as a trace.
    func record(
        _ settings: ScreenSettings = ScreenSettings(), _ components: [any Component],
        _ act: (Screen) throws -> Void
    ) throws -> Trace {
        let screen = try Screen(settings: settings)
        let recorder = TraceRecorder(screen: screen, stackplay: "test", keepsValues: true)
        for component in components { try screen.add(component) }
        try act(screen)
        return try recorder.trace(file: "recorded.jsonl")
    }

    func cards(_ ids: [String], height: Double) -> [CardSpec] { ids.map { CardSpec(id: $0, height: height) } }

    /// A mouse drag as a page records it: a move every 16 ms, not evenly spaced.
    func mouseDrag(_ screen: Screen, from start: Point, by dx: Double) throws {
        let finger = try screen.touchDown(at: start).touch
        for (step, fraction) in [0.05, 0.2, 0.45, 0.7, 0.9, 1.0].enumerated() {
            try screen.advance(by: step == 2 ? 0.017 : 0.016)
            try screen.touchMove(finger, to: Point(x: start.x + dx * fraction, y: start.y + 0.4 * fraction))
        }
        try screen.touchUp(finger)
    }

    @Test func `a pile tapped open and a card dragged away: tap, settle, drag by id, the final ids`() throws {
        let stack = try NotificationStack(
            cards: cards(["messages", "calendar", "mail"], height: 70), isDismissible: true,
            origin: Point(x: 16, y: 0), width: 358)
        let trace = try record(ScreenSettings(), [stack]) { screen in
            _ = try screen.tap(at: Point(x: 195, y: 30))
            try screen.settle()
            let calendar = try #require(screen.snapshot().components[0].card("calendar"))
            try mouseDrag(screen, from: Point(x: calendar.frame.midX, y: calendar.frame.midY), by: -130)
            try screen.settle()
        }
        let writer = try ScenarioWriter(trace: trace)
        let lua = try writer.lua(testName: "swipe it away")
        #expect(
            lua.contains(
                """
                test("swipe it away", function()
                  local screen = stackplay.screen {}
                  local stack = screen:notification_stack {
                    items = { "messages", "calendar", "mail" }, dismissible = true,
                  }
                  stack:tap()
                  screen:settle()
                  stack:drag("calendar", { x = -130 })
                """))
        #expect(lua.contains("expect(stack:ids()):to_equal { \"messages\", \"mail\" }\n"))
        #expect(lua.contains("expect(stack:expanded()):to_equal(true)\n"))
        #expect(!lua.contains("touch_down"), "nothing needs raw touches")
        #expect(writer.finalFrame.components[0].cards.map(\.id) == ["messages", "mail"])
    }

    @Test func `options that differ from the factory's defaults are written, the others left out`() throws {
        let wallet = try WalletCardStack(
            name: "cards on file",
            cards: cards(["a", "b"], height: 200) + [CardSpec(id: "c", height: 90, label: "Cee")],
            peek: 50, origin: Point(x: 20, y: 100), width: 350, height: 744)
        let settings = ScreenSettings(layoutDirection: .rightToLeft, dynamicTypeSize: .accessibility2)
        let trace = try record(settings, [wallet]) { _ in }
        let lua = try ScenarioWriter(trace: trace).lua(testName: "t")
        #expect(
            lua.contains(
                "local screen = stackplay.screen { layout_direction = \"rtl\", dynamic_type = \"AX2\" }\n"))
        #expect(
            lua.contains(
                """
                  local wallet = screen:wallet_card_stack {
                    items = { "a", "b", { id = "c", height = 90, label = "Cee" } }, peek = 50, y = 100,
                    name = "cards on file",
                  }
                """), "width and height fill the screen: left out")
    }

    @Test func `a tap on a wallet card is wallet:tap(id); the selection is checked`() throws {
        let wallet = try WalletCardStack(
            cards: cards(["everyday", "savings", "travel"], height: 200), origin: Point(x: 20, y: 0),
            width: 350,
            height: 844)
        let trace = try record(ScreenSettings(), [wallet]) { screen in
            let travel = try #require(screen.snapshot().components[0].card("travel"))
            _ = try screen.tap(at: Point(x: travel.frame.midX + 30, y: travel.frame.maxY - 20), duration: 0.1)
            try screen.settle()
        }
        let lua = try ScenarioWriter(trace: trace).lua(testName: "t")
        #expect(lua.contains("  wallet:tap(\"travel\", { duration = 0.1 })\n  screen:settle()\n"))
        #expect(lua.contains("expect(wallet:selection()):to_equal(\"travel\")"))
        #expect(
            lua.contains("expect(wallet:card(\"travel\").y):to_be_near(0, 0.01)"),
            "the selected card moves to the top")
    }

    @Test func `a vertical drag on the sticky cards is cards:scroll(dy)`() throws {
        let sticky = try StickyStackedCards(cards: cards(["Design", "Build", "Ship", "Run"], height: 348))
        let trace = try record(ScreenSettings(), [sticky]) { screen in
            try screen.drag(from: Point(x: 200, y: 600), by: Point(x: 0, y: -250), steps: 8)
        }
        let lua = try ScenarioWriter(trace: trace).lua(testName: "t")
        #expect(lua.contains("  cards:scroll(250)\n"), "10 steps instead of 8 end in the same frame")
        #expect(lua.contains("expect(cards:scroll_offset()):to_be_near(250, 0.01)"))
    }

    @Test func `two fingers at once are raw touches, which replay exactly`() throws {
        let stack = try NotificationStack(
            cards: cards(["a", "b"], height: 70), isExpanded: true, isDismissible: true,
            origin: Point(x: 16, y: 100),
            width: 358)
        let trace = try record(ScreenSettings(), [stack]) { screen in
            let one = try screen.touchDown(at: Point(x: 195, y: 180)).touch
            let two = try screen.touchDown(at: Point(x: 195, y: 260)).touch
            try screen.touchMove(one, to: Point(x: 60, y: 180))
            try screen.touchUp(two)
            try screen.touchUp(one)
            try screen.settle()
        }
        let lua = try ScenarioWriter(trace: trace).lua(testName: "t")
        #expect(
            lua.contains(
                """
                  local f1 = screen:touch_down(195, 180)
                  local f2 = screen:touch_down(195, 260)
                  screen:touch_move(f1, 60, 180)
                  screen:touch_up(f2)
                  screen:touch_up(f1)
                """))
    }

    @Test func `expectations a person picks: a card's x and opacity, the count, the state`() throws {
        let stack = try NotificationStack(
            cards: cards(["a", "b"], height: 70), isExpanded: true, origin: Point(x: 16, y: 0), width: 358)
        let trace = try record(ScreenSettings(), [stack]) { screen in
            try screen.setExpanded(false, of: "notifications")
        }
        let writer = try ScenarioWriter(trace: trace)
        let lua = try writer.lua(
            testName: "picked",
            expectations: [
                .cardX("notifications", "b"), .opacity("notifications", "a"),
                .count("notifications"), .state("notifications", "progress"),
                .state("notifications", "swipeable"),
            ])
        #expect(lua.contains("  stack:set_expanded(false)\n"))
        #expect(lua.contains("expect(stack:card(\"b\").x):to_be_near(16, 0.01)"))
        #expect(lua.contains("expect(stack:card(\"a\").opacity):to_be_near(1, 0.01)"))
        #expect(lua.contains("expect(stack:count()):to_equal(2)"))
        #expect(lua.contains("expect(stack:progress()):to_be_near(1, 0.01)"), "read before the clock moves")
        #expect(lua.contains("expect(stack:state().swipeable):to_equal(false)"))
        #expect(throws: CodegenError.self) { try writer.lua(testName: "x", expectations: [.ids("nope")]) }
        #expect(throws: CodegenError.self) {
            try writer.lua(testName: "x", expectations: [.cardX("notifications", "zz")])
        }
    }

    @Test func `a component of the default width that kept it through a resize is written with its width`()
        throws
    {
        // As `screen:notification_stack { items = ..., width = 358 }` makes it: no fill.
        let kept = try NotificationStack(
            cards: cards(["a", "b"], height: 70), origin: Point(x: 16, y: 0), width: 358)
        let follows = try WalletCardStack(
            cards: cards(["c"], height: 200), origin: Point(x: 20, y: 300), width: 350, height: 544)
        follows.fill = ContainerFill(widthMargin: 40, heightMargin: 300)
        let trace = try record(ScreenSettings(), [kept, follows]) { screen in
            try screen.setSize(Size(width: 500, height: 900))
        }
        let lua = try ScenarioWriter(trace: trace).lua(testName: "t")
        #expect(lua.contains("items = { \"a\", \"b\" }, width = 358,"), "\(lua)")
        #expect(lua.contains("items = { \"c\" }, y = 300,\n"), "the wallet follows the screen: \(lua)")
        #expect(lua.contains("screen:set_size { width = 500, height = 900 }"))
    }
}
