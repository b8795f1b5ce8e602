import Testing

@Test func passingScriptExitsZero() throws {
    let run = try stackplay("\(fixtures)/passing.lua")
    #expect(run.status == 0)
    // print() is captured and shown under the test it belongs to
    #expect(run.stdout.contains("  ok   (whole script)\n      | passing ran\n"))
    #expect(run.stdout.hasSuffix("\n1 passed, 0 failed\n"))
    #expect(run.stderr == "")
}

@Test func failedAssertReportsPathLineAndTraceback() throws {
    let run = try stackplay("\(fixtures)/failing_assert.lua")
    #expect(run.status == 1)
    #expect(run.stdout.hasSuffix("  FAIL (whole script)\n0 passed, 1 failed\n"))
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.first == "stackplay: \(fixtures)/failing_assert.lua:2: expected 4 cards, got 3")
    #expect(lines.dropFirst().first == "stack traceback:")
    #expect(run.stderr.contains("\(fixtures)/failing_assert.lua:2: in main chunk"))
}

@Test func budgetStopFailsButTheNextScriptStillRuns() throws {
    let run = try stackplay("--cpu-budget", "0.2", "\(fixtures)/spin.lua", "\(fixtures)/passing.lua")
    #expect(run.status == 1)
    #expect(run.stdout.contains("      | passing ran\n"))
    #expect(run.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    #expect(
        run.stderr.hasPrefix(
            "stackplay: \(fixtures)/spin.lua:2: stopped: the script used its 0.2 s of CPU time\n"))
}

@Test func folderRunsEveryLuaFileSortedSkippingDotNames() throws {
    let run = try stackplay("\(fixtures)/suite")
    #expect(run.stderr == "")
    // a_first and b_uses_helper; helpers/ holds modules for require, not scenarios.
    #expect(run.stdout.hasSuffix("\n2 passed, 0 failed\n"))
    #expect(run.stdout.contains("a_first.lua\n"))
    #expect(!run.stdout.contains("swipe.lua"))
    #expect(run.status == 0)
}

@Test func memoryBudgetFlagIsUsed() throws {
    let run = try stackplay("--memory-budget=1", "\(fixtures)/passing.lua")
    #expect(run.status == 0)
}

@Test func helpAndVersion() throws {
    let help = try stackplay("--help")
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("USAGE: stackplay [options] FILE|DIR ..."))
    #expect(help.stdout.contains("--cpu-budget SECONDS"))
    #expect(help.stderr == "")
    let version = try stackplay("--version")
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("stackplay 0."))
    #expect(version.stdout.contains("Lua 5.4"))
}

@Test(arguments: [
    (["--frobnicate", "x.lua"], "stackplay: unknown option '--frobnicate'"),
    (["\(fixtures)/missing.lua"], "stackplay: no such file or folder: \(fixtures)/missing.lua"),
    (
        ["--cpu-budget", "soon", "x.lua"],
        "stackplay: --cpu-budget needs a positive number of seconds up to 1000000, not 'soon'"
    ),
    (["--memory-budget"], "stackplay: --memory-budget needs a value"),
    ([], "stackplay: no scripts given"),
])
func usageErrorsExit64(arguments: [String], message: String) throws {
    let run = try stackplay(arguments: arguments)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == "\(message)\nSee 'stackplay --help'.\n")
}
