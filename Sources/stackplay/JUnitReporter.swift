import Bindings
import Traces

/// `--junit FILE`: JUnit XML as CI servers read it: a test suite a script, a test case a test,
/// with the file and line of each failure.
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
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"stackplay\" tests=\"\(results.count)\" failures=\"\(all.failed)\" skipped=\"\(all.skipped)\">",
        ]
        for file in files {
            let suite = byFile[file]!
            let summary = Summary(suite)
            let time = suite.reduce(0) { $0 + $1.seconds }
            lines.append(
                "  <testsuite name=\"\(escape(file))\" tests=\"\(suite.count)\" failures=\"\(summary.failed)\" "
                    + "errors=\"0\" skipped=\"\(summary.skipped)\" time=\"\(time)\">")
            if let seed {
                lines.append("    <properties><property name=\"seed\" value=\"\(seed)\"/></properties>")
            }
            for result in suite {
                let line =
                    result.position.split(separator: ":").last.flatMap { Int($0) }
                    ?? result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 0
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
                    lines.append(
                        "      <failure message=\"\(escape(firstLine))\" type=\"failure\">\(escape(body))</failure>"
                            + output)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// XML text and attribute escaping, shared with the SVG pictures.
    private func escape(_ text: String) -> String { TraceSVG.escape(text) }
}
