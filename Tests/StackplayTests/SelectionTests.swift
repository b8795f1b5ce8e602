import Foundation
import Testing

// Choosing tests: --list, --filter, --shard K/N, --jobs N, over a generated folder of scripts.

/// Four scripts: tests that pass, one that fails, one skipped, and a script without tests.
func selectionFolder() throws -> URL {
    func tests(_ prefix: String, _ count: Int) -> String {
        (1...count).map { "test(\"\(prefix) \($0)\", function() expect(\($0) + 0):to_equal(\($0)) end)" }
            .joined(separator: "\n") + "\n"
    }
    return try temporaryFolder([
        "a_swipes.lua": tests("swipe", 5),
        "b_wallet.lua": tests("wallet", 3) + "skip(\"wallet later\", function() end)\n",
        "c_plain.lua": "local x = 1 + 1\nassert(x == 2)\n",
        "d_sticky.lua": tests("sticky", 4)
            + "test(\"sticky broken\", function() expect(1):to_equal(2) end)\n",
    ])
}

/// The names `--list` prints, one a line.
func listed(_ arguments: String..., in folder: URL) throws -> [String] {
    let run = try stackplay(arguments: ["--list"] + arguments + ["."], in: folder)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    return run.stdout.split(separator: "\n").map(String.init)
}

/// The test points of a `--tap` run: name → ok.
func ran(_ arguments: [String], in folder: URL) throws -> [(name: String, ok: Bool, skipped: Bool)] {
    let run = try stackplay(arguments: ["--tap"] + arguments + ["."], in: folder)
    let tap = try TAP(run.stdout)
    #expect(tap.plan == tap.points.count)
    return tap.points.map { ($0.description, $0.ok, $0.skipped) }
}

@Test func listShowsEveryTestInOrderWithoutRunningThem() throws {
    let folder = try selectionFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let names = try listed(in: folder)
    #expect(names.count == 15)
    #expect(names.first == "./a_swipes.lua: swipe 1")
    #expect(names.contains("./b_wallet.lua: wallet later (skipped)"))
    #expect(names.contains("./c_plain.lua"))
    #expect(names.last == "./d_sticky.lua: sticky broken")
}

@Test func shardsTogetherListEveryTestExactlyOnce() throws {
    let folder = try selectionFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let all = try listed(in: folder)
    let shards = try (1...3).map { try listed("--shard", "\($0)/3", in: folder) }
    #expect(shards.allSatisfy { !$0.isEmpty })
    #expect(shards.flatMap { $0 }.sorted() == all.sorted())
    #expect(Set(shards.flatMap { $0 }).count == all.count)
    // Deterministic: the same shard twice is the same list.
    #expect(try listed("--shard", "2/3", in: folder) == shards[1])
    #expect(try listed("--shard", "1/1", in: folder) == all)
}

@Test func shardsTogetherRunEveryTestExactlyOnce() throws {
    let folder = try selectionFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let all = try ran([], in: folder)
    let shards = try (1...3).map { try ran(["--shard", "\($0)/3"], in: folder) }
    let names = shards.flatMap { $0.map(\.name) }
    #expect(names.sorted() == all.map(\.name).sorted())
    #expect(Set(names).count == 15)
    // Each test has the same outcome in its shard as in the whole run.
    let outcomes = Dictionary(uniqueKeysWithValues: all.map { ($0.name, "\($0.ok) \($0.skipped)") })
    for point in shards.flatMap({ $0 }) { #expect(outcomes[point.name] == "\(point.ok) \(point.skipped)") }
    // The shard holding the failing test exits 1; the others 0.
    for k in 1...3 {
        let run = try stackplay(arguments: ["--shard", "\(k)/3", "."], in: folder)
        let failing = shards[k - 1].contains { !$0.ok }
        #expect(run.status == (failing ? 1 : 0))
    }
}

@Test func filterRunsOnlyMatchingTests() throws {
    let folder = try selectionFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
        try listed("--filter", "wallet", in: folder) == [
            "./b_wallet.lua: wallet 1", "./b_wallet.lua: wallet 2", "./b_wallet.lua: wallet 3",
            "./b_wallet.lua: wallet later (skipped)",
        ])
    // The filter matches 'file: name', so a file name selects all its tests.
    #expect(try listed("--filter", "d_sticky", in: folder).count == 5)
    let run = try stackplay(arguments: ["--filter", "swipe 3", "."], in: folder)
    #expect(run.status == 0)
    #expect(run.stdout == "./a_swipes.lua\n  ok   swipe 3\n1 passed, 0 failed\n")
    let broken = try stackplay(arguments: ["--filter", "sticky broken", "."], in: folder)
    #expect(broken.status == 1)
    #expect(broken.stdout.hasSuffix("0 passed, 1 failed\n"))
    let none = try stackplay(arguments: ["--filter", "nothing like it", "."], in: folder)
    #expect(none.status == 1)
    #expect(none.stdout == "")
    #expect(none.stderr == "stackplay: no test matches --filter 'nothing like it'\n")
}

@Test func oneJobAndFourJobsGiveTheSameResults() throws {
    let folder = try selectionFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for format in [["--tap"], [String]()] {
        let one = try stackplay(arguments: format + ["--jobs", "1", "."], in: folder)
        let four = try stackplay(arguments: format + ["--jobs", "4", "."], in: folder)
        #expect(one.status == 1)
        #expect(four.status == one.status)
        #expect(four.stdout == one.stdout)
        #expect(four.stderr == one.stderr)
    }
}

@Test(arguments: [
    (["--shard", "0/3", "."], "stackplay: --shard needs K/N with 1 <= K <= N, not '0/3'"),
    (["--shard", "4/3", "."], "stackplay: --shard needs K/N with 1 <= K <= N, not '4/3'"),
    (["--shard", "two", "."], "stackplay: --shard needs K/N with 1 <= K <= N, not 'two'"),
    (["--jobs", "0", "."], "stackplay: --jobs needs a whole number from 1 to 1024, not '0'"),
    (["--filter"], "stackplay: --filter needs a value"),
    (["--junit"], "stackplay: --junit needs a value"),
    (["--tapp", "."], "stackplay: unknown option '--tapp' (did you mean '--tap'?)"),
])
func selectionUsageErrorsExit64(arguments: [String], message: String) throws {
    let run = try stackplay(arguments: arguments)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == "\(message)\nSee 'stackplay --help'.\n")
}
