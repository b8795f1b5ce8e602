import Foundation
import Testing

/// The built binary on the scenarios of issue 38: removal transitions (G8, N17), the header that
/// follows Dynamic Type (N18), the demos' placement as defaults (R5).
@Suite struct FidelityScenarioTests {
    @Test func `N17 G8 the transition scenarios pass, mirrored too, and their traces replay`() throws {
        let run = try stackplay("--mirror", "scripts/transitions.lua")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout.hasSuffix("12 passed, 0 failed\n"))
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let traced = try stackplay("--trace", folder.path, "scripts/transitions.lua")
        #expect(traced.status == 0, "\(traced.stderr)")
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".jsonl")
        }
        #expect(traces.count == 6)
        let texts = try traces.map {
            try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        #expect(texts.contains { $0.contains("\"leaving\":[{\"id\":\"calendar\"") })
        let replay = try stackplay(
            arguments: ["replay"] + traces.map { folder.appendingPathComponent($0).path })
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stderr == "")
    }

    @Test func `N17 a script reads the leaving card: gone from ids, fading at its last place`() throws {
        let run = try runScript(
            """
            local screen = stackplay.screen {}
            local stack = screen:notification_stack {
              items = { "a", "b", "c" }, card_height = 70, dismissible = true, expanded = true,
            }
            local b = stack:card("b")
            stack:action("Clear", "b")
            print(table.concat(stack:ids(), ","), #stack:leaving(), stack:leaving()[1].y == b.y)
            screen:advance(0.1)
            print(string.format("%.12f", stack:leaving()[1].opacity), stack:leaving()[1].hittable)
            screen:settle()
            print(#stack:leaving())
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout.contains("      | a,c\t1\ttrue\n      | 0.490620045267\tfalse\n      | 0\n"))
    }

    @Test func `N18 R5 the Dynamic Type and defaults scenarios pass`() throws {
        let run = try stackplay("scripts/dynamic_type.lua", "scripts/demo_defaults.lua")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "  ok   N18 at AX5 the header is 65 high (title3's line) and every card moves down 21\n"))
        #expect(
            run.stdout.contains(
                "  ok   R5 S1 sticky cards are 350 wide at x 20, 12 below the top, in a scroll view as wide as the screen\n"
            ))
    }

    @Test func `R5 a bad inset_horizontal names the option and the line`() throws {
        let run = try runScript(
            """
            local screen = stackplay.screen {}
            screen:sticky_stacked_cards { items = { "a" }, inset_horizontal = -4 }
            """)
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("0 passed, 1 failed\n"))
        #expect(
            run.stderr.contains(
                "x.lua:2: bad argument #1 to 'sticky_stacked_cards' (field 'inset_horizontal': number must not be negative, got -4)"
            ))
    }
}
