import StackModel
import TestResults
import Traces
import Wording

/// `--junit FILE`: JUnit XML as CI servers read it: a test suite a script, a test case a test.
/// Every test case's `file` and `line` say where the test is defined, and a failed one's
/// `failure_position` property the `path:line` that failed; an `expect` that did not
/// hold is a `<failure>`, anything else that failed (an error the script raised, a file that does
/// not load, a budget stop, a crash) is an `<error>`, and each names its own `path:line` first.
/// The file is well-formed XML 1.0 whatever the text holds (``JUnitReporter/escape(_:attribute:)``).
struct JUnitReporter: Reporter {
    /// The run's seed, as a property of each suite.
    var seed: Int? = nil
    /// Where ``end(to:)`` writes the report (its folder made first); nil: nowhere (``xml(_:)``).
    var path: String? = nil
    private var results: [TestResult] = []

    init(seed: Int? = nil, path: String? = nil) {
        self.seed = seed
        self.path = path
    }

    mutating func forgetSeed() { seed = nil }

    mutating func finished(_ result: TestResult, to sink: ReportSink) { results.append(result) }

    func end(to sink: ReportSink) -> Bool {
        guard let path else { return true }
        do {
            try ReportOutput(flag: "--junit", path: path, kind: .junit).write(xml(results))
            return true
        } catch {
            sink.err("stackplay: \(error.message)")
            return false
        }
    }

    func xml(_ results: [TestResult]) -> String {
        var files: [String] = []
        var byFile: [ByteKey: [TestResult]] = [:]
        for result in results {
            if byFile[ByteKey(result.test.file)] == nil { files.append(result.test.file) }
            byFile[ByteKey(result.test.file), default: []].append(result)
        }
        let all = Summary(results)
        let allErrors = Self.errors(results)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"stackplay\" tests=\"\(results.count)\" "
                + "failures=\"\(all.failed - allErrors)\" "
                + "errors=\"\(allErrors)\" skipped=\"\(all.skipped)\">",
        ]
        for file in files {
            let suite = byFile[ByteKey(file)]!
            let summary = Summary(suite)
            let errors = Self.errors(suite)
            let time = suite.reduce(0) { $0 + $1.seconds }
            lines.append(
                "  <testsuite name=\"\(escape(file))\" tests=\"\(suite.count)\" "
                    + "failures=\"\(summary.failed - errors)\" "
                    + "errors=\"\(errors)\" skipped=\"\(summary.skipped)\" time=\"\(Self.time(time))\">")
            if let seed {
                lines.append("    <properties><property name=\"seed\" value=\"\(seed)\"/></properties>")
            }
            for result in suite {
                // Where the test is defined, whatever happened to it (a whole script: its line 1).
                let line = result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 1
                let open =
                    "    <testcase classname=\"\(escape(file))\" name=\"\(escape(result.test.name))\" "
                    + "file=\"\(escape(file))\" line=\"\(line)\" time=\"\(Self.time(result.seconds))\""
                let output =
                    result.output.isEmpty ? "" : "\n      <system-out>\(text(result.output))</system-out>"
                // One property an issue (as pytest's record_property writes them): those that
                // failed it, then the known ones (the seeds' findings), which fail nothing.
                let failing = result.status == .failed ? result.auditIssues : []
                let issues =
                    failing.map { ("audit", $0) } + result.knownAuditIssues.map { ("audit_known", $0) }
                var properties: [String] = []
                // The line that failed (the `expect` that did not hold), beside the test's own line.
                let failedAt = result.status == .failed && !result.position.isEmpty ? result.position : nil
                if !issues.isEmpty || failedAt != nil {
                    properties.append("      <properties>")
                    if let failedAt {
                        properties.append(
                            "        <property name=\"failure_position\" value=\"\(escape(failedAt))\"/>")
                    }
                    for (name, issue) in issues {
                        properties.append(
                            "        <property name=\"\(name)\" value=\"\(escape(issue.line))\"/>")
                    }
                    properties.append("      </properties>")
                }
                switch result.status {
                case .passed where !properties.isEmpty:
                    lines.append(open + ">")
                    lines += properties
                    lines.append(
                        output.isEmpty ? "    </testcase>" : String(output.dropFirst()) + "\n    </testcase>")
                case .passed:
                    lines.append(open + (output.isEmpty ? "/>" : ">" + output + "\n    </testcase>"))
                case .skipped where !result.message.isEmpty:
                    lines.append(
                        open + ">\n      <skipped message=\"\(escape(result.message))\"/>\n    </testcase>")
                case .skipped: lines.append(open + ">\n      <skipped/>\n    </testcase>")
                case .failed:
                    let firstLine = result.message.split(separator: "\n").first.map(String.init) ?? ""
                    var body = result.message
                    if !result.dump.isEmpty { body += "\n\nstate when it failed:\n" + result.dump }
                    if !result.traceback.isEmpty { body += "\n\n" + result.traceback }
                    lines.append(open + ">")
                    lines += properties
                    let element = result.kind == .failure ? "failure" : "error"
                    lines.append(
                        "      <\(element) message=\"\(escape(firstLine))\" type=\"\(element)\">"
                            + "\(text(body))</\(element)>"
                            + output)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many of `results` failed with an error rather than an expectation.
    private static func errors(_ results: [TestResult]) -> Int {
        results.count { $0.status == .failed && $0.kind == .error }
    }

    /// A duration as JUnit's `time` holds it: seconds >= 0 (NaN or a negative duration, which no
    /// run measures, is written as 0 rather than `nan`, which is not a number there). A sum past the largest double (two tests of 1e308 s, from merged reports) is that largest
    /// double, never 0: a suite never takes less time than one of its tests.
    static func time(_ seconds: Double) -> String {
        seconds.isNaN || seconds < 0 ? "0.0" : "\(min(seconds, .greatestFiniteMagnitude))"
    }

    /// XML text or an attribute's value, well-formed whatever `text` holds: `& < > "` as entities;
    /// in an attribute tab, newline and carriage return as `&#9;`, `&#10;`, `&#13;` (a parser
    /// turns raw ones into spaces); a character XML 1.0 cannot hold at all (the C0 controls but
    /// tab, newline and carriage return; U+FFFE and U+FFFF) as the text `\u{1B}`, `\u{FFFE}`.
    /// DEL and the C1 controls are legal XML and shown the same way, as the human report does.
    /// A byte of a Lua string that is not UTF-8 is shown as `\xFF` (``RawByte``).
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r":
                if attribute { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            default:
                switch scalar.value {
                case 0..<0x20, 0x7F..<0xA0, 0xFFFE, 0xFFFF:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                case RawByte.scalars: out += RawByte.shown(scalar)!
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private func escape(_ text: String) -> String { Self.escape(text, attribute: true) }
    private func text(_ text: String) -> String { Self.escape(text) }
}
