import Foundation
import Testing

/// End-to-end: Bazel's test protocol (its variables set as Bazel sets them, since Bazel itself is
/// not installed here), shards balanced by a previous run's durations, and `stackplay merge`.
@Suite struct DistributedCITests {
    let suite = "\(fixtures)/report"
    /// Every test of the suite, as `--list` names them (a skipped one included).
    static let all = [
        "mixed.lua: a tap opens the pile", "mixed.lua: a wrong expectation fails",
        "mixed.lua: a test not written yet",
        "passing.lua: the wallet selects a tapped card", "passing.lua: the sticky cards scroll",
    ]

    func listed(_ run: Run) -> [String] {
        run.stdout.split(separator: "\n").map {
            String($0.dropFirst("\(fixtures)/report/".count)).replacingOccurrences(of: " (skipped)", with: "")
        }
    }

    @Test func `Bazel's shard variables split the tests; the files Bazel names are written`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        var seen: [String] = []
        for index in 0..<2 {
            let dir = folder.appendingPathComponent("shard\(index)")
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("tmp"), withIntermediateDirectories: true)
            let environment = [
                "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "\(index)",
                "TEST_SHARD_STATUS_FILE": dir.appendingPathComponent("status").path,
                "XML_OUTPUT_FILE": dir.appendingPathComponent("test.xml").path,
                "TEST_PREMATURE_EXIT_FILE": dir.appendingPathComponent("premature").path,
                "TEST_TMPDIR": dir.appendingPathComponent("tmp").path,
                "TEST_UNDECLARED_OUTPUTS_DIR": dir.appendingPathComponent("outputs").path,
            ]
            let list = try stackplay(arguments: ["--list", suite], environment: environment)
            #expect(list.status == 0)
            seen += listed(list)
            let run = try stackplay(arguments: [suite], environment: environment)
            // The failure is in the second shard.
            #expect(run.status == (index == 1 ? 1 : 0), "\(run.stderr)")
            let fm = FileManager.default
            #expect(fm.fileExists(atPath: dir.appendingPathComponent("status").path))
            #expect(!fm.fileExists(atPath: dir.appendingPathComponent("premature").path))
            let junit = try String(contentsOf: dir.appendingPathComponent("test.xml"), encoding: .utf8)
            #expect(junit.components(separatedBy: "<testcase ").count - 1 == listed(list).count)
            #expect(fm.fileExists(atPath: dir.appendingPathComponent("outputs/report.html").path))
        }
        #expect(seen.sorted() == Self.all.sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func `flags win over Bazel's variables`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = [
            "TEST_TOTAL_SHARDS": "5", "TEST_SHARD_INDEX": "4",
            "XML_OUTPUT_FILE": folder.appendingPathComponent("bazel.xml").path,
        ]
        let list = try stackplay(arguments: ["--list", "--shard", "1/1", suite], environment: environment)
        #expect(listed(list).count == Self.all.count)
        let mine = folder.appendingPathComponent("mine.xml").path
        _ = try stackplay(
            arguments: ["--junit", mine, "--shard", "1/1", "--filter", "tap opens", suite],
            environment: environment)
        #expect(FileManager.default.fileExists(atPath: mine))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bazel.xml").path))
    }

    @Test(arguments: [
        (
            ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"],
            "stackplay: TEST_SHARD_INDEX needs a whole number from 0 to 1, not '2'"
        ),
        (["TEST_TOTAL_SHARDS": "x"], "stackplay: TEST_TOTAL_SHARDS needs a whole number >= 1, not 'x'"),
    ])
    func `bad Bazel variables are usage errors that name them`(environment: [String: String], message: String)
        throws
    {
        let run = try stackplay(arguments: [suite], environment: environment)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }

    @Test func `a run that never starts (a usage error) makes no premature-exit file`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let premature = folder.appendingPathComponent("premature").path
        let run = try stackplay(
            arguments: ["missing-folder"], environment: ["TEST_PREMATURE_EXIT_FILE": premature])
        #expect(run.status == 64)
        // It never started: nothing was made, and Bazel sees no verdict either way.
        #expect(!FileManager.default.fileExists(atPath: premature))
    }

    @Test func `--shard-timings balances shards by a previous run's JUnit durations`() throws {
        let junit = """
            <testsuites>
              <testsuite name="\(suite)/mixed.lua">
                <testcase classname="\(suite)/mixed.lua" name="a tap opens the pile" time="9"/>
                <testcase classname="\(suite)/mixed.lua" name="a wrong expectation fails" time="1"/>
              </testsuite>
              <testsuite name="\(suite)/passing.lua">
                <testcase classname="\(suite)/passing.lua" name="the wallet selects a tapped card" time="2"/>
                <testcase classname="\(suite)/passing.lua" name="the sticky cards scroll" time="3"/>
              </testsuite>
            </testsuites>
            """
        let folder = try temporaryFolder(["timings.xml": junit])
        defer { try? FileManager.default.removeItem(at: folder) }
        let timings = folder.appendingPathComponent("timings.xml").path
        // 9 alone; 3, 2.5 (the skipped test, not in the file: the median), 2, 1 on the other.
        let first = try stackplay("--list", "--shard", "1/2", "--shard-timings", timings, suite)
        let second = try stackplay("--list", "--shard", "2/2", "--shard-timings", timings, suite)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(listed(first) == ["mixed.lua: a tap opens the pile"])
        #expect(
            listed(second) == [
                "mixed.lua: a wrong expectation fails", "mixed.lua: a test not written yet",
                "passing.lua: the wallet selects a tapped card", "passing.lua: the sticky cards scroll",
            ])
        let alone = try stackplay("--shard-timings", timings, suite)
        #expect(alone.status == 64)
        #expect(
            alone.stderr.hasPrefix(
                "stackplay: --shard-timings needs --shard K/N (or Bazel's TEST_TOTAL_SHARDS)"))
        let missing = try stackplay("--shard", "1/2", "--shard-timings", "nothing.xml", suite)
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("stackplay: --shard-timings: cannot read nothing.xml"))
    }

    /// Writes each shard's `--json` report into `folder`; returns their paths.
    func shardReports(_ count: Int, in folder: URL, extra: [String] = []) throws -> [String] {
        try (1...count).map { index in
            let run = try stackplay(arguments: ["--json", "--shard", "\(index)/\(count)"] + extra + [suite])
            let path = folder.appendingPathComponent("shard\(index).json").path
            try run.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    @Test func `merge: the shards' reports read as the whole run's`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = try shardReports(
            3, in: folder, extra: ["--artifacts", folder.appendingPathComponent("x").path])
        let whole = try stackplay(suite)
        let merged = try stackplay(arguments: ["merge"] + reports.reversed())
        #expect(merged.status == 1)
        #expect(merged.stdout == whole.stdout)
        #expect(merged.stdout.hasSuffix("3 passed, 1 failed, 1 skipped\n"))
        #expect(merged.stderr == whole.stderr)

        let junit = folder.appendingPathComponent("merged/junit.xml").path
        let artifacts = folder.appendingPathComponent("merged/out").path
        let json = try stackplay(
            arguments: ["merge", "--json", "--junit", junit, "--artifacts", artifacts] + reports)
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"passed\":3,\"failed\":1,\"skipped\":1"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("tests=\"5\" failures=\"1\""))
        let page = try String(contentsOfFile: "\(artifacts)/report.html", encoding: .utf8)
        // One deflated trace a screen (id t…), and no script's source: merge read no script, and
        // a path a report names is never embedded (issue 40).
        #expect(page.components(separatedBy: "\" data-encoding=\"deflate-raw;base64\"").count - 1 == 4)
        #expect(page.matches(of: /id="t\d+-\d+" data-encoding/).count == 4)
        #expect(page.matches(of: /id="s\d+" data-encoding/).count == 0)
        #expect(json.stderr.contains("stackplay: wrote \(artifacts)/report.html"))
    }

    @Test func `merge exits 0 when every shard passed`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = try shardReports(2, in: folder, extra: ["--filter", "passing.lua"])
        let merged = try stackplay(arguments: ["merge"] + reports)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func `merge: a malformed report names the file; usage errors exit 64`() throws {
        let folder = try temporaryFolder([
            "bad.json":
                "{\"format_version\":1,\"tests\":[{\"file\":\"a.lua\",\"name\":\"t\",\"status\":\"green\"}]}",
            "cut.json": "{\"format_version\":1,\"tes",
            "other.json": "{\"format_version\":2,\"tests\":[]}",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try stackplay(arguments: ["merge", "bad.json"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(
            bad.stderr
                == "stackplay: bad.json: field 'tests[0].status': expected 'passed', 'failed' or 'skipped', got 'green'\n"
        )
        let cut = try stackplay(arguments: ["merge", "cut.json"], in: folder)
        #expect(cut.status == 1)
        #expect(cut.stderr.hasPrefix("stackplay: cut.json: malformed JSON at column"))
        let other = try stackplay(arguments: ["merge", "other.json"], in: folder)
        #expect(
            other.stderr
                == "stackplay: other.json: field 'format_version': unknown version 2 (this stackplay reads 1)\n"
        )
        let none = try stackplay(arguments: ["merge"], in: folder)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("stackplay: merge needs at least one report"))
        let missing = try stackplay(arguments: ["merge", "nope.json"], in: folder)
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("stackplay: no such report: nope.json"))
    }
}
