import Foundation
import Testing

// Issue 40 (hostile inputs, round three), continued from HostileInputsRoundThreeTests: a test
// stopped inside a C function, `replay` with many fingers held down, and `explore`'s verdicts.

@Suite struct StoppedInsideC {
    /// A test that prints, then backtracks in `string.find` past its CPU budget: the watchdog ends
    /// its worker from inside the C function.
    static let script = """
        test("prints then backtracks", function()
          print("before the stop")
          print("second line")
          string.find(string.rep("a", 1e5), ".-.-.-.-.-b")
        end)
        test("after it", function() print("next test") end)

        """

    @Test func `a test stopped inside string.find keeps what it printed in every report`() throws {
        let folder = try temporaryFolder(["stuck.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let budget = ["--cpu-budget", "0.3", "stuck.lua"]

        let human = try stackplay(arguments: budget, in: folder)
        #expect(human.status == 1)
        #expect(
            human.stdout.contains(
                "FAIL prints then backtracks\n      | before the stop\n      | second line\n"))
        #expect(human.stdout.contains("      | next test\n"))
        #expect(
            human.stderr.contains(
                "stuck.lua:4: stopped: the script used its 0.3 s of CPU time (inside `string.find`)"))

        let tap = try stackplay(arguments: ["--tap"] + budget, in: folder)
        #expect(tap.status == 1)
        #expect(tap.stdout.contains("not ok 1 - stuck.lua: prints then backtracks"))
        #expect(tap.stdout.contains("# before the stop\n# second line\n"))

        let json = try stackplay(arguments: ["--json"] + budget, in: folder)
        #expect(json.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.first?["output"] as? String == "before the stop\nsecond line\n")
        #expect((tests.first?["message"] as? String)?.contains("inside `string.find`") == true)

        let junit = try stackplay(arguments: ["--junit", "r.xml"] + budget, in: folder)
        #expect(junit.status == 1)
        let xml = String(decoding: bytes(folder.appendingPathComponent("r.xml")) ?? Data(), as: UTF8.self)
        #expect(xml.contains("<system-out>before the stop\nsecond line\n</system-out>"))

        // the report page the trace viewer is part of
        let page = try stackplay(arguments: ["--artifacts", "art"] + budget, in: folder)
        #expect(page.status == 1)
        let html = String(
            decoding: bytes(folder.appendingPathComponent("art/report.html")) ?? Data(), as: UTF8.self)
        #expect(html.contains("before the stop"))
    }

    @Test func `a whole script stopped inside C keeps its output, and past the cap says what it left out`()
        throws
    {
        let folder = try temporaryFolder([
            "whole.lua": "print(\"top\")\nstring.find(string.rep(\"a\", 1e5), \".-.-.-.-.-b\")\n",
            "flood.lua": """
            test("floods", function()
              for _ = 1, 1100 do print(string.rep("x", 999)) end
              string.find(string.rep("a", 1e5), ".-.-.-.-.-b")
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try stackplay(arguments: ["--cpu-budget", "0.3", "whole.lua"], in: folder)
        #expect(whole.status == 1)
        #expect(whole.stdout.contains("FAIL (whole script)\n      | top\n"), "\(whole.stdout)")

        let flood = try stackplay(arguments: ["--cpu-budget", "0.3", "--json", "flood.lua"], in: folder)
        #expect(flood.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(flood.stdout.utf8)) as? [String: Any])
        let output = try #require((report["tests"] as? [[String: Any]])?.first?["output"] as? String)
        // 1048 prints of 1000 bytes kept under the 1 MiB cap, the other 52 counted (a print is
        // kept whole or not at all)
        #expect(output.hasPrefix(String(repeating: "x", count: 999) + "\n"))
        #expect(output.utf8.count == 1_048_000 + "... (52000 more bytes of output not kept)\n".utf8.count)
        #expect(output.hasSuffix("... (52000 more bytes of output not kept)\n"), "\(output.suffix(80))")
    }
}

@Suite struct ReplayWithManyFingers {
    /// A trace of a wallet whose `count` fingers go down on its first card, then come up.
    static func fingers(_ count: Int) throws -> String {
        let header = try #require(
            String(decoding: bytes(URL(fileURLWithPath: fixtureTrace)) ?? Data(), as: UTF8.self)
                .split(separator: "\n").first)
        var lines = [String(header)]
        lines.reserveCapacity(2 * count + 1)
        for finger in 1...count {
            lines.append(
                "{\"i\":\(finger - 1),\"t\":0,\"type\":\"touch_down\",\"touch\":\(finger),\"x\":195,\"y\":96}"
            )
        }
        for finger in 1...count {
            lines.append("{\"i\":\(count + finger - 1),\"t\":0,\"type\":\"touch_up\",\"touch\":\(finger)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// 20,000 fingers held down on one card: each event used to go through every finger down (the
    /// touch map's look-ups, the wallet's pressed check), so the replay took ~100 s of CPU time
    /// here (debug build); linear, it takes a few. A CPU budget of 60 s tells them apart without
    /// timing the run.
    @Test func `replay is linear in the fingers held down`() throws {
        let folder = try temporaryFolder([
            "fingers.jsonl": try Self.fingers(20_000),
            "replay.lua": """
            test("20,000 fingers", function()
              local screen = stackplay.replay("fingers.jsonl")
              expect(#screen:component("wallet"):ids()):to_equal(3)
            end)

            """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try shell("\"$SP\" --cpu-budget 60 replay.lua", in: folder, timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"))
        let replay = try shell("\"$SP\" replay fingers.jsonl", in: folder, timeout: 300)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("ok   fingers.jsonl (40000 events)"))
    }
}

@Suite struct ExploreVerdicts {
    static let setup = """
        local stack
        local function setup()
          local screen = stackplay.screen {}
          stack = screen:notification_stack { items = { "a", "b", "c" }, dismissible = true }
          return screen
        end

        """

    @Test
    func
        `--time shorter than one run ends without a verdict, not a FAIL (a call that never returns still fails: round two)`()
        throws
    {
        let folder = try temporaryFolder([
            "slow.lua": Self.setup + """
                explore("slow", {
                  setup = setup,
                  invariants = {
                    ["slowly true"] = function() local x = 0 for i = 1, 3e6 do x = x + i end return true end,
                  },
                })

                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let slow = try stackplay(arguments: ["explore", "slow.lua", "--time", "0.2"], in: folder)
        #expect(slow.status == 0, "\(slow.stdout)\(slow.stderr)")
        #expect(!slow.stdout.contains("FAIL"), "\(slow.stdout)")
        #expect(
            slow.stdout.contains(
                "  --   slow (slow.lua:7): no verdict: --time 0.2 s ended the search during its first run, after "
            ),
            "\(slow.stdout)")
        #expect(slow.stdout.contains("0 runs completed and no invariant broke"))
        #expect(slow.stdout.contains("0 explored, 0 failed, 1 without a verdict (--time) (seed 0)"))

    }

    @Test func `a reason whose __tostring raises or yields is reported under its invariant, and reproduces`()
        throws
    {
        let folder = try temporaryFolder([
            "reason.lua": Self.setup + """
                explore("raising", {
                  setup = setup,
                  invariants = {
                    ["reason raises"] = function()
                      return false, setmetatable({}, { __tostring = function() error("boom in tostring") end })
                    end,
                  },
                })
                explore("yielding", {
                  setup = setup,
                  invariants = {
                    ["reason yields"] = function()
                      return false, setmetatable({}, { __tostring = function() coroutine.yield(1) end })
                    end,
                  },
                })

                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["explore", "reason.lua", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(!run.stdout.contains("'invariants'"), "\(run.stdout)")
        #expect(run.stdout.contains("FAIL raising (reason.lua:7): the invariant 'reason raises' broke"))
        #expect(
            run.stdout.contains(
                "reason raises: {} (the reason could not be turned into a string: its __tostring raised: "
                    + "reason.lua:11: boom in tostring)"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "reason yields: {} (the reason could not be turned into a string: its __tostring raised: "
                    + "attempt to yield from outside a coroutine)"), "\(run.stdout)")
        // the reproducers fail at their expectation, not with an error of their own
        let again = try stackplay(arguments: ["out/raising.lua", "out/yielding.lua"], in: folder)
        #expect(again.status == 1)
        #expect(again.stdout.contains("0 passed, 2 failed"))
        #expect(
            again.stderr.contains(
                "the invariant 'reason raises' holds after step 1: {} (its __tostring raised: "),
            "\(again.stderr)")
        #expect(again.stderr.contains("expected a truthy value, got false"))
    }

    @Test func `a reproducer that would pass is not written, and the report says why`() throws {
        let folder = try temporaryFolder([
            "x.lua": Self.setup + """
                local calls = 0
                explore("flaky", {
                  setup = setup,
                  invariants = { ["not the 37th call"] = function() calls = calls + 1 return calls ~= 37 end },
                })
                explore("changes the screen", {
                  setup = setup,
                  invariants = {
                    ["expanded stays off"] = function()
                      local was = stack:expanded()
                      stack:set_expanded(not was)
                      return not was
                    end,
                  },
                })
                explore("reproduces", {
                  setup = setup,
                  invariants = { ["never expanded"] = function() return not stack:expanded() end },
                })

                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["explore", "x.lua", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("0 explored, 3 failed"))
        #expect(
            run.stdout.contains(
                "    no reproducer written: the shrunk steps did not fail again when run once more (the failure is flaky"
            ), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "    no reproducer written: the scenario of the shrunk steps passes: the invariant broke only in the "
                    + "explorer's run"), "\(run.stdout)")
        #expect(run.stdout.contains("    wrote out/flaky.jsonl (the run's trace)"))
        #expect(bytes(folder.appendingPathComponent("out/flaky.lua")) == nil)
        #expect(bytes(folder.appendingPathComponent("out/changes_the_screen.lua")) == nil)
        #expect(bytes(folder.appendingPathComponent("out/changes_the_screen.jsonl")) != nil)
        // the one that reproduces is written, and fails
        #expect(run.stdout.contains("    wrote out/reproduces.lua (run it: stackplay out/reproduces.lua)"))
        let again = try stackplay(arguments: ["out/reproduces.lua"], in: folder)
        #expect(again.status == 1)
        #expect(again.stderr.contains("the invariant 'never expanded' holds after step"), "\(again.stderr)")
    }
}

@Suite struct ArenaSmallBlocks {
    /// 22 phases, each holding ~24 MiB of strings that fill blocks of one small size class (48 bytes
    /// to 1 KiB) and then dropping them: each class kept what it once held, the arena's 512 MiB
    /// reserve ran out, and the test stopped at `no room for 376 more bytes of memory (38 MiB in
    /// use)` under a 64 MiB budget.
    static let phases = """
        test("phases of small blocks, a size class each", function()
          local sizes = {}
          for c = 3, 16 do sizes[#sizes + 1] = 16 * c end
          for _, bytes in ipairs { 320, 384, 448, 512, 640, 768, 896, 1024 } do sizes[#sizes + 1] = bytes end
          for phase, bytes in ipairs(sizes) do
            local length = bytes - 25 -- a string's header and its terminating zero fill the block
            local keep = {}
            for i = 1, (24 << 20) // (bytes + 16) do
              keep[i] = string.rep(string.char(65 + phase % 26), length - 8) .. string.format("%08d", i)
            end
            keep = nil
            collectgarbage()
          end
          expect(true):to_be_truthy()
        end)

        """

    @Test(
        .disabled(
            if: builtWithAddressSanitizer,
            "no arena under AddressSanitizer (fresh states on the system allocator)"
        ))
    func `a test within its budget never fails for fragmentation of small blocks of many sizes`() throws {
        let folder = try temporaryFolder(["small.lua": Self.phases])
        defer { try? FileManager.default.removeItem(at: folder) }
        // a CPU budget that the machine's load cannot reach: this is about memory
        let run = try stackplay(
            arguments: ["--memory-budget", "64", "--cpu-budget", "60", "--jobs", "1", "small.lua"], in: folder
        )
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"))
    }
}
