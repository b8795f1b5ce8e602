import Foundation
import Testing

/// Issue 35: a test that checks nothing, a variant that never ran and a failure placed in
/// stackplay's own files are each reported, at the script's line, in every report format.
@Suite struct NothingPassesByAccidentTests {
    /// A file with an `expect` that has no matcher (line 3) and a `test` inside a test (line 6).
    static let unfinished = """
        local count = 3
        test("dangling", function()
          expect(count == 99)
        end)
        test("nested", function()
          test("inner", function() end)
        end)
        test("fine", function()
          expect(count):to_equal(3)
          expect(count):never():to_equal(4)
        end)

        """

    @Test func anExpectWithoutAMatcherAndATestInsideATestFailAtTheirLines() throws {
        let run = try runScript(Self.unfinished)
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL dangling\n  FAIL nested\n  ok   fine\n1 passed, 2 failed\n")
        #expect(
            run.stderr.contains(
                "x.lua:3: expect at x.lua:3 has no matcher: did you mean expect(...):to_be_truthy()?"))
        #expect(
            run.stderr.contains(
                "x.lua:6: 'test' called while the test \"nested\" runs: tests are defined at a file's top level"
            ))
        let json = try runScript(Self.unfinished, ["--json"])
        let tests = try testsOf(json.stdout)
        #expect(tests.map { $0["failure_position"] as? String } == ["x.lua:3", "x.lua:6", ""])
        #expect(tests.map { $0["kind"] as? String } == ["failure", "error", nil])
    }

    @Test func aWholeScriptWithADanglingExpectFailsAtItsLine() throws {
        let run = try runScript("local x = 1\nexpect(x == 2)\n")
        #expect(run.status == 1)
        #expect(run.stdout == "x.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
        #expect(run.stderr.hasPrefix("stackplay: x.lua:2: expect at x.lua:2 has no matcher"))
        // each run of it, also those its listing is not (a matrix variant)
        let variant = try runScript(
            "if stackplay.screen {}:settings().layout_direction == 'rtl' then\n  expect(1 == 2)\nend\n",
            ["--matrix", "layout_direction=ltr,rtl"])
        #expect(variant.status == 1)
        #expect(
            variant.stdout
                == "x.lua\n  ok   (whole script) [ltr]\n  FAIL (whole script) [rtl]\n1 passed, 1 failed\n")
        #expect(variant.stderr.hasPrefix("stackplay: x.lua:2: expect at x.lua:2 has no matcher"))
        let repeated = try runScript("expect(1):to_equal(2)\n", ["--repeat", "2"])
        #expect(
            repeated.stdout.hasSuffix(
                "0 passed, 1 failed (each test ran 2 times; one whose runs differed failed as flaky)\n"))
    }

    @Test func checkFindsDanglingExpectsNestedTestsAndDuplicateNamesWithoutRunning() throws {
        let script =
            Self.unfinished + """
                test("fine", function() end)
                local e = expect(1)
                e:to_equal(1)
                print(expect(2) ~= nil)
                expect(3)
                  :to_equal(3)

                """
        let folder = try temporaryFolder(["y.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try stackplay(arguments: ["check", "y.lua"], in: folder)
        #expect(checked.status == 1)
        #expect(checked.stdout == "1 checked, 3 problems\n")
        #expect(
            checked.stderr.split(separator: "\n").map(String.init) == [
                "stackplay: y.lua:3: expect(...) has no matcher: it checks nothing (did you mean expect(...):to_be_truthy()?)",
                "stackplay: y.lua:6: 'test' inside the test at line 5: tests are defined at a file's top level; this one would never run",
                "stackplay: y.lua:12: a test called \"fine\" is already defined at line 8: give each test its own name",
            ])
    }

    /// The JSON report's tests.
    private func testsOf(_ stdout: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return object?["tests"] as? [[String: Any]] ?? []
    }

    // MARK: 2. A variant is what ran

    static let fixesDirection = """
        test("fixes ltr", function()
          local screen = stackplay.screen { layout_direction = "ltr" }
          expect(screen:settings().layout_direction):to_equal("ltr")
        end)

        """
    static let matrix = ["--matrix", "layout_direction=rtl,ltr", "--matrix", "dynamic_type=large,AX5"]
    static let reason = "skipped: the test sets layout_direction itself"

    @Test func aTwoByTwoMatrixOverATestThatFixesOneKeyRunsTwoAndSkipsTwoInEveryFormat() throws {
        let human = try runScript(Self.fixesDirection, Self.matrix)
        #expect(human.status == 0)
        #expect(human.stderr == "")
        #expect(
            human.stdout == """
                x.lua
                  skip fixes ltr [rtl, large] (\(Self.reason))
                  skip fixes ltr [rtl, AX5] (\(Self.reason))
                  ok   fixes ltr [ltr, large]
                  ok   fixes ltr [ltr, AX5]
                2 passed, 0 failed, 2 skipped

                """)
        let tap = try runScript(Self.fixesDirection, ["--tap"] + Self.matrix)
        #expect(tap.status == 0)
        #expect(
            tap.stdout.split(separator: "\n").filter { $0.hasPrefix("ok") }.map(String.init) == [
                "ok 1 - x.lua: fixes ltr [rtl, large] # SKIP the test sets layout_direction itself",
                "ok 2 - x.lua: fixes ltr [rtl, AX5] # SKIP the test sets layout_direction itself",
                "ok 3 - x.lua: fixes ltr [ltr, large]", "ok 4 - x.lua: fixes ltr [ltr, AX5]",
            ])
        let json = try runScript(Self.fixesDirection, ["--json"] + Self.matrix)
        let tests = try testsOf(json.stdout)
        #expect(tests.map { $0["status"] as? String } == ["skipped", "skipped", "passed", "passed"])
        #expect(tests.map { $0["message"] as? String } == [Self.reason, Self.reason, "", ""])
        let folder = try temporaryFolder(["x.lua": Self.fixesDirection])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = try stackplay(arguments: ["--junit", "r.xml"] + Self.matrix + ["x.lua"], in: folder)
        #expect(junit.status == 0)
        let xml = try String(contentsOf: folder.appendingPathComponent("r.xml"), encoding: .utf8)
        #expect(xml.components(separatedBy: "<skipped message=\"\(Self.reason)\"/>").count == 3)
        #expect(xml.contains("skipped=\"2\""))
    }

    @Test func aTestThatSetsBothKeysRunsOnceAndMirrorSkipsAlike() throws {
        let both = """
            test("fixes both", function()
              local screen = stackplay.screen { layout_direction = "rtl", dynamic_type = "ax5" }
              expect(screen:settings().dynamic_type):to_equal("AX5")
            end)

            """
        let run = try runScript(both, Self.matrix)
        #expect(run.status == 0)
        #expect(run.stdout.contains("  ok   fixes both [rtl, AX5]\n"))
        #expect(run.stdout.hasSuffix("1 passed, 0 failed, 3 skipped\n"))
        #expect(run.stdout.contains("(skipped: the test sets layout_direction and dynamic_type itself)"))
        let mirrored = try runScript(
            Self.fixesDirection, ["--mirror", "--matrix", "layout_direction=rtl,ltr"])
        #expect(mirrored.status == 0)
        #expect(mirrored.stdout.hasSuffix("2 passed, 0 failed, 2 skipped\n"))
        #expect(mirrored.stdout.contains("  skip fixes ltr [rtl, mirrored] (\(Self.reason))\n"))
    }

    @Test func listNamesTagsApartFromVariants() throws {
        let run = try runScript(
            "test('t', { tags = { 'ltr', 'wallet' } }, function() end)\n",
            ["--list", "--matrix", "layout_direction=rtl"])
        #expect(run.status == 0)
        #expect(run.stdout == "x.lua: t [rtl] (tags: ltr, wallet)\n")
    }

    // MARK: 4. Every failure points at the user's line

    static let notRecording = """
        test("golden on a plain screen", function()
          local screen = stackplay.screen {}
          expect(screen):to_match_trace("golden/x.jsonl")
        end)

        """

    @Test func aMatcherMisusedIsPlacedAtTheScriptsLineInEveryFormat() throws {
        let human = try runScript(Self.notRecording)
        #expect(human.status == 1)
        #expect(
            human.stderr.contains(
                "\nx.lua:3: bad argument #1 to 'to_match_trace' (the screen is not recorded"))
        #expect(!human.stderr.contains("stackplay/"))
        let json = try runScript(Self.notRecording, ["--json"])
        let test = try #require(try testsOf(json.stdout).first)
        #expect(test["failure_position"] as? String == "x.lua:3")
        #expect(test["position"] as? String == "x.lua:1")
        #expect(!json.stdout.contains("stackplay/prelude"))
        let tap = try runScript(Self.notRecording, ["--tap"])
        #expect(tap.stdout.contains("  at: \"x.lua:3\"\n"))
        #expect(!tap.stdout.contains("stackplay/prelude"))
        let folder = try temporaryFolder(["x.lua": Self.notRecording])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try stackplay(arguments: ["--junit", "r.xml", "x.lua"], in: folder)
        let xml = try String(contentsOf: folder.appendingPathComponent("r.xml"), encoding: .utf8)
        #expect(xml.contains("line=\"1\""))
        #expect(xml.contains("<property name=\"failure_position\" value=\"x.lua:3\"/>"))
        #expect(!xml.contains("stackplay/prelude"))
        // the trace viewer's data (`--artifacts`, where every screen records)
        let viewed = try temporaryFolder([
            "y.lua": """
            test("golden of a number", function()
              stackplay.screen {}:advance(0.1)
              expect(42):to_match_trace("g.jsonl")
            end)

            """
        ])
        defer { try? FileManager.default.removeItem(at: viewed) }
        let artifacts = try stackplay(arguments: ["--artifacts", "art", "y.lua"], in: viewed)
        #expect(artifacts.status == 1)
        let page = try String(contentsOf: viewed.appendingPathComponent("art/report.html"), encoding: .utf8)
        #expect(page.contains("y.lua:3: bad argument #1 to 'to_match_trace'"))
        #expect(!page.contains("stackplay/prelude"))
        // a whole script, whose error reaches the runner as text
        let whole = try runScript(
            "local screen = stackplay.screen {}\nexpect(screen):to_match_trace('g.jsonl')\n")
        #expect(whole.stderr.hasPrefix("stackplay: x.lua:2: bad argument #1 to 'to_match_trace'"))
        #expect(!whole.stderr.contains("stackplay/"))
    }

    @Test func theGitHubReporterPutsEachFailureOnItsFailingLine() throws {
        let script = """
            test("a, b: 100%", function()
              local n = 2
              expect(n, "two\\nlines"):to_equal(3)
            end)
            test("passes", function() end)

            """
        let run = try runScript(script, ["--reporter", "github"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.last == "1 passed, 1 failed")
        // `::error key=value,...::message`, as GitHub parses a workflow command
        let annotation = try #require(lines.first)
        #expect(annotation.hasPrefix("::error "))
        let body = annotation.dropFirst("::error ".count)
        let separator = try #require(body.range(of: "::"))
        let properties = Dictionary(
            uniqueKeysWithValues: body[..<separator.lowerBound].split(separator: ",").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts[1])
            })
        #expect(properties["file"] == "x.lua")
        #expect(properties["line"] == "3")
        #expect(properties["title"] == "x.lua%3A a%2C b%3A 100%25")
        let message = String(body[separator.upperBound...])
        #expect(message.hasPrefix("x.lua:3: two%0Alines: values differ%0A  expected: 3%0A    actual: 2"))
        #expect(!message.contains("\n"))
        let usage = try runScript(script, ["--reporter", "gihub"])
        #expect(usage.status == 64)
        #expect(usage.stdout == "")
        #expect(
            usage.stderr.contains(
                "--reporter needs one of human, tap, json, github (did you mean 'github'?), not 'gihub'"))
    }

    // MARK: 5. One API, consistent

    @Test func integerIdsGoInAndComeBackAsIntegersEverywhere() throws {
        let run = try runScript(
            """
            test("ids", function()
              local screen = stackplay.screen {}
              local wallet = screen:wallet_card_stack { items = { 1, 2, 3 }, selection = 1 }
              expect(wallet:selection()):to_equal(1)
              expect(math.type(wallet:selection())):to_equal("integer")
              wallet:select(2); screen:settle()
              expect(wallet:selection()):to_equal(2)
              expect(wallet:card(3).id):to_equal(3)
              local hit = screen:hit_test(wallet:point(3))
              expect(hit.card):to_equal(3)
              expect(hit.target):to_equal("card:3")
              local tapped = screen:tap(wallet:point(3))
              expect(tapped.card):to_equal(3)
              expect(wallet:tap(1).card):to_equal(1)
              local _, down = screen:touch_down(wallet:point(2))
              expect(down.card):to_equal(2)
              local named = screen:notification_stack { items = { "a", 7 }, y = 700, name = "n" }
              expect(named:ids()):to_equal { "a", 7 }
              expect(wallet:state().selection):to_be_type("string")
            end)
            test("scroll has one value", function()
              local cards = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b", "c" } }
              expect(cards:scroll(9)):to_equal(0)
              expect(select("#", cards:scroll(300))):to_equal(1)
            end)

            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "x.lua\n  ok   ids\n  ok   scroll has one value\n2 passed, 0 failed\n")
        #expect(run.stderr == "")
    }

    /// Each return value the README states, with how many values there are.
    @Test func everyMethodReturnsWhatTheReadmeSays() throws {
        let run = try runScript(
            """
            local function count(...) return select("#", ...), ... end
            local screen = stackplay.screen {}
            local stack = screen:notification_stack { items = { "a", "b" }, dismissible = true }
            local n, on = count(screen:toggle_reduce_motion())
            expect(n):to_equal(1); expect(on):to_equal(true)
            screen:toggle_reduce_motion()
            n = count(screen:set_reduce_motion(false)); expect(n):to_equal(0)
            local hit; n, hit = count(stack:tap()); expect(n):to_equal(1)
            expect(hit):to_equal { component = "notifications", target = "stack" }
            screen:settle()
            n, hit = count(stack:drag("b", { x = -150 })); expect(n):to_equal(1)
            expect(hit.card):to_equal("b")
            screen:settle()
            local x, y = stack:point("a")
            n, hit = count(screen:drag(x, y, { x = 1, y = 0 })); expect(n):to_equal(1)
            expect(hit.card):to_equal("a")
            local handled; n, handled = count(screen:escape()); expect(n):to_equal(1)
            expect(handled):to_be_type("boolean")
            n, handled = count(stack:escape()); expect(n):to_equal(1)
            expect(handled):to_be_type("boolean")
            local wallet = screen:wallet_card_stack { items = { "v" }, y = 400, name = "w" }
            local did; n, did = count(wallet:activate(wallet:accessibility()[1].id)); expect(n):to_equal(1)
            expect(did):to_equal(true)
            local e = expect(3)
            expect(e:to_be_greater_than(0)):to_equal(e)
            expect(3):to_be_greater_than(0):to_be_less_than(10)

            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
    }

    @Test func settingNamesAreReadInAnyCaseEverywhereAndAMissSuggests() throws {
        let script = """
            local screen = stackplay.screen { layout_direction = "RTL", dynamic_type = "ax5" }
            expect(screen:settings().layout_direction):to_equal("rtl")
            expect(screen:settings().dynamic_type):to_equal("AX5")
            screen:set_layout_direction("LTR")
            expect(screen:settings().layout_direction):to_equal("ltr")
            screen:set_dynamic_type("XSMALL")
            expect(screen:settings().dynamic_type):to_equal("xSmall")
            expect(screen:audit { types = { "Hit_Region" } }):to_equal {}

            """
        let run = try runScript(script)
        #expect(run.status == 0, "\(run.stderr)")
        let matrix = try runScript(
            "print(stackplay.screen {}:settings().layout_direction)\n", ["--matrix", "layout_direction=RTL"])
        #expect(matrix.status == 0, "\(matrix.stderr)")
        #expect(matrix.stdout.contains("      | rtl\n"))
        let config = try runScript(
            "print(stackplay.screen {}:settings().layout_direction)\n",
            files: [".stackplay.lua": "return { screen = { layout_direction = 'Rtl' } }"])
        #expect(config.status == 0, "\(config.stderr)")
        #expect(config.stdout.contains("      | rtl\n"))
        let audit = try runScript("stackplay.screen {}\n", ["--audit=HIT_REGION"])
        #expect(audit.status == 0, "\(audit.stderr)")
        let miss = try runScript("stackplay.screen { layout_direction = 'rlt' }\n")
        #expect(miss.status == 1)
        #expect(miss.stderr.contains("x.lua:1: bad argument #1 to 'screen' (field 'layout_direction': "))
        #expect(miss.stderr.contains("(did you mean 'rtl'?)"))
    }

    // MARK: 6. Messages

    @Test func anUnknownMatcherAndAMethodCalledWithADotSaySo() throws {
        let run = try runScript(
            """
            test("typo", function() expect(1):to_equl(1) end)
            test("dot", function()
              local stack = stackplay.screen {}:notification_stack { items = { "a" } }
              stack.card("a")
            end)
            test("screen dot", function() stackplay.screen {}.settle() end)

            """)
        #expect(run.status == 1)
        #expect(run.stderr.contains("x.lua:1: unknown matcher 'to_equl' (did you mean 'to_equal'?)"))
        #expect(
            run.stderr.contains(
                "x.lua:4: calling 'card' on bad self (stackplay.notification_stack expected, got string: "
                    + "use ':' as in x:card(...), not x.card(...))"))
        #expect(run.stderr.contains("x.lua:6: calling 'settle' on bad self"))
        #expect(run.stderr.contains("use ':' as in x:settle(...), not x.settle(...))"))
    }

    @Test func aBudgetStopNamesTheFlagThatRaisesIt() throws {
        let cpu = try runScript("while true do end\n", ["--cpu-budget", "0.2"])
        #expect(cpu.status == 1)
        #expect(cpu.stderr.contains("stopped: the script used its 0.2 s of CPU time\n"))
        #expect(cpu.stderr.contains("--cpu-budget SECONDS"))
        let memory = try runScript("local t = {} for i = 1, 1e9 do t[i] = i end\n", ["--memory-budget", "2"])
        #expect(memory.status == 1)
        #expect(memory.stderr.contains("--memory-budget MIB"))
    }

    @Test func repeatSaysEachTestRanNTimesIdentically() throws {
        let run = try runScript("test('a', function() end)\ntest('b', function() end)\n", ["--repeat", "5"])
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("2 passed, 0 failed (each test ran 5 times, identically)\n"))
    }
}
