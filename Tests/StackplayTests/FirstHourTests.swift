import Foundation
import Testing

// Issue 13, "what a QA engineer trips over in the first hour": each point through the built
// binary, stdout, stderr and exit code apart.

/// Runs `script` (the text of `x.lua`) in a fresh folder with `arguments` before the file name;
/// `files` are added beside it.
func runScript(
    _ script: String, _ arguments: [String] = [], files: [String: String] = [:],
    environment: [String: String] = [:]
) throws -> Run {
    let folder = try temporaryFolder(files.merging(["x.lua": script]) { $1 })
    defer { try? FileManager.default.removeItem(at: folder) }
    return try stackplay(arguments: arguments + ["x.lua"], in: folder, environment: environment)
}

@Suite struct FirstHourTests {

    // MARK: 1. Runtime did-you-mean

    @Test(arguments: [
        (
            "local s = stackplay.screen {}\nlocal c = s:notification_stack { items = { \"a\" } }\nc:tapp()\n",
            "x.lua:3: unknown method 'tapp' of notification_stack (did you mean 'tap'?)"
        ),
        (
            "local s = stackplay.screen {}\nlocal w = s:wallet_card_stack { items = { \"a\" } }\nw:selction()\n",
            "x.lua:3: unknown method 'selction' of wallet_card_stack (did you mean 'selection'?)"
        ),
        (
            "local s = stackplay.screen {}\nlocal c = s:sticky_stacked_cards { items = { \"a\" } }\nc:scrol(10)\n",
            "x.lua:3: unknown method 'scrol' of sticky_stacked_cards (did you mean 'scroll'?)"
        ),
        (
            "local s = stackplay.screen {}\ns:setle()\n",
            "x.lua:2: unknown method 'setle' of screen (did you mean 'settle'?)"
        ),
        (
            "local s = stackplay.scren {}\n",
            "x.lua:1: unknown field 'scren' of stackplay (did you mean 'screen'?)"
        ),
    ])
    func unknownMethodsAndFieldsNameTheNearestAtTheScriptsLine(script: String, message: String) throws {
        let run = try runScript(script)
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
        #expect(run.stderr.hasPrefix("stackplay: \(message)\n"))
        // The metamethod is not the script's frame.
        #expect(!run.stderr.contains("metamethod"))
    }

    @Test func scriptsStillSetAndReadTheirOwnFieldsOnStackplay() throws {
        let run = try runScript(
            "stackplay.mine = 3\nexpect(stackplay.mine):to_equal(3)\nexpect(stackplay.show { 1, a = 0.1 }):to_equal('{ 1, a = 0.1 }')\n"
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
    }

    // MARK: 2. stackplay check

    /// A helper module in the common class pattern, and a script that requires it.
    let helperModule = """
        local Page = {}
        Page.__index = Page
        function Page.new(direction)
          local self = setmetatable({}, Page)
          self.screen = stackplay.screen { layout_direction = direction }
          self.stack = self.screen:notification_stack { items = { "a", "b" }, dismissible = true }
          return self
        end
        function Page:open_pile() self.stack:tap(); self.screen:settle() end
        return Page

        """

    @Test func checkFollowsRequireKnowsHelperMethodsAndHasNoFalsePositives() throws {
        let folder = try temporaryFolder([
            "helpers/page.lua": helperModule,
            "spec.lua": """
            local Page = require "helpers.page"
            test("opens", { tags = { "smoke" } }, function()
              local page = Page.new("rtl")
              page:open_pile()
              page.stack:drag("a", { x = -120 }, { steps = 4, duration = 0.2 })
              expect(page.stack:ids()):to_contain("b")
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "spec.lua"], in: folder)
        #expect(run.stderr == "")
        #expect(run.stdout == "2 checked, 0 problems\n")
        #expect(run.status == 0)
        // The module runs as the checker reads it.
        let ran = try stackplay(arguments: ["spec.lua"], in: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test func checkReadsHelpersAndChecksOptionNamesWithSuggestions() throws {
        let folder = try temporaryFolder([
            "helpers/page.lua": helperModule.replacing(
                "layout_direction = direction", with: "layout_directon = direction"
            )
            .replacing("self.stack:tap()", with: "self.stack:tapp()"),
            "spec.lua": """
            local Page = require("helpers.page")
            test("opens", { tgas = { "smoke" } }, function()
              local page = Page.new("rtl")
              page:open_pile()
              page.stack:drag("a", { x = -120 }, { stpes = 4 })
              local w = page.screen:wallet_card_stack { items = { "v", { id = "w", hieght = 9 } }, pile_hieght = 70 }
              page.screen:set_size { widht = 300 }
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "."], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "2 checked, 7 problems\n")
        #expect(
            run.stderr.split(separator: "\n").map(String.init) == [
                "stackplay: ./helpers/page.lua:5: unknown option 'layout_directon' of screen (did you mean 'layout_direction'?)",
                "stackplay: ./helpers/page.lua:9: unknown API name ':tapp' (did you mean ':tap'?)",
                "stackplay: ./spec.lua:2: unknown option 'tgas' of test (did you mean 'tags'?)",
                "stackplay: ./spec.lua:5: unknown option 'stpes' of drag (did you mean 'steps'?)",
                "stackplay: ./spec.lua:6: unknown option 'hieght' of an item (did you mean 'height'?)",
                "stackplay: ./spec.lua:6: unknown option 'pile_hieght' of wallet_card_stack (did you mean 'pile_height'?)",
                "stackplay: ./spec.lua:7: unknown option 'widht' of set_size (did you mean 'width'?)",
            ])
    }

    @Test func checkPassesOnTheScenariosWithTheirHelpersAndKnowsStackplayShow() throws {
        let run = try stackplay("check", "scripts")
        #expect(run.stderr == "")
        let count = try FileManager.default.subpathsOfDirectory(
            atPath: packageRoot.appendingPathComponent("scripts").path
        )
        .filter { $0.hasSuffix(".lua") }.count
        #expect(run.stdout == "\(count) checked, 0 problems\n")
        let show = try temporaryFolder(["s.lua": "print(stackplay.show({ 1 }))\n"])
        defer { try? FileManager.default.removeItem(at: show) }
        #expect(try stackplay(arguments: ["check", "s.lua"], in: show).status == 0)
    }

    // MARK: 3. Matchers

    @Test func everyMatcherPassesWhenItHolds() throws {
        let run = try runScript(
            """
            test("all", function()
              expect(2):to_be_greater_than(1); expect(2):to_be_greater_than_or_equal(2)
              expect(1):to_be_less_than(2); expect(2):to_be_less_than_or_equal(2)
              expect(0.5):to_be_between(0, 1); expect(1):to_be_between(0, 1)
              expect("a card"):to_contain("card"); expect({ "a", { 1 } }):to_contain({ 1 })
              expect({ 1, 2 }):to_have_length(2); expect("abc"):to_have_length(3)
              expect(nil):to_be_nil(); expect("x"):to_be_type("string"); expect("card:7"):to_match("^card:%d+$")
              expect(3):never():to_be_less_than(1); expect({ "a" }):never():to_contain("b")
            end)

            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test(arguments: [
        (
            "expect(0.5):to_be_greater_than(0.6)",
            "x.lua:1: expected a value greater than 0.6, got 0.5\n  expected: a value greater than 0.6\n    actual: 0.5"
        ),
        (
            "expect(2):to_be_less_than_or_equal(1)",
            "x.lua:1: expected a value <= 1, got 2\n  expected: a value <= 1\n    actual: 2"
        ),
        (
            "expect(1.5):to_be_between(0, 1)",
            "x.lua:1: expected a value between 0 and 1, got 1.5\n  expected: a value between 0 and 1\n    actual: 1.5"
        ),
        (
            "expect('x'):to_be_greater_than(1)",
            "x.lua:1: expected a value greater than 1, got \"x\" (not a number)"
        ),
        (
            "expect({ 'a', 'b' }):to_contain('c')",
            "x.lua:1: expected a list containing \"c\", got { \"a\", \"b\" }\n  expected: a list containing \"c\"\n    actual: { \"a\", \"b\" }"
        ),
        (
            "expect('card a'):to_contain('b')",
            "x.lua:1: expected a string containing \"b\", got \"card a\""
        ),
        (
            "expect({ 1, 2, 3 }):to_have_length(2)",
            "x.lua:1: expected length 2, got length 3\n  expected: length 2\n    actual: length 3: { 1, 2, 3 }"
        ),
        ("expect(0):to_be_nil()", "x.lua:1: expected nil, got 0\n  expected: nil\n    actual: 0"),
        (
            "expect(1):to_be_type('string')",
            "x.lua:1: expected a value of type string, got 1 (a number)\n  expected: a value of type string\n    actual: 1 (number)"
        ),
        ("expect('ab'):to_match('^b')", "x.lua:1: expected a string matching \"^b\", got \"ab\""),
        (
            "expect(nil):never():to_be_nil()",
            "x.lua:1: expected not nil, got nil\n  expected: not nil\n    actual: nil"
        ),
        (
            "local p = 1.5\nexpect(p > 0 and p < 1, 'progress stays in 0...1'):to_be_truthy()",
            "x.lua:2: progress stays in 0...1: expected a truthy value, got false\n  expected: a truthy value (anything but nil and false)\n    actual: false"
        ),
        (
            "expect(0.78181818181818186, 'shortest'):to_equal(1)",
            "x.lua:1: shortest: values differ\n  expected: 1\n    actual: 0.7818181818181819"
        ),
    ])
    func failedMatchersShowTheMessageAndBothSides(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message + "\n"), "\(run.stderr)")
    }

    @Test(arguments: [
        (
            "expect(1):to_be_greater_than('x')",
            "x.lua:1: bad argument #1 to 'to_be_greater_than' (number expected, got string)"
        ),
        (
            "expect(1):to_be_between(2, 1)",
            "x.lua:1: bad argument #2 to 'to_be_between' (the high end 1 is below the low end 2)"
        ),
        (
            "expect(1):to_be_type('strng')",
            "x.lua:1: bad argument #1 to 'to_be_type' (a Lua type name expected"
        ),
        ("expect('a'):to_match('%')", "x.lua:1: bad argument #1 to 'to_match' (malformed pattern \"%\")"),
        ("expect(1, 2)", "x.lua:1: bad argument #2 to 'expect' (string expected, got number)"),
    ])
    func matchersRefuseBadArgumentsAtTheScriptsLine(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message), "\(run.stderr)")
    }

    // MARK: 4. Tags and selection

    let taggedScript = """
        test("rtl swipe", { tags = { "rtl", "smoke" } }, function() end)
        test("slow settle", { tags = { "slow" } }, function() end)
        test("plain", function() end)
        test("rtl slow", { tags = { "rtl", "slow" } }, function() end)

        """

    @Test func tagsSelectAndExcludeAndFiltersAddUp() throws {
        let folder = try temporaryFolder(["x.lua": taggedScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        func list(_ arguments: String...) throws -> [String] {
            let run = try stackplay(arguments: ["--list"] + arguments + ["x.lua"], in: folder)
            #expect(run.status == 0)
            #expect(run.stderr == "")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(
            try list() == [
                "x.lua: rtl swipe [rtl, smoke]", "x.lua: slow settle [slow]", "x.lua: plain",
                "x.lua: rtl slow [rtl, slow]",
            ])
        #expect(try list("--tag", "rtl") == ["x.lua: rtl swipe [rtl, smoke]", "x.lua: rtl slow [rtl, slow]"])
        #expect(try list("--tag", "smoke,slow", "--exclude-tag", "rtl") == ["x.lua: slow settle [slow]"])
        #expect(try list("--exclude-tag", "slow") == ["x.lua: rtl swipe [rtl, smoke]", "x.lua: plain"])
        #expect(
            try list("--filter", "plain", "--filter", "swipe") == [
                "x.lua: rtl swipe [rtl, smoke]", "x.lua: plain",
            ])

        let run = try stackplay(arguments: ["--tag", "slow", "x.lua"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "x.lua\n  ok   slow settle\n  ok   rtl slow\n2 passed, 0 failed\n")
    }

    @Test(arguments: [["--list"], []])
    func aSelectionThatMatchesNothingExitsOne(list: [String]) throws {
        let folder = try temporaryFolder(["x.lua": taggedScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: list + ["--filter", "nothing", "--tag", "smoke", "x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "stackplay: no test matches --filter 'nothing', --tag 'smoke'\n")
    }

    @Test(arguments: [
        ("test('', function() end)", "x.lua:1: bad argument #1 to 'test' (the test's name is empty)"),
        (
            "test('t', { tgas = {} }, function() end)",
            "x.lua:1: bad argument #2 to 'test' (unknown option \"tgas\" (did you mean 'tags'?))"
        ),
        (
            "test('t', { tags = { 'a b' } }, function() end)",
            "x.lua:1: bad argument #2 to 'test' (field 'tags': tag 1 must be a word"
        ),
    ])
    func testNamesAndTagsAreChecked(script: String, message: String) throws {
        let run = try runScript(script + "\n")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("stackplay: " + message), "\(run.stderr)")
    }

    @Test func anEmptyScriptFails() throws {
        let run = try runScript("-- nothing yet\n\n")
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
        #expect(
            run.stderr.hasPrefix(
                "stackplay: x.lua: the script is empty: it defines no tests and runs no code\n"))
    }

    // MARK: 5. Config

    @Test func configScreenGivesEveryScreenSettingAsADefault() throws {
        let run = try runScript(
            """
            local s = stackplay.screen {}
            expect(s:settings()):to_equal {
              width = 320, height = 568, layout_direction = "rtl", reduce_motion = true, dynamic_type = "AX2", now = 0,
            }
            expect(stackplay.screen { layout_direction = "ltr" }:settings().layout_direction):to_equal "ltr"

            """,
            files: [
                ".stackplay.lua":
                    "return { screen = { width = 320, height = 568, layout_direction = 'rtl', reduce_motion = true, dynamic_type = 'AX2' } }\n"
            ])
        #expect(run.stderr == "")
        #expect(run.status == 0)
    }

    @Test(arguments: [
        (
            "return { screen = { layout_directon = 'rtl' } }",
            "stackplay: .stackplay.lua: unknown key 'screen.layout_directon' (did you mean 'screen.layout_direction'?)"
        ),
        (
            "return { screen = { layout_direction = 'rlt' } }",
            "stackplay: .stackplay.lua: 'screen.layout_direction': 'ltr' or 'rtl' expected, got 'rlt'"
        ),
        (
            "return { screen = { dynamic_type = 'xLarg' } }",
            "stackplay: .stackplay.lua: 'screen.dynamic_type': unknown size 'xLarg' (did you mean 'xLarge'?)"
        ),
        (
            "return { screen = { reduce_motion = 1 } }",
            "stackplay: .stackplay.lua: 'screen.reduce_motion' must be true or false, got 1"
        ),
    ])
    func badScreenConfigNamesTheKey(config: String, message: String) throws {
        let run = try runScript("\n", files: [".stackplay.lua": config + "\n"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == message + "\nSee 'stackplay --help'.\n")
    }

    @Test func configJUnitFolderIsMade() throws {
        let folder = try temporaryFolder([
            "x.lua": "test('t', function() end)\n",
            ".stackplay.lua": "return { junit = 'build/reports/junit.xml' }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["x.lua"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("build/reports/junit.xml").path))
    }

    // MARK: 6. Wallet buttons

    @Test func walletButtonScenarioPasses() throws {
        let run = try stackplay("scripts/wallet_buttons.lua")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout.contains("  ok   W4 a 150 pt sideways drag that lifts inside the card selects it\n"))
        #expect(run.stdout.hasSuffix("4 passed, 0 failed\n"))
    }

    // MARK: 7. The smaller points

    @Test func partsHaveOneNameEverywhereAndAnUnknownPartRaises() throws {
        let run = try runScript(
            """
            local s = stackplay.screen {}
            local n = s:notification_stack { items = { "a", "b" } }
            local w = s:wallet_card_stack { items = { "v" }, y = 400, height = 400 }
            expect(n:part("header")):to_be_nil()
            n:tap(); s:settle()
            expect(n:part("Show less")):to_equal(n:part("show_less"))
            expect(n:part("header")):to_be_type("table")
            expect(w:part("detail")):to_be_nil()
            w:part("details")

            """)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "stackplay: x.lua:9: bad argument #1 to 'part' (wallet_card_stack has no part 'details' (did you mean 'detail'?))\n"
            ))
        let types = try String(
            contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
        #expect(!types.contains("\"details\""))
    }

    @Test func integerIdsStayIntegers() throws {
        let run = try runScript(
            """
            local s = stackplay.screen { record = true }
            local w = s:wallet_card_stack { items = { 1, 2, { id = 3 } }, height = 600 }
            w:tap(2); s:settle()
            expect(w:selection()):to_equal(2)
            expect(math.type(w:selection())):to_equal("integer")
            expect(w:ids()):to_equal { 1, 2, 3 }
            expect(w:card(3).id):to_equal(3)
            local n = s:notification_stack { items = { "a", 7 }, dismissible = true, y = 700, name = "n" }
            expect(n:ids()):to_equal { "a", 7 }
            expect(s:trace()):to_contain('"2"')

            """)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func numbersPrintInTheirShortestRoundTripForm() throws {
        let run = try runScript("expect({ 0.78181818181818186, 0.1 + 0.2 }):to_equal { 1, 2 }\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("    actual: { 0.7818181818181819, 0.30000000000000004 }\n"))
        #expect(run.stderr.contains("  + [1]: 0.7818181818181819\n"))
        #expect(!run.stderr.contains("0.78181818181818186"))
    }

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

    /// Three tests: one passes, one fails an expectation, one raises.
    let kindsScript = """
        test("passes", function() end)
        test("fails", function() expect({ 1, 2 }):to_equal { 1, 3 } end)
        test("raises", function()
          error("boom")
        end)
        test("line\\nbreak # hash", function() end)

        """

    @Test func junitFilesErrorsAndFailuresApartWithTheTestsLine() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--junit", "j.xml", "x.lua"], in: folder)
        #expect(run.status == 1)
        let junit = try JUnit(file: folder.appendingPathComponent("j.xml").path)
        #expect(junit.root["failures"] == "1")
        #expect(junit.root["errors"] == "1")
        #expect(junit.suites.first?["errors"] == "1")
        let cases = Dictionary(uniqueKeysWithValues: junit.cases.map { ($0.attributes["name"] ?? "", $0) })
        #expect(cases["fails"]?.failureMessage == "x.lua:2: values differ")
        #expect(cases["fails"]?.error == nil)
        #expect(cases["raises"]?.errorMessage == "x.lua:4: boom")
        #expect(cases["raises"]?.failure == nil)
        // Every test case's line is where the test is defined, whatever happened to it.
        #expect(junit.cases.map { $0.attributes["line"] } == ["1", "2", "3", "6"])
        #expect(junit.cases.allSatisfy { $0.attributes["file"] == "x.lua" })
    }

    @Test func jsonHasAFormatVersionAndStructuredSides() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--json", "x.lua"], in: folder)
        #expect(run.status == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["format_version"] as? Int == 1)
        let tests = try #require(json["tests"] as? [[String: Any]])
        #expect(tests[0]["kind"] is NSNull)
        #expect(tests[1]["kind"] as? String == "failure")
        #expect(tests[1]["expected"] as? String == "{ 1, 3 }")
        #expect(tests[1]["actual"] as? String == "{ 1, 2 }")
        #expect(tests[1]["diff"] as? String == "  - [2]: 3\n  + [2]: 2")
        #expect(tests[2]["kind"] as? String == "error")
        #expect(tests[2]["expected"] is NSNull)
        #expect(tests[3]["name"] as? String == "line\nbreak # hash")
    }

    @Test func tapNamesStayOnOneLine() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--tap", "x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\nok 4 - x.lua: line\\nbreak \\# hash\n"))
        _ = try TAP(run.stdout)
    }

    @Test func aBudgetStopShowsNoInternalFrames() throws {
        let run = try runScript(
            "test('spins', function()\n  while true do end\nend)\n", ["--cpu-budget", "0.2"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("x.lua:2: stopped: the script used its 0.2 s of CPU time\n"))
        #expect(!run.stderr.contains("stackplay/"))
        #expect(!run.stderr.contains("prelude"))
    }

    @Test func replayCountsOneEventInTheSingular() throws {
        let folder = try temporaryFolder([
            "x.lua": "local s = stackplay.screen {}\ns:wallet_card_stack { items = { 'a' } }\ns:advance(1)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["--trace", "t", "x.lua"], in: folder).status == 0)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("t").path).first
        )
        let run = try stackplay(arguments: ["replay", "t/\(trace)"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "ok   t/\(trace) (1 event)\n1 replayed, 0 failed\n")
    }
}
