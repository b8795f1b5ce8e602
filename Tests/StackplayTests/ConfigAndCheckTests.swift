import Foundation
import Testing

// The project config `.stackplay.lua` (defaults; flags win) and `stackplay check`.

/// A project with a config, a test that reports the default screen width, and one that fails.
func project(config: String) throws -> URL {
    try temporaryFolder([
        ".stackplay.lua": config,
        "t/width.lua":
            "test(\"width\", function() expect(stackplay.screen {}:settings().width):to_equal(200) end)\n",
        "u/fails.lua": "test(\"fails\", function() expect(1):to_equal(2) end)\n",
    ])
}

@Test func configGivesPathsReporterAndScreenSize() throws {
    let folder = try project(
        config: "return { paths = { \"t\" }, reporter = \"tap\", screen = { width = 200 } }\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try stackplay(arguments: [], in: folder)
    #expect(run.stderr == "")
    #expect(run.status == 0)
    let tap = try TAP(run.stdout)
    #expect(tap.points.map(\.description) == ["t/width.lua: width"])
}

@Test func flagsWinOverTheConfig() throws {
    let folder = try project(
        config: "return { paths = { \"t\" }, reporter = \"tap\", screen = { width = 200 } }\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    // --json over the reporter, and paths on the command line over `paths`.
    let run = try stackplay(arguments: ["--json", "u"], in: folder)
    #expect(run.status == 1)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let tests = try #require(json["tests"] as? [[String: Any]])
    #expect(tests.map { $0["file"] as? String } == ["u/fails.lua"])
}

@Test func configBudgetIsUsedUnlessAFlagGivesOne() throws {
    let folder = try temporaryFolder([
        ".stackplay.lua": "return { cpu_budget = 0.2 }\n",
        "spin.lua": "while true do end\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try stackplay(arguments: ["spin.lua"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("stackplay: spin.lua:1: stopped: the script used its 0.2 s of CPU time\n"))
    let flagged = try stackplay(arguments: ["--cpu-budget", "0.3", "spin.lua"], in: folder)
    #expect(
        flagged.stderr.hasPrefix("stackplay: spin.lua:1: stopped: the script used its 0.3 s of CPU time\n"))
}

@Test(arguments: [
    (
        "return { reportr = \"tap\" }",
        "stackplay: .stackplay.lua: unknown key 'reportr' (did you mean 'reporter'?)"
    ),
    (
        "return { reporter = \"xml\" }",
        "stackplay: .stackplay.lua: 'reporter' must be 'human', 'tap', 'json' or 'github', got 'xml'"
    ),
    ("return { jobs = 0 }", "stackplay: .stackplay.lua: 'jobs' must be a whole number from 1 to 1024, got 0"),
    (
        "return { screen = { widht = 3 } }",
        "stackplay: .stackplay.lua: unknown key 'screen.widht' (did you mean 'screen.width'?)"
    ),
    ("return 42", "stackplay: .stackplay.lua: must return a table, got 42"),
])
func badConfigExits64(config: String, message: String) throws {
    let folder = try project(config: config + "\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try stackplay(arguments: ["t"], in: folder)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == "\(message)\nSee 'stackplay --help'.\n")
}

@Test func checkReportsSyntaxErrorsAndUnknownNamesWithSuggestions() throws {
    let folder = try temporaryFolder([
        "names.lua":
            "local screen = stackplay.scren {}\nlocal stack = screen:notification_stack { items = {} }\nstack:tapp()\n",
        "syntax.lua": "test(\"x\", function()\n  local s = (\nend)\n",
        "clean.lua":
            "local screen = stackplay.screen {}\nlocal w = screen:wallet_card_stack { items = { \"a\" } }\nw:tap(\"a\")\nscreen:settle()\nexpect(w:selection()):to_equal(\"a\")\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try stackplay(arguments: ["check", "."], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout == "3 checked, 3 problems\n")
    let lines = run.stderr.split(separator: "\n").map(String.init)
    #expect(
        lines.contains(
            "stackplay: ./names.lua:1: unknown API name 'stackplay.scren' (did you mean 'stackplay.screen'?)")
    )
    #expect(lines.contains("stackplay: ./names.lua:3: unknown API name ':tapp' (did you mean ':tap'?)"))
    #expect(lines.contains { $0.hasPrefix("stackplay: ./syntax.lua:3: ") })
    #expect(lines.count == 3)
    // check runs nothing: the clean file alone passes without a gesture being made.
    let clean = try stackplay(arguments: ["check", "clean.lua"], in: folder)
    #expect(clean.status == 0)
    #expect(clean.stdout == "1 checked, 0 problems\n")
    #expect(clean.stderr == "")
}

@Test func checkPassesOnTheShippedScenarios() throws {
    let run = try stackplay("check", "scripts")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.hasSuffix(" 0 problems\n"))
}
