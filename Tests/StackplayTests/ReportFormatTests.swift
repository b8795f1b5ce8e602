import Foundation
import Testing

/// The report formats' details: numbers in their shortest form, JUnit failures and errors, JSON's version, TAP names, replay's wording.
@Suite struct ReportFormatTests {

    @Test func numbersPrintInTheirShortestRoundTripForm() throws {
        let run = try runScript("expect({ 0.78181818181818186, 0.1 + 0.2 }):to_equal { 1, 2 }\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("    actual: { 0.7818181818181819, 0.30000000000000004 }\n"))
        #expect(run.stderr.contains("  + [1]: 0.7818181818181819\n"))
        #expect(!run.stderr.contains("0.78181818181818186"))
    }

    /// Three tests: one passes, one fails an expectation, one raises.
    let kindsScript = """
        test("passes", function() end)
        test("fails", function() expect({ 1, 2 }):to_equal { 1, 3 } end)
        test("raises", function()
          error("boom")
        end)
        test("line\\nbreak # hash", function() end)

        """

    @Test func junitFilesErrorsAndFailuresApartWithTheTestsLine() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--junit", "j.xml", "x.lua"], in: folder)
        #expect(run.status == 1)
        let junit = try JUnit(file: folder.appendingPathComponent("j.xml").path)
        #expect(junit.root["failures"] == "1")
        #expect(junit.root["errors"] == "1")
        #expect(junit.suites.first?["errors"] == "1")
        let cases = Dictionary(uniqueKeysWithValues: junit.cases.map { ($0.attributes["name"] ?? "", $0) })
        #expect(cases["fails"]?.failureMessage == "x.lua:2: values differ")
        #expect(cases["fails"]?.error == nil)
        #expect(cases["raises"]?.errorMessage == "x.lua:4: boom")
        #expect(cases["raises"]?.failure == nil)
        // Every test case's line is where the test is defined, whatever happened to it.
        #expect(junit.cases.map { $0.attributes["line"] } == ["1", "2", "3", "6"])
        #expect(junit.cases.allSatisfy { $0.attributes["file"] == "x.lua" })
    }

    @Test func jsonHasAFormatVersionAndStructuredSides() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--json", "x.lua"], in: folder)
        #expect(run.status == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["format_version"] as? Int == 1)
        let tests = try #require(json["tests"] as? [[String: Any]])
        #expect(tests[0]["kind"] is NSNull)
        #expect(tests[1]["kind"] as? String == "failure")
        #expect(tests[1]["expected"] as? String == "{ 1, 3 }")
        #expect(tests[1]["actual"] as? String == "{ 1, 2 }")
        #expect(tests[1]["diff"] as? String == "  - [2]: 3\n  + [2]: 2")
        #expect(tests[2]["kind"] as? String == "error")
        #expect(tests[2]["expected"] is NSNull)
        #expect(tests[3]["name"] as? String == "line\nbreak # hash")
    }

    @Test func tapNamesStayOnOneLine() throws {
        let folder = try temporaryFolder(["x.lua": kindsScript])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--tap", "x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\nok 4 - x.lua: line\\nbreak \\# hash\n"))
        _ = try TAP(run.stdout)
    }

    @Test func replayCountsOneEventInTheSingular() throws {
        let folder = try temporaryFolder([
            "x.lua": "local s = stackplay.screen {}\ns:wallet_card_stack { items = { 'a' } }\ns:advance(1)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["--trace", "t", "x.lua"], in: folder).status == 0)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("t").path).first
        )
        let run = try stackplay(arguments: ["replay", "t/\(trace)"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "ok   t/\(trace) (1 event)\n1 replayed, 0 failed\n")
    }
}
