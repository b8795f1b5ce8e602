import Foundation
import StackModel
import TestResults
import Testing
import Traces

@testable import StackplayRunner
@testable import Workers

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One record model: the wire and `--json` are the same `Codable` encoding, and `merge` reads
/// back what `--json` wrote.
@Suite struct RecordModelTests {
    static let issue = AuditIssue(
        type: .hitRegion, rule: "too_small", component: "wallet", kind: ComponentKind("wallet_card_stack"),
        element: "card:a", frame: Rect(x: .nan, y: 1, width: .infinity, height: 14), compact: "small",
        detail: "under 44 pt", time: 0.5)

    @Test func `the wire carries every field, a NaN frame and the known audit issues included`() throws {
        var result = ReporterUnitTests.results[1]
        result.auditIssues = [Self.issue]
        var known = Self.issue
        known.frame = Rect(x: 2, y: 3, width: 4, height: 5)
        result.knownAuditIssues = [known]
        result.picture = "<svg/>"
        result.test = result.test.under(try ScreenVariant(validating: [("layout_direction", "rtl")]))
        result.test.root = "scripts"
        var writer = WireWriter()
        writer.result(result)
        var reader = WireReader(writer.bytes)
        let decoded = reader.result()
        var back = try #require(decoded)
        #expect(back.auditIssues[0].frame.x.isNaN && back.auditIssues[0].frame.width == .infinity)
        back.auditIssues = result.auditIssues  // NaN is never equal to itself
        #expect(back == result)
    }

    @Test func `merge reads back every result --json wrote`() throws {
        var results = ReporterUnitTests.results
        results[1].auditIssues = [Self.issue]
        results[1].expected = "4"
        results[1].actual = "3"
        results[0].traces = ["{\"stackplay\":\"x\"}\n"]
        let document = JSONReporter(seed: 7).document(results)
        let read = try Merge.read(document, path: "r.json")
        #expect(read.seed == 7)
        #expect(read.results.count == results.count)
        for (back, original) in zip(read.results, results) {
            #expect(back.test.fullName == original.test.fullName && back.test.tags == original.test.tags)
            #expect(back.test.skipped == original.test.skipped && back.status == original.status)
            #expect(
                back.message == original.message && back.output == original.output
                    && back.seed == original.seed)
            #expect(
                back.traces == original.traces && back.expected == original.expected
                    && back.dump == original.dump)
            #expect(back.kind == original.kind || original.status != .failed)
            #expect(back.auditIssues.map(\.line) == original.auditIssues.map(\.line))
        }
    }

    @Test func `merge names every test's wrongly typed field and coerces none`() {
        let report = """
            {"format_version":1,"seed":1.5,"tests":[
            {"file":"a.lua","name":"t1","position":"a.lua:1","status":"passed","seconds":"1"},
            {"file":"a.lua","name":"t2","position":"a.lua:2","status":"passed","seconds":1,"tags":["x",3]},
            {"file":"a.lua","name":"t3","position":"a.lua:3","status":"failed","seconds":1,"audit":[{"type":"trait"}]},
            {"file":"a.lua","name":"t4","position":"a.lua:4","status":"passed","seconds":1,"seed":"9"},
            {"file":"a.lua","name":"t5","position":"a.lua:5","status":"passed","seconds":-1},
            {"file":"a.lua","name":"t6","position":"a.lua:6","status":"failed","seconds":0,"kind":"oops"}]}
            """
        do {
            _ = try Merge.read(report, path: "r.json")
            Issue.record("read")
        } catch {
            #expect(
                error.description.split(separator: "\n") == [
                    "r.json: field 'seed': expected a whole number, got 1.5",
                    "stackplay: r.json: field 'tests[0].seconds': expected a number, got string",
                    "stackplay: r.json: field 'tests[1].tags[1]': expected a string, got number",
                    "stackplay: r.json: field 'tests[2].audit[0].rule': missing",
                    "stackplay: r.json: field 'tests[3].seed': expected a number, got string",
                    "stackplay: r.json: field 'tests[4].seconds': expected a duration in seconds >= 0, got -1.0",
                    "stackplay: r.json: field 'tests[5].kind': expected 'failure' or 'error', got 'oops'",
                ])
        }
    }
}

/// Every report parses, and the human one is terminal-safe, whatever a name, message or output holds.
@Suite struct HostileTextReportTests {
    static let hostile =
        "a\u{FFFE}b\u{FFFF}c\u{1B}[31md\re\u{0}f\u{7F}g\u{85}h\u{9B}i\u{2028}j\u{FFFD}k\nok 9 - forged"

    static var results: [TestResult] {
        let test = TestCase(
            file: "h\u{1B}.lua", root: nil, name: hostile, position: "h.lua:1", index: 1, skipped: false,
            tags: [hostile])
        var failed = TestResult(
            test: test, status: .failed, message: hostile, traceback: hostile, dump: hostile,
            position: "h.lua:2",
            seconds: .infinity, output: hostile + "\n", seed: 1)
        failed.auditIssues = [
            AuditIssue(
                type: .trait, rule: hostile, component: hostile, kind: ComponentKind(hostile),
                element: hostile,
                frame: Rect(x: .nan, y: 0, width: 1, height: 1), compact: hostile, detail: hostile, time: 0)
        ]
        var passed = TestResult(test: test, status: .passed, output: hostile, seed: 2)
        passed.test.name = "second " + hostile
        return [failed, passed]
    }

    @Test func `junit is well-formed, forbidden characters shown as escapes, no inf`() throws {
        let xml = JUnitReporter(seed: 1).xml(Self.results)
        let document = try XMLDocument(xmlString: xml)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 2)
        let name = try #require((cases[0] as? XMLElement)?.attribute(forName: "name")?.stringValue)
        #expect(
            name
                == "a\\u{FFFE}b\\u{FFFF}c\\u{1B}[31md\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\u{2028}j\u{FFFD}k\nok 9 - forged"
        )
        #expect(!xml.contains("time=\"inf") && !xml.contains("time=\"nan") && xml.contains("time=\"0.0\""))
    }

    @Test func `tap's YAML escapes what YAML cannot hold raw, and a name forges no line`() {
        let tap = TapReporter().document(Self.results)
        let lines = tap.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 2)
        let start = lines.firstIndex(of: "  ---")!
        let yaml = lines[start...lines.firstIndex(of: "  ...")!].joined(separator: "\n")
        for scalar in [
            "\u{FFFE}", "\u{FFFF}", "\u{1B}", "\r", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}",
        ] {
            #expect(!yaml.contains(scalar), "raw \(scalar.unicodeScalars.first!.value) in TAP's YAML")
        }
        for scalar in ["\u{1B}", "\r", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}"] {
            #expect(!tap.contains(scalar), "raw \(scalar.unicodeScalars.first!.value) in TAP")
        }
        #expect(
            tap.contains(#"  message: "a\uFFFEb\uFFFFc\u001b[31md\re\u0000f\u007Fg\u0085h\u009Bi\u2028j"#))
        #expect(tap.contains("frame: { x: \"nan\", y: 0, width: 1, height: 1 }"))
    }

    @Test func `the human report shows control characters escaped, one line a test`() {
        let (out, err) = HumanReporter(colours: false).render(Self.results)
        #expect(
            out.split(separator: "\n").map(String.init) == [
                "h\\u{1B}.lua",
                "  FAIL a\u{FFFE}b\u{FFFF}c\\u{1B}[31md\\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\\u{2028}j\u{FFFD}k\\nok 9 - forged",
                "      | a\u{FFFE}b\u{FFFF}c\\u{1B}[31md\\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\\u{2028}j\u{FFFD}k",
                "      | ok 9 - forged",
                "  ok   second a\u{FFFE}b\u{FFFF}c\\u{1B}[31md\\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\\u{2028}j\u{FFFD}k\\nok 9 - forged",
                "      | a\u{FFFE}b\u{FFFF}c\\u{1B}[31md\\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\\u{2028}j\u{FFFD}k",
                "      | ok 9 - forged",
                "1 passed, 1 failed",
            ])
        for scalar in ["\u{1B}", "\r", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}"] {
            #expect(!out.contains(scalar) && !err.contains(scalar))
        }
    }

    @Test func `json holds the text exactly and parses`() throws {
        let text = JSONReporter(seed: 1).document(Self.results)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        #expect(tests[0]["name"] as? String == Self.hostile)
        #expect(tests[0]["seconds"] as? String == "inf")
    }
}
