import Foundation
import StackModel
import StackplayRunner
import TestResults
import Testing
import Traces

@testable import Bindings

/// A component kind added by a test alone (`FixedCard`, this folder) works end to end: on a
/// screen, from Lua through the test runner, in recorded traces that replay, in golden traces,
/// in `stackplay.replay`, and in SVG frames.
extension BindingsTests {
    @Suite struct FourthKind {
        static let kinds = LuaComponentKinds.standard.adding(FixedCard.self)

        /// A runner whose scripts can make fixed cards, recording every screen.
        static func runner() -> TestRunner {
            TestRunner(
                scripts: ScriptRunner(modules: [
                    CoreModule(), StackModelModule(recordsTraces: true, kinds: kinds), PreludeModule(),
                ]))
        }

        /// Runs every test of `script` (written to `folder`) and returns the results.
        static func run(_ script: String, named name: String, in folder: URL) throws -> [TestResult] {
            let file = folder.appendingPathComponent(name)
            try script.write(to: file, atomically: true, encoding: .utf8)
            let runner = runner()
            switch runner.discover(file: file.path, root: folder.path) {
            case .failure(let failed): return [failed]
            case .success(let tests): return tests.map { runner.run($0) }
            }
        }

        static func temporaryFolder() throws -> URL {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("stackplay-fourth-kind-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }

        static let script = """
            test("a fixed card beside a notification stack", function()
              local screen = stackplay.screen { width = 390, height = 844 }
              local stack = screen:notification_stack { items = { "mail" }, y = 400 }
              local card = screen:fixed_card { label = "hello", x = 20, y = 40, width = 200, height = 120 }
              expect(card:kind()):to_equal("fixed_card")
              card:tap()
              card:tap("fixed")
              expect(card:taps()):to_equal(2)
              expect(screen:hit_test(30, 50).component):to_equal("card")
              card:set_label("bye")
              expect(card:label()):to_equal("bye")
              expect(card:card("fixed").width):to_equal(200)
              expect(card:state().label):to_equal("bye")
              stack:tap()
              screen:settle()
              expect(screen):to_match_trace("golden/fixed.jsonl")
            end)
            """

        @Test func worksThroughLuaTracesReplayAndSVG() throws {
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // The first run records the golden trace, the second compares with it.
            for _ in 0..<2 {
                let results = try Self.run(Self.script, named: "fixed.lua", in: folder)
                #expect(results.map(\.status) == [.passed], "\(results.map(\.message))")
            }
            let result = try #require(try Self.run(Self.script, named: "fixed.lua", in: folder).first)
            let text = try #require(result.traces.first)
            #expect(text.contains("\"kind\":\"fixed_card\""))
            #expect(text.contains("\"type\":\"set_label\",\"component\":\"card\",\"label\":\"bye\""))

            // Replayed in Swift, frame by frame, and drawn.
            let trace = try Trace(text: text, file: "fixed.jsonl", kinds: Self.kinds.traces)
            let replayer = try TraceReplayer(trace)
            #expect(try replayer.run(tolerance: 0) == nil)
            let card = try #require(replayer.screen.component(named: "card") as? FixedCard)
            #expect(card.taps == 2 && card.label == "bye")
            let svg = try TraceSVG.render(trace, at: nil)
            #expect(svg.contains("<g class=\"card\" data-id=\"fixed\""))
            #expect(svg.contains("data-name=\"card\""))

            // Without the kind, the trace names what it cannot build.
            #expect(throws: TraceError.self) { try Trace(text: text, file: "fixed.jsonl") }

            // Replayed from Lua, with a handle of the fourth kind.
            try text.write(
                to: folder.appendingPathComponent("fixed.jsonl"), atomically: true, encoding: .utf8)
            let replay = try Self.run(
                """
                test("replays a fixed card", function()
                  local screen, components = stackplay.replay("fixed.jsonl")
                  expect(components.card:taps()):to_equal(2)
                  expect(components.card:label()):to_equal("bye")
                  expect(components.notifications:count()):to_equal(1)
                end)
                """, named: "replay.lua", in: folder)
            #expect(replay.map(\.status) == [.passed], "\(replay.map(\.message))")
        }

        @Test func screenAppliesAndReportsItsOwnerChange() throws {
            let screen = try Screen()
            var events: [InputEvent] = []
            screen.onEvent = { events.append($0) }
            try screen.add(FixedCard(label: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10)))
            try screen.change(.setLabel("b"), of: "card")
            #expect((screen.component(named: "card") as? FixedCard)?.label == "b")
            #expect(events.last == .change(component: "card", change: .setLabel("b")))
            // A kind refuses the changes it does not declare.
            #expect(throws: StackModelError("'card' is a fixed_card, which takes no set_expanded")) {
                try screen.setExpanded(true, of: "card")
            }
        }

        @Test func checkAndDefinitionsKnowIt() {
            let api = StackModelModule.apiNames(kinds: Self.kinds)
            #expect(api.methods.isSuperset(of: ["fixed_card", "taps", "label", "set_label"]))
            #expect(!StackModelModule.apiNames.methods.contains("set_label"))
            #expect(
                StackModelModule.optionNames(kinds: Self.kinds)["fixed_card"] == [
                    "label", "x", "y", "width", "height", "name",
                ])
            #expect(FixedCard.undocumentedMethods == [])
            #expect(FixedCard.optionsDefinition.contains("---@field label? string default \"card\"\n"))
        }
    }
}
