import Foundation
import Testing

/// The matchers' messages point at the fix: a `.` call says to use `:`, floats a rounding apart
/// suggest `to_be_near`, and list diffs align by content.
@Suite struct MatcherMessageTests {
    @Test(arguments: ["to_equal", "to_be_near", "never", "to_contain"])
    func aDotCallOfAMatcherSaysToUseAColon(matcher: String) throws {
        let run = try runScript("local x = 3\nexpect(x).\(matcher)(3)\n")
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "stackplay: x.lua:2: calling '\(matcher)' on bad self (use ':' as in expect(x):\(matcher)(...), "
                    + "not expect(x).\(matcher)(...))"), "\(run.stderr)")
    }

    @Test func aColonCallAfterNeverStillWorks() throws {
        let run = try runScript("expect(3):never():to_equal(4)\nexpect({ 1 }):to_equal({ 1 })\n")
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func floatsARoundingApartSuggestToBeNearWithTheDifference() throws {
        let run = try runScript("expect(0.1 + 0.2):to_equal(0.3)\n")
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("x.lua:1: values differ\n  expected: 0.3\n    actual: 0.30000000000000004\n"))
        #expect(
            run.stderr.contains(
                "  To fix: the numbers differ by only 5.551115123125783e-17 (floating-point rounding): use "
                    + "to_be_near(expected, tolerance) for computed numbers, such as :to_be_near(0.3, "),
            "\(run.stderr)")
        let table = try runScript("expect({ x = 100.00000000001, y = 2 }):to_equal({ x = 100, y = 2 })\n")
        #expect(table.stderr.contains("  To fix: the numbers differ by only 1.000"), "\(table.stderr)")
        #expect(table.stderr.contains(":to_be_near({ x = 100, y = 2 }, "))
    }

    @Test func numbersThatReallyDifferKeepTheUsualHint() throws {
        for script in [
            "expect(1.5):to_equal(1)", "expect({ x = 1, y = 'a' }):to_equal({ x = 1 + 1e-12, y = 'b' })",
        ] {
            let run = try runScript(script + "\n")
            #expect(run.status == 1)
            #expect(!run.stderr.contains("to_be_near"), "\(run.stderr)")
            #expect(run.stderr.contains("  To fix: check the gestures and time before this line"))
        }
    }

    @Test func oneInsertedIdIsOnePlusLine() throws {
        let run = try runScript("expect({ 'a', 'x', 'b', 'c' }):to_equal({ 'a', 'b', 'c' })\n")
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("  diff (- expected, + actual):\n  + [2]: \"x\"\n  To fix:"), "\(run.stderr)")
        let removed = try runScript(
            "expect({ cards = { 'a', 'c' } }):to_equal({ cards = { 'a', 'b', 'c' } })\n")
        #expect(
            removed.stderr.contains("  diff (- expected, + actual):\n  - cards[2]: \"b\"\n  To fix:"),
            "\(removed.stderr)")
    }

    @Test func elementsChangedInPlaceAreComparedFieldByField() throws {
        let run = try runScript(
            "expect({ { id = 'a', x = 1 }, { id = 'b', x = 2 } }):to_equal({ { id = 'a', x = 1 }, { id = 'b', x = 3 } })\n"
        )
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("  diff (- expected, + actual):\n  - [2].x: 3\n  + [2].x: 2\n"),
            "\(run.stderr)")
        // Lists too long to align are compared position by position, and still fail.
        let long = try runScript(
            "local a, b = {}, {}\nfor i = 1, 600 do a[i] = i; b[i] = i + 1 end\nexpect(a):to_equal(b)\n")
        #expect(long.status == 1)
        #expect(long.stderr.contains("  - [1]: 2\n  + [1]: 1\n"), "\(long.stderr)")
    }

    @Test func aGoldenTracesIdListShowsTheInsertedIdAlone() throws {
        let folder = try temporaryFolder([
            "t.lua": """
            test("ids", function()
              local screen = stackplay.screen { record = true }
              screen:notification_stack { items = { "a", "b", "c" } }
              expect(screen):to_match_trace("golden.jsonl")
            end)
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try stackplayRecording(["t.lua"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let script = folder.appendingPathComponent("t.lua")
        try String(contentsOf: script, encoding: .utf8).replacingOccurrences(
            of: "\"a\", \"b\"", with: "\"a\", \"x\", \"b\""
        )
        .write(to: script, atomically: true, encoding: .utf8)
        let run = try stackplay(arguments: ["t.lua"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("    expected: [a, b, c]\n      actual: [a, x, b, c] (+ x at 2)\n"),
            "\(run.stderr)")
    }
}
