import Bindings
import Foundation
import TestResults
import Testing

@testable import StackplayRunner

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The machine formats, from results made here: valid, and carrying what the run knows.
@Suite struct ReporterUnitTests {
    static let results: [TestResult] = {
        let a = TestCase(
            file: "a.lua", root: nil, name: "passes", position: "a.lua:1", index: 1, skipped: false)
        let b = TestCase(
            file: "a.lua", root: nil, name: "fails\nwith # and \\", position: "a.lua:2", index: 2,
            skipped: false)
        let c = TestCase(
            file: "b.lua", root: nil, name: "skipped", position: "b.lua:1", index: 1, skipped: true)
        var failed = TestResult(
            test: b, status: .failed, message: "a.lua:3: values differ <&>", traceback: "stack traceback:",
            dump: "screen", position: "a.lua:3", output: "ok 99 - fake\nnot ok\n", seed: 42)
        failed.kind = .failure
        return [
            TestResult(test: a, status: .passed, output: "printed\n", seed: 1), failed,
            TestResult(test: c, status: .skipped),
        ]
    }()

    @Test func `json is one valid document with the seed, the output and the counts`() throws {
        let text = JSONReporter(seed: 7).document(Self.results)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["format_version"] as? Int == 1)
        #expect(document["seed"] as? Int == 7)
        #expect(
            document["passed"] as? Int == 1 && document["failed"] as? Int == 1
                && document["skipped"] as? Int == 1)
        let tests = try #require(document["tests"] as? [[String: Any]])
        #expect(tests[0]["output"] as? String == "printed\n")
        #expect(tests[1]["seed"] as? Int == 42)
        #expect(tests[1]["status"] as? String == "failed")
    }

    @Test func `tap has a plan, one line a test and output as comments`() {
        let lines = TapReporter().document(Self.results).split(separator: "\n").map(String.init)
        #expect(lines[0] == "TAP version 13")
        #expect(lines[1] == "1..3")
        #expect(lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 3)
        #expect(lines.contains("# ok 99 - fake"))
        #expect(lines.contains("# not ok"))
        #expect(lines.contains { $0.hasPrefix("not ok 2 - a.lua: fails\\nwith \\# and \\\\") })
        #expect(lines.last == "# 1 passed, 1 failed, 1 skipped")
    }

    @Test func `junit parses, with suites by file, the seed and system-out`() throws {
        let xml = JUnitReporter(seed: 7).xml(Self.results)
        let document = try XMLDocument(xmlString: xml)
        let suites = try document.nodes(forXPath: "//testsuite")
        #expect(suites.count == 2)
        #expect(try document.nodes(forXPath: "//property[@name='seed'][@value='7']").count == 2)
        #expect(try document.nodes(forXPath: "//failure").count == 1)
        #expect(try document.nodes(forXPath: "//skipped").count == 1)
        #expect(xml.contains("<system-out>printed\n</system-out>"))
    }

    @Test func `the summary line counts each status`() {
        #expect(Summary(Self.results).line == "1 passed, 1 failed, 1 skipped")
        #expect(Summary([]).line == "0 passed, 0 failed")
    }
}
