import Foundation
import Testing

/// `stackplay mutate` through the binary (issue 25, docs/mutate.md).
@Suite struct MutateTests {
    static let weak = "Tests/StackplayTests/Fixtures/mutate/weak"
    static let schema = "Tests/StackplayTests/Fixtures/mutate/mutation-testing-report-schema.json"

    /// A notification stack opened, with `body` after it, as one test.
    static func script(_ name: String, _ body: String) -> String {
        """
        test("\(name)", function()
          local screen = stackplay.screen { width = 390, height = 844 }
          local stack = screen:notification_stack {
            items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true,
            expanded = true, x = 16, y = 180, width = 358,
          }
        \(body)
        end)

        """
    }

    @Test func aWeakSuiteLetsTheThresholdAndStrictnessMutantsSurvive() throws {
        let run = try stackplay("mutate", Self.weak, "--mutants", "N13.threshold+,N13.threshold-,N13.strict")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        // The swipe goes past the threshold, so the strict compare at exactly -110 is never asked:
        // no test reaches N13.strict (Stryker's NoCoverage).
        #expect(run.stdout.contains("N13: 3 mutants, 0 killed, 2 survived, 1 not covered"))
        for id in ["N13.threshold+", "N13.threshold-"] {
            #expect(run.stdout.contains("SURVIVED  \(id)"), "\(run.stdout)")
        }
        #expect(run.stdout.contains("UNCOVERED N13.strict"), "\(run.stdout)")
        #expect(run.stdout.contains("mutation score: 0% (3 mutants: 0 killed, 2 survived, 1 not covered"))
        #expect(run.stdout.contains("survived: N13.threshold+, N13.threshold-, N13.strict"))
    }

    @Test func `STACKPLAY_MUTANT outside mutate is said on stderr, an unknown one is a usage error`() throws {
        let mutated = try stackplay(arguments: [Self.weak], environment: ["STACKPLAY_MUTANT": "N13.strict"])
        #expect(mutated.status == 0, "\(mutated.stderr)")
        #expect(
            mutated.stderr
                == "stackplay: note: the models run mutant N13.strict (N13: a card let go at exactly -110 leaves "
                + "(offset <= -110 for offset < -110)), since STACKPLAY_MUTANT is set\n")
        let unknown = try stackplay(arguments: [Self.weak], environment: ["STACKPLAY_MUTANT": "N13.bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr.hasPrefix("stackplay: STACKPLAY_MUTANT names no mutant: 'N13.bogus'"))
        let inMutate = try stackplay(
            arguments: ["mutate", Self.weak, "--mutants", "N13.strict"],
            environment: ["STACKPLAY_MUTANT": "N13.strict"])
        #expect(inMutate.status == 64)
        #expect(inMutate.stdout == "")
        #expect(inMutate.stderr.hasPrefix("stackplay: STACKPLAY_MUTANT is set ('N13.strict')"))
        let empty = try stackplay(arguments: [Self.weak], environment: ["STACKPLAY_MUTANT": ""])
        #expect(empty.status == 0 && empty.stderr == "")
    }

    @Test func minScoreFailsTheCommandUnderIt() throws {
        let run = try stackplay("mutate", Self.weak, "--mutants", "N13.strict", "--min-score", "50")
        #expect(run.status == 1)
        #expect(run.stderr.contains("the mutation score 0% is under --min-score 50"))
        let bad = try stackplay("mutate", Self.weak, "--min-score", "101")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--min-score"))
    }

    @Test func aKilledMutantNamesTheTestAndTheLineThatFailed() throws {
        let folder = try temporaryFolder([
            "exact.lua": Self.script(
                "exactly 110 pt springs back",
                """
                  stack:drag("calendar", { x = -110 }); screen:settle()
                  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
                """)
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["mutate", ".", "--mutants", "N13.strict,N13.threshold+"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "killed    N13.strict      by ./exact.lua: exactly 110 pt springs back at ./exact.lua:8"),
            "\(run.stdout)")
        #expect(run.stdout.contains("SURVIVED  N13.threshold+"))
        #expect(run.stdout.contains("mutation score: 50%"))
    }

    @Test func aTestThatErrorsOrHangsUnderAMutantKillsItCountedApart() throws {
        let left = "if #stack:ids() == 2 then"
        let folder = try temporaryFolder([
            "error.lua": Self.script(
                "errors",
                "  stack:drag(\"calendar\", { x = -100 }); screen:settle()\n  \(left) error(\"boom\") end"),
            "hang.lua": Self.script(
                "hangs",
                "  stack:drag(\"mail\", { x = -100 }); screen:settle()\n  \(left) while true do end end"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = try stackplay(
            arguments: ["mutate", "error.lua", "--mutants", "N13.threshold-"], in: folder)
        #expect(errors.status == 0, "\(errors.stderr)")
        #expect(
            errors.stdout.contains("errored   N13.threshold-  by error.lua: errors at error.lua:"),
            "\(errors.stdout)")
        #expect(errors.stdout.contains("0 killed, 0 survived, 0 timed out, 1 runtime errors"))
        let hangs = try stackplay(
            arguments: ["mutate", "hang.lua", "--mutants", "N13.threshold-", "--timeout", "1"], in: folder)
        #expect(hangs.status == 0, "\(hangs.stderr)")
        #expect(hangs.stdout.contains("timed out N13.threshold-"), "\(hangs.stdout)")
        #expect(hangs.stdout.contains("1 timed out, 0 runtime errors"))
        #expect(hangs.stdout.contains("mutation score: 100%"))
    }

    @Test func aSuiteThatFailsUnmutatedIsRefused() throws {
        let folder = try temporaryFolder([
            "bad.lua": "test(\"fails\", function() expect(1):to_equal(2) end)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["mutate", "."], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("stackplay mutate: the suite fails without a mutant (1 failed)"))
        #expect(run.stderr.contains("./bad.lua: fails"))
    }

    @Test func anUnknownMutantIsAUsageErrorWithTheNearestName() throws {
        let run = try stackplay("mutate", Self.weak, "--mutants", "N13.threshhold+")
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(
            run.stderr.contains("no mutant or SPEC id 'N13.threshhold+' (did you mean 'N13.threshold+'?)"))
        let scoped = try stackplay(Self.weak, "--mutants", "N13")
        #expect(scoped.status == 64)
        #expect(scoped.stderr.contains("'--mutants' goes with 'stackplay mutate'"))
    }

    @Test func selectionFlagsApplyAsInARun() throws {
        let folder = try temporaryFolder([
            "two.lua": Self.script(
                "exact",
                "  stack:drag(\"calendar\", { x = -110 }); screen:settle()\n  expect(#stack:ids()):to_equal(3)"
            )
                + Self.script("weak", "  expect(#stack:ids()):to_equal(3)")
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try stackplay(arguments: ["mutate", ".", "--mutants", "N13.strict"], in: folder)
        #expect(all.stdout.contains("killed    N13.strict"), "\(all.stdout)")
        let filtered = try stackplay(
            arguments: ["mutate", ".", "--mutants", "N13.strict", "--filter", "weak"], in: folder)
        #expect(filtered.stdout.contains("UNCOVERED N13.strict"), "\(filtered.stdout)")
        #expect(filtered.stdout.contains("1 test;"))
    }

    @Test func jsonFollowsStrykersSchemaAndJUnitListsSurvivorsAsFailures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackplay-mutate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("mutation.json").path
        let junit = folder.appendingPathComponent("mutation.xml").path
        let run = try stackplay(
            "mutate", Self.weak, "--mutants", "N13,W4", "--json=" + json, "--junit", junit)
        #expect(run.status == 0, "\(run.stderr)")
        let validate = Process()
        validate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        validate.arguments = [
            "python3", "-c",
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); report = json.load(open(sys.argv[2]))
            jsonschema.validate(report, schema)
            mutants = {m["id"]: m for f in report["files"].values() for m in f["mutants"]}
            assert report["schemaVersion"] == "2"
            assert mutants["N13.strict"]["status"] == "NoCoverage", mutants["N13.strict"]
            assert mutants["N13.threshold+"]["status"] == "Survived", mutants["N13.threshold+"]
            assert mutants["W4.tap-selects"]["status"] == "NoCoverage"
            assert mutants["N13.strict"]["description"].startswith("N13: ")
            assert "Sources/StackModel/NotificationStack+Gestures.swift" in report["files"]
            assert "n13Strict" in report["files"]["Sources/StackModel/NotificationStack+Gestures.swift"]["source"]
            assert list(report["testFiles"]) == ["\(Self.weak)/swipe.lua"]
            print("valid", len(mutants))
            """,
            packageRoot.appendingPathComponent(Self.schema).path, json,
        ]
        let pipe = Pipe()
        validate.standardOutput = pipe
        try validate.run()
        validate.waitUntilExit()
        let said = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
        #expect(validate.terminationStatus == 0)
        #expect(said == "valid 8\n")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"8\" failures=\"8\""))
        #expect(xml.contains("N13.strict was reached by no test: a card let go at exactly -110 leaves"))
        #expect(
            xml.contains("N13.threshold+ survived: a card leaves past 140 pt, not 110 [swipeThreshold = 140]")
        )
    }

    @Test func excludedMutantsAreLeftOutAndNamedInOneListTheDocsGive() throws {
        let run = try stackplay(
            "mutate", Self.weak, "--mutants", "N13.strict,N13.threshold+", "--exclude-mutants", "N13.strict")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("N13.strict"))
        #expect(run.stdout.contains("(1 mutants: 0 killed, 1 survived"))
        // The documented equivalents are Ignored by mutate itself: make test needs no list.
        let makefile = try String(contentsOf: packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("mutate scripts --min-score 100\n"))
        let ignored = try stackplay("mutate", Self.weak, "--mutants", "S3,W8")
        let equivalent = ignored.stdout.split(separator: "\n").filter { $0.hasPrefix("  ignored   ") }.map {
            String($0.dropFirst("  ignored   ".count).prefix { $0 != " " })
        }
        #expect(equivalent.count == 5, "\(ignored.stdout)")
        #expect(
            Set(equivalent) == [
                "S3.floor+", "S3.floor-", "S3.floor-clamp", "W8.shadow-room+", "W8.shadow-room-",
            ])
        let docs = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/mutate.md"), encoding: .utf8)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for id in equivalent {
            #expect(docs.contains("`\(id)`"), "docs/mutate.md does not say why \(id) is equivalent")
            #expect(readme.contains("`\(id)`"), "README.md does not name \(id)")
        }
        let list = try stackplay("mutate", Self.weak, "--mutants", "N99")
        #expect(list.status == 64)
        let counted = try stackplay(
            "mutate", Self.weak, "--exclude-mutants", "G5", "--mutants", "G5.tap-strict")
        #expect(counted.stdout.contains("(0 mutants"), "\(counted.stdout)")
    }

    @Test func bailStopsARunAtItsFirstFailedTest() throws {
        let folder = try temporaryFolder([
            "a.lua": "test(\"first\", function() expect(1):to_equal(2) end)\n"
                + "test(\"second\", function() expect(1):to_equal(2) end)\n"
                + "test(\"third\", function() end)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try stackplay(arguments: [".", "--jobs", "1"], in: folder)
        #expect(all.stdout.contains("1 passed, 2 failed"))
        let bailed = try stackplay(arguments: [".", "--jobs", "1", "--bail"], in: folder)
        #expect(bailed.status == 1)
        #expect(bailed.stdout.contains("0 passed, 1 failed"), "\(bailed.stdout)")
        #expect(!bailed.stdout.contains("second"))
    }

    @Test func aMutantNeverRecordsAGoldenTraceAndAGoldenTraceKillsIt() throws {
        let script = """
            test("W6 the wallet opens the same way every time", function()
              local screen = stackplay.screen { record = true }
              local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, y = 0, height = 600 }
              wallet:tap("amex")
              screen:settle()
              expect(screen):to_match_trace("golden/wallet.jsonl")
            end)

            """
        let folder = try temporaryFolder(["wallet.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = folder.appendingPathComponent("golden/wallet.jsonl")
        let run = try stackplayRecording(["mutate", ".", "--mutants", "W6.selection-duration+"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("killed    W6.selection-duration+  by ./wallet.lua: W6"), "\(run.stdout)")
        let recorded = try String(contentsOf: golden, encoding: .utf8)
        try FileManager.default.removeItem(at: golden)
        let plain = try stackplayRecording(["."], in: folder)
        #expect(plain.status == 0)
        #expect(try String(contentsOf: golden, encoding: .utf8) == recorded)
    }

    @Test func suggestWritesTestsThatPassOnTheModelAndKillTheirMutantTheSameEveryTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackplay-suggest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let survivors = "N13.threshold+,N13.threshold-,N13.strict"
        let first = folder.appendingPathComponent("first")
        let run = try stackplay(
            arguments: ["mutate", Self.weak, "--mutants", survivors, "--suggest", first.path], timeout: 900)
        #expect(run.status == 0, "\(run.stderr)")
        var files: [String: String] = [:]
        for id in ["N13.threshold+", "N13.threshold-", "N13.strict"] {
            #expect(run.stdout.contains("suggested: \(first.path)/\(id).lua ("), "\(run.stdout)")
            let text = try String(contentsOf: first.appendingPathComponent("\(id).lua"), encoding: .utf8)
            #expect(
                text.hasPrefix(
                    "-- Written by `stackplay mutate --suggest` (seed 0) for the mutant \(id).\n-- N13: "))
            files[id] = text
        }
        #expect(
            !FileManager.default.fileExists(atPath: first.appendingPathComponent(".suggest-scratch").path))
        // They pass on the real model, and added to the weak suite they kill every survivor.
        let plain = try stackplay(first.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("3 passed, 0 failed"))
        let stronger = try stackplay("mutate", Self.weak, first.path, "--mutants", survivors)
        #expect(stronger.status == 0, "\(stronger.stderr)")
        #expect(
            stronger.stdout.contains("mutation score: 100% (3 mutants: 3 killed, 0 survived"),
            "\(stronger.stdout)")
        // The same seed writes the same files.
        let second = folder.appendingPathComponent("second")
        let again = try stackplay(
            arguments: ["mutate", Self.weak, "--mutants", survivors, "--suggest", second.path], timeout: 900)
        #expect(again.status == 0)
        for (id, text) in files {
            #expect(
                try String(contentsOf: second.appendingPathComponent("\(id).lua"), encoding: .utf8) == text)
        }
    }

    @Test func suggestSaysWhenNoScenarioTellsAMutantApart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stackplay-suggest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: [
                "mutate", Self.weak, "--mutants", "S3.floor+", "--include-equivalent", "--suggest",
                folder.path,
            ], timeout: 900)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "no difference found for S3.floor+ in 3000 steps from 6 screens (possibly equivalent)"),
            "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
