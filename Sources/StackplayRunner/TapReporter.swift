import StackModel
import TestResults
import Traces

/// TAP version 13 on stdout: a plan, `ok`/`not ok` a test, `# SKIP` for skipped ones, and a
/// YAML block with the message, position and state for each failure.
struct TapReporter: Reporter {
    private var number = 0
    private var summary = Summary([])

    init(repeats: Int = 1) { summary.repeats = repeats }

    func start(count: Int, to sink: ReportSink) {
        sink.out("TAP version 13")
        sink.out("1..\(count)")
    }

    mutating func finished(_ result: TestResult, to sink: ReportSink) {
        number += 1
        summary.add(result.status)
        let name = Self.escape(result.test.fullName)
        switch result.status {
        case .passed where !result.knownAuditIssues.isEmpty:
            sink.out("ok \(number) - \(name)")
            sink.out("  ---")
            audit(result.knownAuditIssues, key: "audit_known").forEach(sink.out)
            sink.out("  ...")
        case .passed: sink.out("ok \(number) - \(name)")
        case .skipped where !result.message.isEmpty:
            let reason =
                result.message.hasPrefix("skipped: ") ? String(result.message.dropFirst(9)) : result.message
            sink.out("ok \(number) - \(name) # SKIP \(Self.escape(reason))")
        case .skipped: sink.out("ok \(number) - \(name) # SKIP")
        case .failed:
            sink.out("not ok \(number) - \(name)")
            sink.out("  ---")
            sink.out("  message: \(Self.yaml(result.message))")
            sink.out("  at: \(Self.yaml(result.position.isEmpty ? result.test.position : result.position))")
            if !result.dump.isEmpty { sink.out("  state: \(Self.yaml(result.dump))") }
            if !result.auditIssues.isEmpty { audit(result.auditIssues).forEach(sink.out) }
            if !result.knownAuditIssues.isEmpty {
                audit(result.knownAuditIssues, key: "audit_known").forEach(sink.out)
            }
            sink.out("  ...")
        }
        comments(result.output).forEach(sink.out)
    }

    func end(to sink: ReportSink) -> Bool {
        sink.out("# \(summary.line)")
        return true
    }

    /// A test's name on its `ok` line: one line, `#` escaped so that it does not start a
    /// directive, backslashes, newlines, carriage returns and tabs as `\\`, `\n`, `\r`, `\t`, other
    /// control characters as `\u{1B}` (``terminalSafe(_:newlines:)``).
    static func escape(_ name: String) -> String {
        var out = ""
        for character in name.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(character)
            }
        }
        return terminalSafe(out)
    }

    /// A test's printed output as TAP comments, after its line: `# text`.
    private func comments(_ output: String) -> [String] {
        outputLines(output).map { "# " + terminalSafe($0) }
    }

    /// The accessibility issues that failed a test, as a YAML list of maps: each issue's record
    /// (its `Codable` encoding, the fields `--json` has, in their order).
    private func audit(_ issues: [AuditIssue], key: String = "audit") -> [String] {
        ["  \(key):"]
            + issues.flatMap { issue -> [String] in
                guard case .object(let fields) = JSONValueEncoder().json(issue) else { return [] }
                return fields.enumerated().map { index, field in
                    (index == 0 ? "    - " : "      ") + field.0 + ": " + Self.yaml(field.1)
                }
            }
    }

    /// A value in YAML's flow style: strings double-quoted, numbers as the reports write them.
    static func yaml(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): yaml(text)
        case .number(let number): formatNumber(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array(let items): "[" + items.map(yaml).joined(separator: ", ") + "]"
        case .object(let fields):
            "{ " + fields.map { "\($0.0): \(yaml($0.1))" }.joined(separator: ", ") + " }"
        }
    }

    /// A YAML double-quoted scalar: JSON's escapes, and `\uXXXX` for what YAML may not hold raw
    /// or reads as a line break (DEL, C1 controls, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF).
    static func yaml(_ text: String) -> String {
        let quoted = jsonString(text)
        func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x7F..<0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
        guard quoted.unicodeScalars.contains(where: isUnsafe) else { return quoted }
        var out = ""
        for scalar in quoted.unicodeScalars {
            if isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
