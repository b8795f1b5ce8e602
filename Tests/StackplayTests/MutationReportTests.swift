import Foundation
import Testing

/// `stackplay mutate`, round two (issue 41): Stryker's statuses and score, shards merged, increments
/// and the report page, through the binary on a two-file suite and a few mutants (each mutant's
/// run is a process: the suites stay small).
@Suite struct MutationReportTests {
    static let mutants = "N13.strict,N13.threshold+,N13.threshold-,N15.hint,S3.floor+"

    /// `a.lua` kills `N13.strict` and `N13.threshold-` (a card let go at exactly 110 pt springs
    /// back), `b.lua` kills `N13.threshold+` (one let go at 120 pt leaves); nothing reads the
    /// closed hint (`N15.hint`: not covered); `S3.floor+` is a documented equivalent.
    static func suite() throws -> URL {
        try temporaryFolder([
            "a.lua": MutateTests.script(
                "exactly 110 pt springs back",
                """
                  stack:drag("calendar", { x = -110 }); screen:settle()
                  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
                """),
            "b.lua": MutateTests.script(
                "120 pt clears the card",
                """
                  stack:drag("calendar", { x = -120 }); screen:settle()
                  expect(stack:ids()):to_equal { "messages", "mail" }
                """),
        ])
    }

    /// Validates each report against Stryker's schema and prints, for each, its score worked out
    /// from the statuses as Stryker's viewer does (detected / valid) and the statuses by id.
    static let check = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        for path in sys.argv[2:]:
            report = json.load(open(path))
            jsonschema.validate(report, schema)
            mutants = sorted((m["id"], m["status"]) for f in report["files"].values() for m in f["mutants"])
            detected = sum(1 for _, s in mutants if s in ("Killed", "Timeout"))
            valid = detected + sum(1 for _, s in mutants if s in ("Survived", "NoCoverage"))
            score = round(detected / valid * 100, 1) if valid else 100
            assert round(report["stackplay"]["mutationScore"], 1) == score, (report["stackplay"], score)
            for f in report["files"].values():
                for m in f["mutants"]:
                    assert m["replacement"] and "//" in m["replacement"], m
            print(path.split("/")[-1], "%g" % score, " ".join("%s=%s" % pair for pair in mutants))
        """

    static func validated(_ paths: [String]) throws -> [String] {
        let (said, status) = try python(
            check, [packageRoot.appendingPathComponent(MutateTests.schema).path] + paths)
        #expect(status == 0, "\(said)")
        return said.split(separator: "\n").map(String.init)
    }

    /// The text report's score line, without the seconds and jobs that differ between runs.
    static func scoreLine(_ stdout: String) -> String {
        let line =
            stdout.split(separator: "\n").first { $0.hasPrefix("mutation score: ") }.map(String.init) ?? ""
        return line.components(separatedBy: " test").first ?? line
    }

    @Test func strykersStatusesAndScoreAreTheSameInTheTextAndTheJSON() throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["mutate", ".", "--mutants", Self.mutants, "--json=report.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(
            run.stdout.contains(
                "killed    N13.strict      by ./a.lua: exactly 110 pt springs back at ./a.lua:8"))
        #expect(
            run.stdout.contains("killed    N13.threshold+  by ./b.lua: 120 pt clears the card at ./b.lua:8"))
        #expect(run.stdout.contains("UNCOVERED N15.hint        no test reached it: the closed stack's hint"))
        #expect(
            run.stdout.contains("ignored   S3.floor+       equivalent: the scale is max("), "\(run.stdout)")
        // 3 detected of 4 valid (the ignored equivalent is in no score).
        #expect(
            run.stdout.contains(
                "mutation score: 75% (5 mutants: 3 killed, 0 survived, 1 not covered, 0 timed out, "
                    + "0 runtime errors, 1 ignored; 3 detected of 4 valid; 2 tests;"),
            "\(run.stdout)")
        let said = try Self.validated([folder.appendingPathComponent("report.json").path])
        #expect(
            said == [
                "report.json 75 N13.strict=Killed N13.threshold+=Killed N13.threshold-=Killed "
                    + "N15.hint=NoCoverage S3.floor+=Ignored"
            ])
        let json = try String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        // projectRoot is the folder the run is about, not the build tree.
        let root = try #require(report["projectRoot"] as? String)
        #expect(
            URL(fileURLWithPath: root).resolvingSymlinksInPath().path
                == folder.resolvingSymlinksInPath().path,
            "\(root)")
        let files = try #require(report["files"] as? [String: [String: Any]])
        let mutants = files.values.flatMap { ($0["mutants"] as? [[String: Any]]) ?? [] }
        let threshold = try #require(mutants.first { $0["id"] as? String == "N13.threshold+" })
        #expect(
            threshold["replacement"] as? String
                == "swipeThreshold = 140  // a card leaves past 140 pt, not 110")
        #expect(threshold["killedBy"] as? [String] == ["./b.lua: 120 pt clears the card"])
        let floor = try #require(mutants.first { $0["id"] as? String == "S3.floor+" })
        #expect((floor["statusReason"] as? String)?.hasPrefix("equivalent: ") == true)
        // --include-equivalent runs it: no sticky cards here, so no test reaches it.
        let included = try stackplay(
            arguments: ["mutate", ".", "--mutants", "S3.floor+", "--include-equivalent"], in: folder)
        #expect(included.status == 0, "\(included.stderr)")
        #expect(included.stdout.contains("UNCOVERED S3.floor+"), "\(included.stdout)")
    }

    @Test func shardsMergedEqualTheWholeRun() throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try stackplay(
            arguments: ["mutate", ".", "--mutants", Self.mutants, "--json=whole.json"], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        var shardLines: [String] = []
        for k in 1...3 {
            let shard = try stackplay(
                arguments: [
                    "mutate", ".", "--mutants", Self.mutants, "--shard", "\(k)/3", "--json=\(k).json",
                ],
                in: folder)
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(shard.stdout.contains("; shard \(k)/3)"), "\(shard.stdout)")
            shardLines.append(Self.scoreLine(shard.stdout))
        }
        // Each shard holds its own mutants, together all of them.
        #expect(shardLines.contains { $0.contains("(2 mutants") })
        #expect(shardLines.contains { $0.contains("(1 mutants") })
        let merged = try stackplay(
            arguments: ["merge", "3.json", "1.json", "2.json", "--json=merged.json"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(Self.scoreLine(merged.stdout) == Self.scoreLine(whole.stdout), "\(merged.stdout)")
        let body = { (text: String) in
            text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.joined(
                separator: "\n")
        }
        #expect(body(merged.stdout) == body(whole.stdout))
        let said = try Self.validated(
            ["whole.json", "merged.json"].map { folder.appendingPathComponent($0).path })
        #expect(said.count == 2)
        #expect(said.first?.dropFirst("whole.json".count) == said.last?.dropFirst("merged.json".count))
        // A shard missing, or given twice, is said, naming the files.
        let missing = try stackplay(arguments: ["merge", "1.json", "2.json"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr.contains("shard 3/3 is missing"), "\(missing.stderr)")
        let twice = try stackplay(arguments: ["merge", "1.json", "whole.json"], in: folder)
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("is in both 1.json and whole.json"), "\(twice.stderr)")
        let badShard = try stackplay(arguments: ["mutate", ".", "--shard", "4/3"], in: folder)
        #expect(badShard.status == 64)
        #expect(badShard.stderr.contains("--shard"), "\(badShard.stderr)")
        // A run's --json report merges as before, and has no mutation page.
        let run = try stackplay(arguments: [".", "--json=run.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try stackplay(arguments: ["merge", "run.json", "--html", "page.html"], in: folder)
        #expect(page.status == 64)
        #expect(page.stderr.contains("--html writes a mutation report's page"), "\(page.stderr)")
    }

    @Test func anIncrementalRunReRunsOnlyWhatTheTouchedFileKilled() throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "mutate", ".", "--mutants", Self.mutants, "--incremental", "r.json", "--json=r.json",
        ]
        let first = try stackplay(arguments: arguments, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("incremental: 0 of 5 verdicts reused from r.json (none yet), 4 mutants run")
        )
        let same = try stackplay(arguments: arguments, in: folder)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(
            same.stdout.contains("incremental: 4 of 5 verdicts reused from r.json, 0 mutants run"),
            "\(same.stdout)")
        #expect(Self.scoreLine(same.stdout) == Self.scoreLine(first.stdout))
        // b.lua edited: what it killed runs again, and the mutant no test reached (a changed file
        // may reach it now); a.lua's kills are kept.
        let b = folder.appendingPathComponent("b.lua")
        try (String(contentsOf: b, encoding: .utf8) + "-- touched\n").write(
            to: b, atomically: true, encoding: .utf8)
        let touched = try stackplay(arguments: arguments, in: folder)
        #expect(touched.status == 0, "\(touched.stderr)")
        #expect(
            touched.stdout.contains("incremental: 2 of 5 verdicts reused from r.json, 2 mutants run"),
            "\(touched.stdout)")
        #expect(
            touched.stdout.contains(
                "N13.strict      by ./a.lua: exactly 110 pt springs back at ./a.lua:8 (reused)"))
        #expect(
            touched.stdout.contains(
                "N13.threshold-  by ./a.lua: exactly 110 pt springs back at ./a.lua:8 (reused)"))
        #expect(touched.stdout.contains("N13.threshold+  by ./b.lua: 120 pt clears the card at ./b.lua:8\n"))
        #expect(Self.scoreLine(touched.stdout) == Self.scoreLine(first.stdout))
        let said = try Self.validated([folder.appendingPathComponent("r.json").path])
        #expect(said.first?.contains("N13.threshold+=Killed") == true)
        // Other run flags: nothing is reused.
        let filtered = try stackplay(arguments: arguments + ["--filter", "110"], in: folder)
        #expect(filtered.stdout.contains("incremental: 0 of 5 verdicts reused"), "\(filtered.stdout)")
        // A file that is not a mutation report is a usage error naming the flag.
        try "{}".write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try stackplay(arguments: ["mutate", ".", "--incremental", "bad.json"], in: folder)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--incremental: bad.json: field 'schemaVersion'"), "\(bad.stderr)")
    }

    @Test func theHTMLPageGroupsBySpecAndLinksEachKillToItsTrace() throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: [
                "mutate", ".", "--mutants", Self.mutants, "--html", "page.html", "--artifacts", "out",
            ],
            in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("stackplay: wrote out/mutation.html"))
        let page = try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script src") && !page.contains("<link "))
        for spec in ["N13", "N15", "S3"] { #expect(page.contains("<section id=\"\(spec)\">")) }
        #expect(
            page.contains("href=\"out/mutants/N13.strict/report.html#test=.%2Fa.lua%3A%20exactly"), "\(page)")
        #expect(page.contains("<code>closedHint = &quot;Shows all&quot;</code>"))
        let trace = folder.appendingPathComponent("out/mutants/N13.strict/report.html")
        #expect(try String(contentsOf: trace, encoding: .utf8).contains("exactly 110 pt springs back"))
        // A run no test failed in leaves no page of passes behind.
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("out/mutants/N15.hint").path))
        let beside = try String(
            contentsOf: folder.appendingPathComponent("out/mutation.html"), encoding: .utf8)
        #expect(beside.contains("href=\"mutants/N13.strict/report.html#test="))
        // A page is never written over a script.
        let refused = try stackplay(arguments: ["mutate", ".", "--html", "a.lua"], in: folder)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--html"), "\(refused.stderr)")
    }
}
