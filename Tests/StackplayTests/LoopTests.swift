import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end: the terminal loop. `--watch` re-runs only what a save affects and ends with 130 on
/// Ctrl-C; `--last-failed` runs the last run's failures; `file.lua:LINE` runs the test there.
@Suite struct LoopTests {
    static let helper = "return { items = { \"a\", \"b\" } }\n"
    static let usesHelper = """
        local lock = require "helpers.lock"
        test("a uses the helper", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = lock.items }
          expect(stack:count()):to_equal(2)
        end)

        """

    /// CPU ticks (user + system) `pid` has used so far.
    static func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // after the command's parenthesis: state is field 3, utime 14, stime 15
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }

    @Test
    func `--watch re-runs only the saved file, then the scripts requiring a saved helper; Ctrl-C exits 130`()
        throws
    {
        // Every file this watcher sees is written by a child process (see `writeFromChild`).
        let folder = try temporaryFolder([:])
        try writeFromChild(
            [
                "s/a.lua": Self.usesHelper, "s/b.lua": "test(\"b\", function() expect(1):to_equal(1) end)\n",
                "s/c.lua": "test(\"c\", function() end)\n", "s/helpers/lock.lua": Self.helper,
            ], in: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try Spawned.start(
            stackplayBinary().path, ["--watch", "s", "--jobs", "1"], in: folder.path,
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "CI" })
        var out = child.readOut(until: "for changes (Ctrl-C to stop)", timeout: 60)
        #expect(
            out.contains("3 passed, 0 failed\nstackplay --watch: watching s for changes (Ctrl-C to stop)\n"),
            "\(out)")

        // Idle: it waits on inotify, using no CPU.
        let before = try Self.cpuTicks(child.pid)
        usleep(600_000)
        #expect(try Self.cpuTicks(child.pid) - before <= 1, "the watcher spins while nothing changes")

        // A saved script: only it runs.
        try writeFromChild(["s/b.lua": "test(\"b\", function() expect(2):to_equal(2) end)\n"], in: folder)
        out = child.readOut(until: "round 1: 1 passed", timeout: 60)
        #expect(
            out.contains("stackplay --watch: round 1: s/b.lua changed; running s/b.lua\ns/b.lua\n  ok   b\n"),
            "\(out)")
        #expect(!out.contains("s/a.lua") && !out.contains("s/c.lua"), "\(out)")

        // A helper saved as editors do (a new file renamed over it): the script requiring it runs.
        try writeFromChild(
            ["s/helpers/.lock.lua.tmp": "return { items = { \"a\", \"b\", \"c\" } }\n"], in: folder)
        #expect(rename(folder.path + "/s/helpers/.lock.lua.tmp", folder.path + "/s/helpers/lock.lua") == 0)
        out = child.readOut(until: "round 2: 0 passed, 1 failed", timeout: 60)
        #expect(
            out.contains(
                "stackplay --watch: round 2: s/helpers/lock.lua (required by others) changed; running s/a.lua\n"
            ),
            "\(out)")
        #expect(out.contains("  FAIL a uses the helper"), "\(out)")
        #expect(!out.contains("s/b.lua") && !out.contains("s/c.lua"), "\(out)")

        // A new script under the watched folder runs.
        try writeFromChild(["s/more/d.lua": "test(\"d\", function() end)\n"], in: folder)
        out = child.readOut(until: "round 3: 1 passed", timeout: 60)
        #expect(out.contains("round 3: s/more/d.lua changed; running s/more/d.lua"), "\(out)")

        kill(child.pid, SIGINT)
        let end = child.finish(timeout: 30)
        #expect(end.status == 130, "\(end.stdout)\(end.stderr)")
        #expect(end.stdout == "stackplay --watch: stopped watching (SIGINT)\n")
        #expect(!end.stderr.contains("Fatal error") && !end.stderr.contains("Stack dump"), "\(end.stderr)")
    }

    static let threeTests = """
        test("one passes", function()
          expect(1):to_equal(1)
        end)

        test("two fails", function()
          expect(1):to_equal(2)
        end)
        test("three passes", function() end)

        """

    @Test func `--last-failed runs the last run's failures, kept in .stackplay/ with its own .gitignore`()
        throws
    {
        let folder = try temporaryFolder(["x.lua": Self.threeTests, "y.lua": "test(\"y\", function() end)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stackplay(arguments: ["."], in: folder)
        #expect(first.status == 1)
        #expect(
            try String(contentsOf: folder.appendingPathComponent(".stackplay/.gitignore"), encoding: .utf8)
                .hasSuffix("\n*\n"))
        let record = try String(
            contentsOf: folder.appendingPathComponent(".stackplay/last-run.json"), encoding: .utf8)
        #expect(record.hasPrefix("{\"format\":\"stackplay-last-run\",\"version\":1,"))

        let again = try stackplay(arguments: ["--last-failed", "."], in: folder)
        #expect(again.status == 1)
        #expect(again.stdout == "./x.lua\n  FAIL two fails\n0 passed, 1 failed\n", "\(again.stdout)")
        #expect(
            again.stderr.hasPrefix("stackplay: --last-failed: running the 1 test that failed last time\n"))

        // Fixed: it passes, and the next --last-failed has nothing left: it runs everything.
        try Self.threeTests.replacingOccurrences(of: "to_equal(2)", with: "to_equal(1)").write(
            to: folder.appendingPathComponent("x.lua"), atomically: false, encoding: .utf8)
        let fixed = try stackplay(arguments: ["--last-failed", "."], in: folder)
        #expect(fixed.status == 0)
        #expect(fixed.stdout.hasSuffix("1 passed, 0 failed\n"))
        let all = try stackplay(arguments: ["--last-failed", "."], in: folder)
        #expect(all.status == 0)
        #expect(all.stderr == "stackplay: --last-failed: no test failed last time; running every test\n")
        #expect(all.stdout.hasSuffix("4 passed, 0 failed\n"))

        // Another set of paths is another record.
        let other = try stackplay(arguments: ["--last-failed", "y.lua"], in: folder)
        #expect(other.stderr.contains("no earlier run of these paths is recorded; running every test"))
    }

    @Test func `--last-failed runs every test of a file that did not load last time`() throws {
        let folder = try temporaryFolder([
            "good.lua": "test(\"ok\", function() end)\n", "bad.lua": "test(\"broken\", function()\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["."], in: folder).status == 1)
        try "test(\"fixed one\", function() end)\ntest(\"fixed two\", function() end)\n".write(
            to: folder.appendingPathComponent("bad.lua"), atomically: false, encoding: .utf8)
        let again = try stackplay(arguments: ["--last-failed", "."], in: folder)
        #expect(again.status == 0)
        #expect(
            again.stdout == "./bad.lua\n  ok   fixed one\n  ok   fixed two\n2 passed, 0 failed\n",
            "\(again.stdout)")
    }

    @Test
    func
        `the record goes beside the project's .stackplay.lua, and never over a file stackplay did not write`()
        throws
    {
        let folder = try temporaryFolder([
            ".stackplay.lua": "return { jobs = 1 }\n", "deep/er/x.lua": Self.threeTests,
            "mine/.stackplay": "a file of mine\n", "mine/x.lua": Self.threeTests,
            "theirs/.stackplay/last-run.json": "{\"notes\": true}\n", "theirs/x.lua": Self.threeTests,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["deep/er"], in: folder).status == 1)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/.stackplay/last-run.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/deep/er/.stackplay"))

        // (each of these folders holds its own config so that the record goes there)
        for name in ["mine", "theirs"] {
            try "return {}\n".write(
                to: folder.appendingPathComponent("\(name)/.stackplay.lua"), atomically: false,
                encoding: .utf8)
        }
        let mine = try stackplay(arguments: ["mine"], in: folder)
        #expect(mine.status == 1)
        #expect(mine.stderr.contains("is not a folder stackplay made"), "\(mine.stderr)")
        #expect(
            try String(contentsOf: folder.appendingPathComponent("mine/.stackplay"), encoding: .utf8)
                == "a file of mine\n")
        let theirs = try stackplay(arguments: ["theirs"], in: folder)
        #expect(theirs.stderr.contains("last-run.json is not stackplay's record"), "\(theirs.stderr)")
        #expect(
            try String(
                contentsOf: folder.appendingPathComponent("theirs/.stackplay/last-run.json"), encoding: .utf8)
                == "{\"notes\": true}\n")
    }

    @Test func `file.lua:LINE runs the test whose call spans the line, else the one before it`() throws {
        let folder = try temporaryFolder([
            "x.lua": "-- three tests\n\n" + Self.threeTests, "whole.lua": "local a = 1\nlocal b = 2\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        // lines: 3 test("one passes", 7 test("two fails", 8 its body, 10 test("three passes"
        for (line, name) in [
            (3, "one passes"), (4, "one passes"), (6, "one passes"), (7, "two fails"), (8, "two fails"),
            (10, "three passes"),
        ] {
            let run = try stackplay(arguments: ["x.lua:\(line)"], in: folder)
            #expect(
                run.stdout.hasPrefix("x.lua\n  \(name == "two fails" ? "FAIL" : "ok  ") \(name)\n"),
                "line \(line): \(run.stdout)")
            #expect(
                run.stdout.hasSuffix(name == "two fails" ? "0 passed, 1 failed\n" : "1 passed, 0 failed\n"))
        }
        let mirrored = try stackplay(arguments: ["x.lua:4", "--mirror"], in: folder)
        #expect(mirrored.stdout.hasSuffix("2 passed, 0 failed\n"), "\(mirrored.stdout)")
        let two = try stackplay(arguments: ["x.lua:3", "x.lua:10"], in: folder)
        #expect(two.stdout.hasSuffix("2 passed, 0 failed\n"), "\(two.stdout)")

        let outside = try stackplay(arguments: ["x.lua:1"], in: folder)
        #expect(outside.status == 64)
        #expect(
            outside.stderr.hasPrefix(
                "stackplay: x.lua:1: line 1 is outside any test (the first test of x.lua starts at line 3)\n")
        )
        let past = try stackplay(arguments: ["x.lua:99"], in: folder)
        #expect(past.status == 64)
        #expect(
            past.stderr.hasPrefix("stackplay: x.lua:99: x.lua has lines 1 to 10, not 99\n"), "\(past.stderr)")
        let missing = try stackplay(arguments: ["nope.lua:3"], in: folder)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("nope.lua:3: no such file: nope.lua"))
        let whole = try stackplay(arguments: ["whole.lua:2"], in: folder)
        #expect(whole.status == 0)
        #expect(whole.stdout.hasSuffix("1 passed, 0 failed\n"))
        let both = try stackplay(arguments: ["x.lua:3", "--last-failed"], in: folder)
        #expect(both.status == 64)
    }
}
