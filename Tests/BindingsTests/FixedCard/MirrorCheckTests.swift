import Foundation
import StackModel
import TestResults
import Testing

@testable import Bindings

/// `--mirror` catches an asymmetry (R3): `FixedCard` places its card by absolute x in both
/// directions, so in the mirrored world its frame, mirrored back, is not where the unmirrored
/// run has it. The mirrored copy fails with the event, the card and the field, and a picture.
extension BindingsTests {
    @Suite struct MirrorCheck {
        static let script = """
            test("a fixed card by absolute x", function()
              local screen = stackplay.screen {}
              local card = screen:fixed_card { label = "hello", x = 20, y = 40, width = 100, height = 120 }
              card:tap()
              expect(card:taps()):to_equal(1)
            end)
            test("a test that knows its world is judged by its own checks", function()
              local screen = stackplay.screen {}
              local card = screen:fixed_card { x = 20, width = 100 }
              -- Placed by absolute x: mirrored back, it reads 390 - 20 - 100.
              expect(card:frame().x):to_equal(screen:mirrored() and 270 or 20)
            end)
            test("a notification stack is its own mirror image", function()
              local screen = stackplay.screen {}
              local stack = screen:notification_stack { items = { "a", "b" }, x = 10, width = 300, dismissible = true }
              stack:tap(); screen:settle()
              stack:drag("b", { x = -120 }); screen:settle()
              expect(stack:ids()):to_equal { "a" }
            end)
            """

        /// Each test of the script, then its mirrored copy.
        func results() throws -> [TestResult] {
            let folder = try BindingsTests.FourthKind.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("mirror.lua")
            try Self.script.write(to: file, atomically: true, encoding: .utf8)
            let runner = BindingsTests.FourthKind.runner()
            guard case .success(let tests) = runner.discover(file: file.path, root: folder.path) else {
                Issue.record("the script did not load")
                return []
            }
            return tests.flatMap { [runner.run($0), runner.run($0.under($0.variant.mirrored))] }
        }

        @Test func `an absolute x fails mirrored, naming the event, card and field, with a picture`() throws {
            let results = try results()
            #expect(
                results.map(\.test.name) == [
                    "a fixed card by absolute x", "a fixed card by absolute x [mirrored]",
                    "a test that knows its world is judged by its own checks",
                    "a test that knows its world is judged by its own checks [mirrored]",
                    "a notification stack is its own mirror image",
                    "a notification stack is its own mirror image [mirrored]",
                ])
            #expect(
                results.map(\.status) == [.passed, .failed, .passed, .passed, .passed, .passed],
                "\(results.map(\.message))")
            let failed = results[1]
            #expect(failed.kind == .failure)
            // The event is named with the script's call that made it (its folder is a temporary one).
            let message = failed.message.replacing(#/\/[^ ]*\/mirror\.lua:4 /#, with: "mirror.lua:4 ")
            #expect(
                message.hasSuffix(
                    """
                    mirror.lua:1: mirrored, the screen is not the mirror image of the unmirrored run
                      screen 1, event 0 (touch_down at t = 0 s) of the tap at mirror.lua:4 (card:tap()): \
                    component 'card', field 'x' differs
                        unmirrored: 20
                          mirrored: 270 (the right-to-left frame, mirrored back)
                      To fix: make the right-to-left layout and gestures the mirror image of the left-to-right ones; \
                    a test that must differ by direction asks screen:mirrored().
                    """), "\(failed.message)")
            #expect(failed.expected == "20" && failed.actual == "270")
            // The picture: the unmirrored frame, the mirrored run as its screen showed it (rtl),
            // and both overlaid, with the card's two places outlined.
            #expect(failed.picture.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(failed.picture.contains("mirrored run (rtl)"))
            #expect(
                failed.picture.contains("<title>card &apos;fixed&apos;, unmirrored</title>")
                    || failed.picture.contains("<title>card 'fixed', unmirrored</title>"))
            #expect(failed.picture.contains("<title>card 'fixed', mirrored back</title>"))
            #expect(results.allSatisfy { $0.test.name.hasSuffix("[mirrored]") || $0.picture.isEmpty })
        }
    }
}
