import Bindings
import StackModel
import TestResults

/// TAP version 13 on stdout: a plan, `ok`/`not ok` a test, `# SKIP` for skipped ones, and a
/// YAML block with the message, position and state for each failure.
struct TapReporter {
    func report(_ results: [TestResult]) { Output.out(document(results)) }

    /// The whole TAP stream.
    func document(_ results: [TestResult]) -> String {
        var lines = ["TAP version 13", "1..\(results.count)"]
        for (number, result) in results.enumerated() {
            let name = Self.escape(result.test.fullName)
            defer { lines += comments(result.output) }
            switch result.status {
            case .passed: lines.append("ok \(number + 1) - \(name)")
            case .skipped: lines.append("ok \(number + 1) - \(name) # SKIP")
            case .failed:
                lines.append("not ok \(number + 1) - \(name)")
                lines.append("  ---")
                lines.append("  message: \(yaml(result.message))")
                lines.append(
                    "  at: \(yaml(result.position.isEmpty ? result.test.position : result.position))")
                if !result.dump.isEmpty { lines.append("  state: \(yaml(result.dump))") }
                if !result.auditIssues.isEmpty { lines += audit(result.auditIssues) }
                lines.append("  ...")
            }
        }
        lines.append("# \(Summary(results).line)")
        return lines.joined(separator: "\n")
    }

    /// A test's name on its `ok` line: one line, `#` escaped so that it does not start a
    /// directive, backslashes, newlines, carriage returns and tabs as `\\`, `\n`, `\r`, `\t`.
    static func escape(_ name: String) -> String {
        var out = ""
        for character in name.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A test's printed output as TAP comments, after its line: `# text`.
    private func comments(_ output: String) -> [String] {
        outputLines(output).map { "# " + $0.replacing("\r", with: "\\r") }
    }

    /// The accessibility issues that failed a test, as a YAML list of maps.
    private func audit(_ issues: [AuditIssue]) -> [String] {
        ["  audit:"]
            + issues.flatMap { issue in
                [
                    "    - type: \(yaml(issue.type.rawValue))", "      rule: \(yaml(issue.rule))",
                    "      component: \(yaml(issue.component))", "      kind: \(yaml(issue.kind.rawValue))",
                    "      element: \(yaml(issue.element))",
                    "      frame: { x: \(formatNumber(issue.frame.x)), y: \(formatNumber(issue.frame.y)), "
                        + "width: \(formatNumber(issue.frame.width)), height: \(formatNumber(issue.frame.height)) }",
                    "      compact: \(yaml(issue.compact))", "      detail: \(yaml(issue.detail))",
                    "      time: \(formatNumber(issue.time))",
                ]
            }
    }

    /// A YAML double-quoted scalar.
    private func yaml(_ text: String) -> String { jsonString(text) }
}
