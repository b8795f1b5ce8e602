import Foundation
import Testing

// Issue 23, items 8 and 9 (the command line and the config): every number is range-checked
// before it becomes an integer, a duration or an allocation, and the refusal names the flag or
// key and the range.

/// Runs `arguments` in a folder holding `files` and a passing `x.lua`.
private func run(_ arguments: [String], files: [String: String] = [:]) throws -> Run {
    let folder = try temporaryFolder(files.merging(["x.lua": "test('t', function() end)\n"]) { $1 })
    defer { try? FileManager.default.removeItem(at: folder) }
    return try stackplay(arguments: arguments, in: folder)
}

private func usage(_ message: String) -> String { "stackplay: \(message)\nSee 'stackplay --help'.\n" }

@Test(
    "Times beyond 10^6 s are usage errors naming the flag, never a trap",
    arguments: [
        (["--timeout", "1e308", "x.lua"], "--timeout"), (["--timeout", "inf", "x.lua"], "--timeout"),
        (["--cpu-budget", "1e308", "x.lua"], "--cpu-budget"),
        (["explore", "--time", "1e308", "x.lua"], "--time"),
    ])
func hugeTimesAreUsageErrors(arguments: [String], flag: String) throws {
    let result = try run(arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(
        result.stderr
            == usage(
                "\(flag) needs a positive number of seconds up to 1000000, not '\(arguments[arguments.count - 2])'"
            ))
}

@Test("The longest timeout runs normally")
func longestTimeoutRuns() throws {
    let result = try run(["--timeout", "1000000", "--cpu-budget", "1000000", "x.lua"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
}

@Test("A billion shards balanced by timings are refused, not an 8 GB allocation")
func billionShardsAreRefused() throws {
    let junit =
        "<testsuites><testsuite><testcase classname=\"x.lua\" name=\"t\" time=\"1\"/></testsuite></testsuites>\n"
    let result = try run(
        ["--shard", "1/1000000000", "--shard-timings", "j.xml", "x.lua"], files: ["j.xml": junit])
    #expect(result.status == 64)
    #expect(
        result.stderr
            == usage("--shard needs at most 100000 shards (K/N with N <= 100000), not '1/1000000000'"))
    let most = try run(
        ["--shard", "100000/100000", "--shard-timings", "j.xml", "x.lua"], files: ["j.xml": junit])
    // The one test is in another shard: nothing runs, at once and in little memory.
    #expect(most.status == 0, "\(most.stderr)")
    #expect(most.stdout == "0 passed, 0 failed\n")
}

@Test(
    "Config times and seeds out of range name the key",
    arguments: [
        (
            "return { cpu_budget = 1e308 }",
            "'cpu_budget' must be a positive number of seconds up to 1000000, got 1e+308"
        ),
        ("return { seed = 2^63 }", "'seed' must be a whole number >= 0, got 9.223372036854776e+18"),
        ("return { seed = -1 }", "'seed' must be a whole number >= 0, got -1"),
    ])
func configTimesAndSeedsOutOfRange(config: String, message: String) throws {
    let result = try run(["x.lua"], files: [".stackplay.lua": config])
    #expect(result.status == 64)
    #expect(result.stderr == usage(".stackplay.lua: \(message)"))
}

@Test("A flag that takes no value refuses one instead of ignoring it")
func flagWithoutValueRefusesOne() throws {
    let result = try run(["--mirror=false", "x.lua"])
    #expect(result.status == 64)
    #expect(result.stderr == usage("--mirror takes no value, not 'false'"))
}
