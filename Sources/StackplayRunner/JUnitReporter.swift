import Bindings
import TestResults
import Traces

/// `--junit FILE`: JUnit XML as CI servers read it: a test suite a script, a test case a test.
/// Every test case's `file` and `line` say where the test is defined; an `expect` that did not
/// hold is a `<failure>`, anything else that failed (an error the script raised, a file that does
/// not load, a budget stop, a crash) is an `<error>`, and each names its own `path:line` first.
struct JUnitReporter {
    /// The run's seed, as a property of each suite.
    var seed: Int? = nil

    func xml(_ results: [TestResult]) -> String {
        var files: [String] = []
        var byFile: [String: [TestResult]] = [:]
        for result in results {
            if byFile[result.test.file] == nil { files.append(result.test.file) }
            byFile[result.test.file, default: []].append(result)
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
            let suite = byFile[file]!
            let summary = Summary(suite)
            let errors = Self.errors(suite)
            let time = suite.reduce(0) { $0 + $1.seconds }
            lines.append(
                "  <testsuite name=\"\(escape(file))\" tests=\"\(suite.count)\" "
                    + "failures=\"\(summary.failed - errors)\" "
                    + "errors=\"\(errors)\" skipped=\"\(summary.skipped)\" time=\"\(time)\">")
            if let seed {
                lines.append("    <properties><property name=\"seed\" value=\"\(seed)\"/></properties>")
            }
            for result in suite {
                // Where the test is defined, whatever happened to it (a whole script: its line 1).
                let line = result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 1
                let open =
                    "    <testcase classname=\"\(escape(file))\" name=\"\(escape(result.test.name))\" "
                    + "file=\"\(escape(file))\" line=\"\(line)\" time=\"\(result.seconds)\""
                let output =
                    result.output.isEmpty ? "" : "\n      <system-out>\(escape(result.output))</system-out>"
                switch result.status {
                case .passed: lines.append(open + (output.isEmpty ? "/>" : ">" + output + "\n    </testcase>"))
                case .skipped: lines.append(open + ">\n      <skipped/>\n    </testcase>")
                case .failed:
                    let firstLine = result.message.split(separator: "\n").first.map(String.init) ?? ""
                    var body = result.message
                    if !result.dump.isEmpty { body += "\n\nstate when it failed:\n" + result.dump }
                    if !result.traceback.isEmpty { body += "\n\n" + result.traceback }
                    lines.append(open + ">")
                    if !result.auditIssues.isEmpty {
                        // One property an issue (as pytest's record_property writes them).
                        lines.append("      <properties>")
                        for issue in result.auditIssues {
                            lines.append("        <property name=\"audit\" value=\"\(escape(issue.line))\"/>")
                        }
                        lines.append("      </properties>")
                    }
                    let element = result.kind == .failure ? "failure" : "error"
                    lines.append(
                        "      <\(element) message=\"\(escape(firstLine))\" type=\"\(element)\">"
                            + "\(escape(body))</\(element)>"
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

    /// Writes the report to `path`, making its folder first (`junit = "build/junit.xml"`).
    static func write(_ results: [TestResult], seed: Int?, to path: String) throws(TraceFile.Failure) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try TraceFile.makeDirectory(String(path[..<slash]))
        }
        try TraceFile.write(JUnitReporter(seed: seed).xml(results), to: path)
    }

    /// XML text and attribute escaping, shared with the SVG pictures.
    private func escape(_ text: String) -> String { TraceSVG.escape(text) }
}
