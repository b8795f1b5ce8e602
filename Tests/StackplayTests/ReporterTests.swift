import Foundation
import Testing

// The reporters, read back as CI reads them: one folder with a passing, a failing and a skipped
// test (report/mixed.lua) and two passing ones (report/passing.lua).

let reportFolder = "\(fixtures)/report"
let mixed = "\(fixtures)/report/mixed.lua"

@Test func humanReportKeepsResultsOnStdoutAndTheFailureOnStderr() throws {
    let run = try stackplay(reportFolder)
    #expect(run.status == 1)
    #expect(
        run.stdout == """
            \(mixed)
              ok   a tap opens the pile
              FAIL a wrong expectation fails
              skip a test not written yet
            \(fixtures)/report/passing.lua
              ok   the wallet selects a tapped card
              ok   the sticky cards scroll
            3 passed, 1 failed, 1 skipped

            """)
    #expect(run.stderr.hasPrefix("stackplay: \(mixed): a wrong expectation fails\n"))
    #expect(!run.stderr.contains("  ok  "))
}

@Test func failureReportHoldsPositionExpectedActualAndTheState() throws {
    let failing = try line(of: "FAILS HERE", in: mixed)
    let run = try stackplay(mixed)
    let lines = run.stderr.split(separator: "\n").map(String.init)
    #expect(lines.contains("\(mixed):\(failing): values differ"))
    #expect(lines.contains("  expected: { \"messages\", \"mail\" }"))
    #expect(lines.contains("    actual: { \"messages\", \"calendar\", \"mail\" }"))
    // Aligned by content (issue 24): the one card more is one `+` line, "mail" is not a change.
    #expect(lines.contains("  + [2]: \"calendar\""))
    #expect(!lines.contains { $0.hasPrefix("  - [") })
    #expect(lines.contains { $0.hasPrefix("  To fix:") })
    // The state dump: the screen, the component's state, and every card's frame.
    #expect(lines.contains("  state when it failed:"))
    #expect(lines.contains { $0.hasPrefix("    screen at t = ") && $0.contains("390 × 844, ltr") })
    #expect(lines.contains("      notification_stack 'notifications' frame x 16 y 180 w 358 h 284"))
    #expect(
        lines.contains {
            $0.hasPrefix("        state: expanded = true, open = true, progress = 1, count = 3")
        })
    #expect(lines.contains("        card messages: x 16 y 234 w 358 h 70 scale 1 opacity 1 z 3"))
    #expect(lines.contains("        card calendar: x 16 y 314 w 358 h 70 scale 1 opacity 1 z 2"))
    #expect(lines.contains("        card mail: x 16 y 394 w 358 h 70 scale 1 opacity 1 z 1"))
    #expect(lines.contains("stack traceback:"))
    #expect(lines.contains { $0.contains("\(mixed):\(failing): in function") })
}

@Test func tapReportParses() throws {
    let run = try stackplay("--tap", reportFolder)
    #expect(run.status == 1)
    #expect(run.stderr == "")
    let tap = try TAP(run.stdout)
    #expect(tap.version == 13)
    #expect(tap.plan == 5)
    #expect(tap.points.count == 5)
    #expect(tap.points.map(\.number) == [1, 2, 3, 4, 5])
    #expect(tap.points.filter(\.ok).count == 4)
    #expect(tap.points.filter { !$0.ok }.map(\.description) == ["\(mixed): a wrong expectation fails"])
    #expect(tap.points.filter(\.skipped).map(\.description) == ["\(mixed): a test not written yet"])
    let failing = try line(of: "FAILS HERE", in: mixed)
    let yaml = try #require(tap.points[1].yaml)
    #expect(yaml["at"] == "\(mixed):\(failing)")
    #expect(yaml["message"]?.hasPrefix("\(mixed):\(failing): values differ\n  expected: ") == true)
    #expect(yaml["state"]?.contains("card calendar: x 16 y 314 w 358 h 70") == true)
    #expect(tap.comments.last == "3 passed, 1 failed, 1 skipped")
}

@Test func tapOfAllPassingExitsZero() throws {
    let run = try stackplay("--tap", "\(fixtures)/report/passing.lua")
    #expect(run.status == 0)
    let tap = try TAP(run.stdout)
    #expect(tap.plan == 2)
    #expect(tap.points.allSatisfy { $0.ok && !$0.skipped && $0.yaml == nil })
}

@Test func junitReportParsesAsXML() throws {
    let folder = try temporaryFolder([:])
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("junit.xml").path
    let run = try stackplay("--junit", file, reportFolder)
    #expect(run.status == 1)
    // The human report still goes to stdout; the XML only to the file.
    #expect(run.stdout.hasSuffix("3 passed, 1 failed, 1 skipped\n"))
    let junit = try JUnit(file: file)
    #expect(
        junit.root == ["name": "stackplay", "tests": "5", "failures": "1", "errors": "0", "skipped": "1"])
    #expect(junit.suites.map { $0["name"] } == [mixed, "\(fixtures)/report/passing.lua"])
    #expect(junit.suites.map { $0["tests"] } == ["3", "2"])
    #expect(junit.suites.map { $0["failures"] } == ["1", "0"])
    #expect(junit.suites.map { $0["skipped"] } == ["1", "0"])
    #expect(junit.cases.count == 5)
    let failing = try line(of: "FAILS HERE", in: mixed)
    let failed = try #require(junit.cases.first { $0.failure != nil })
    #expect(failed.attributes["name"] == "a wrong expectation fails")
    #expect(failed.attributes["file"] == mixed)
    // file and line say where the test is defined, for every test; the failure's own line
    // starts its message.
    #expect(failed.attributes["line"] == String(try line(of: "a wrong expectation fails", in: mixed)))
    #expect(failed.failureMessage == "\(mixed):\(failing): values differ")
    #expect(failed.failure?.contains("  expected: { \"messages\", \"mail\" }") == true)
    #expect(failed.failure?.contains("state when it failed:") == true)
    #expect(failed.failure?.contains("card mail: x 16 y 394 w 358 h 70") == true)
    let skipped = junit.cases.filter(\.skipped).map { $0.attributes["name"] }
    #expect(skipped == ["a test not written yet"])
    // A passing test points at where it is defined.
    let passing = try #require(junit.cases.first { $0.attributes["name"] == "a tap opens the pile" })
    #expect(passing.attributes["line"] == String(try line(of: "a tap opens the pile", in: mixed)))
}

@Test func junitMakesItsFolderAndAWriteErrorGivesTheReason() throws {
    let folder = try temporaryFolder(["a-file": "not a folder\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let made = folder.appendingPathComponent("build/reports/junit.xml").path
    let run = try stackplay("--junit", made, "\(fixtures)/report/passing.lua")
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(try JUnit(file: made).cases.count == 2)

    let blocked = folder.appendingPathComponent("a-file/junit.xml").path
    let failed = try stackplay("--junit", blocked, "\(fixtures)/report/passing.lua")
    #expect(failed.status == 1)
    #expect(failed.stdout.hasSuffix("2 passed, 0 failed\n"))
    #expect(
        failed.stderr == "stackplay: cannot make the folder \(folder.path)/a-file: something else is there\n")
}

@Test func jsonReportParses() throws {
    let run = try stackplay("--json", reportFolder)
    #expect(run.status == 1)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(json["passed"] as? Int == 3)
    #expect(json["failed"] as? Int == 1)
    #expect(json["skipped"] as? Int == 1)
    let tests = try #require(json["tests"] as? [[String: Any]])
    #expect(tests.map { $0["status"] as? String } == ["passed", "failed", "skipped", "passed", "passed"])
    #expect(
        tests.map { $0["file"] as? String } == [mixed, mixed, mixed]
            + Array(repeating: "\(fixtures)/report/passing.lua", count: 2))
    let failed = tests[1]
    let failing = try line(of: "FAILS HERE", in: mixed)
    #expect(failed["name"] as? String == "a wrong expectation fails")
    #expect(failed["failure_position"] as? String == "\(mixed):\(failing)")
    #expect(
        (failed["message"] as? String)?.contains("    actual: { \"messages\", \"calendar\", \"mail\" }")
            == true)
    #expect((failed["dump"] as? String)?.contains("card messages: x 16 y 234 w 358 h 70") == true)
    #expect((failed["traceback"] as? String)?.hasPrefix("stack traceback:") == true)
    #expect(tests.allSatisfy { ($0["seconds"] as? Double).map { $0 >= 0 } == true })
}

@Test func skipOnlyAndHooks() throws {
    let run = try stackplay("\(fixtures)/only.lua", "\(fixtures)/hooks.lua")
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(
        run.stdout == """
            \(fixtures)/only.lua
              skip not focused
              ok   focused
              skip not focused either
            \(fixtures)/hooks.lua
              ok   first
              ok   second starts afresh
            3 passed, 0 failed, 2 skipped

            """)
}

@Test(arguments: [[String](), ["--tap"], ["--json"]])
func noColourWithoutATerminalOrWithNoColor(flags: [String]) throws {
    for environment in [[:], ["NO_COLOR": "1"]] {
        let run = try stackplay(arguments: flags + [reportFolder], environment: environment)
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(run.status == 1)
    }
}

// MARK: Parsing what the reporters print

/// A TAP version 13 stream: the version, the plan, the test points with their YAML blocks.
struct TAP {
    struct Point {
        var ok: Bool
        var number: Int
        var description: String
        var skipped: Bool
        /// The failure's YAML block, as flat `key: "double-quoted scalar"` pairs.
        var yaml: [String: String]?
    }

    var version = 0
    var plan = -1
    var points: [Point] = []
    var comments: [String] = []

    init(_ text: String) throws {
        var inYAML = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if inYAML {
                if line == "  ..." {
                    inYAML = false
                } else if let colon = line.firstIndex(of: ":"), line.hasPrefix("  ") {
                    let key = line[line.index(line.startIndex, offsetBy: 2)..<colon].trimmingCharacters(
                        in: .whitespaces)
                    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    points[points.count - 1].yaml![key] =
                        try JSONSerialization.jsonObject(
                            with: Data(value.utf8), options: .fragmentsAllowed) as? String
                } else {
                    throw FixtureError(message: "a bad YAML line: \(line)")
                }
            } else if line.hasPrefix("TAP version ") {
                version = Int(line.dropFirst(12)) ?? 0
            } else if line.hasPrefix("1..") {
                plan = Int(line.dropFirst(3)) ?? -1
            } else if let match = line.wholeMatch(of: /(not ok|ok) (\d+) - (.*?)( # SKIP)?/) {
                points.append(
                    Point(
                        ok: match.1 == "ok", number: Int(match.2)!, description: String(match.3),
                        skipped: match.4 != nil))
            } else if line == "  ---" {
                guard !points.isEmpty else {
                    throw FixtureError(message: "a YAML block before any test point")
                }
                inYAML = true
                points[points.count - 1].yaml = [:]
            } else if line.hasPrefix("# ") {
                comments.append(String(line.dropFirst(2)))
            } else if !line.isEmpty {
                throw FixtureError(message: "not TAP: \(line)")
            }
        }
    }
}

/// A JUnit XML file read by Python's `xml.etree.ElementTree`, a real XML parser.
struct JUnit {
    struct Case {
        var attributes: [String: String]
        var failure: String?
        var failureMessage: String?
        var skipped: Bool
        /// An `<error>` element's text and message: a script that raised outside an expectation.
        var error: String? = nil
        var errorMessage: String? = nil
    }

    var root: [String: String]
    var suites: [[String: String]]
    var cases: [Case]

    static let script = """
        import json, sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == "testsuites", root.tag
        cases = []
        for case in root.iter("testcase"):
            failure = case.find("failure")
            error = case.find("error")
            cases.append({"attributes": case.attrib, "skipped": case.find("skipped") is not None,
                          "error": None if error is None else error.text,
                          "error_message": None if error is None else error.get("message"),
                          "failure": None if failure is None else failure.text,
                          "failure_message": None if failure is None else failure.get("message")})
        print(json.dumps({"root": root.attrib, "suites": [s.attrib for s in root.findall("testsuite")], "cases": cases}))
        """

    init(file: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, file]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = readToEnd(out.fileHandleForReading)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw FixtureError(message: "\(file) is not JUnit XML that python3 can parse") }
        root = json["root"] as? [String: String] ?? [:]
        suites = json["suites"] as? [[String: String]] ?? []
        cases = (json["cases"] as? [[String: Any]] ?? []).map {
            Case(
                attributes: $0["attributes"] as? [String: String] ?? [:], failure: $0["failure"] as? String,
                failureMessage: $0["failure_message"] as? String, skipped: $0["skipped"] as? Bool ?? false,
                error: $0["error"] as? String, errorMessage: $0["error_message"] as? String)
        }
    }
}
