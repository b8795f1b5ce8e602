import Foundation
import Testing

/// What a failure shows: the animation still running, an SVG of the screen, no internal frames after a budget stop.
@Suite struct FailureReportTests {

    @Test func aCheckBeforeSettleNamesTheAnimationAndItsTimeLeft() throws {
        let run = try runScript(
            """
            local s = stackplay.screen {}
            local n = s:notification_stack { items = { "a", "b" } }
            n:tap(); s:advance(0.1)
            expect(n:progress()):to_equal(1)

            """)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "  still animating: notification_stack 'notifications' (1.0033333333333334 s left at t = 0.1 s); "
                    + "screen:settle() before the check waits for it to finish.\n"))
    }

    @Test func everyFailureWithAScreenGetsAnSVG() throws {
        let folder = try temporaryFolder([
            "x.lua": """
            test("fails before any input", function()
              local s = stackplay.screen {}
              s:wallet_card_stack { items = { "a" } }
              expect(1):to_equal(2)
            end)
            test("raises after a tap", function()
              local s = stackplay.screen {}
              local w = s:wallet_card_stack { items = { "a" } }
              w:tap("a")
              error("boom")
            end)

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--artifacts", "out", "x.lua"], in: folder)
        #expect(run.status == 1)
        let svgs = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("out").path
        )
        .filter { $0.hasSuffix(".svg") }
        #expect(svgs.count == 2)
    }

    @Test func aBudgetStopShowsNoInternalFrames() throws {
        let run = try runScript(
            "test('spins', function()\n  while true do end\nend)\n", ["--cpu-budget", "0.2"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("x.lua:2: stopped: the script used its 0.2 s of CPU time\n"))
        #expect(!run.stderr.contains("stackplay/"))
        #expect(!run.stderr.contains("prelude"))
    }
}
