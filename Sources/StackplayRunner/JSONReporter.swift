import Bindings
import StackModel
import TestResults
import Traces

/// `--json`: one JSON document on stdout with every test and the counts.
struct JSONReporter {
    /// The run's seed; nil when the run was interrupted before it mattered.
    var seed: Int? = nil

    /// The version of this document's shape; it goes up when a field changes meaning or goes away.
    /// Version 1: `format_version`, `tests` (file, name, position, status, seconds, message,
    /// failure_position, dump, traceback, output, seed, tags, kind, expected, actual, diff),
    /// `passed`, `failed`, `skipped`, `seed`; since issue 17 each test also has `traces`, the
    /// JSON Lines text of each screen it made when the run records traces (`--trace`, `--golden`,
    /// `--artifacts`), else `[]`, so that `stackplay merge --artifacts` can show them; since issue
    /// 16, `audit`, the accessibility issues that failed it (type, rule, component, kind, element,
    /// frame, compact, detail, time), else `[]`.
    static let formatVersion = 1

    /// A JSON string, or `null` for "".
    private func optional(_ text: String) -> String { text.isEmpty ? "null" : jsonString(text) }

    func report(_ results: [TestResult]) { Output.out(document(results)) }

    /// The whole document, one line.
    func document(_ results: [TestResult]) -> String {
        let tests = results.map { result in
            "{\"file\":\(jsonString(result.test.file)),\"name\":\(jsonString(result.test.name)),"
                + "\"position\":\(jsonString(result.test.position)),\"status\":\"\(result.status.rawValue)\","
                + "\"seconds\":\(result.seconds),\"message\":\(jsonString(result.message)),"
                + "\"failure_position\":\(jsonString(result.position)),\"dump\":\(jsonString(result.dump)),"
                + "\"traceback\":\(jsonString(result.traceback)),\"output\":\(jsonString(result.output)),"
                + "\"seed\":\(result.seed),\"tags\":[\(result.test.tags.map(jsonString).joined(separator: ","))],"
                + "\"kind\":\(result.status == .failed ? jsonString(result.kind.rawValue) : "null"),"
                + "\"expected\":\(optional(result.expected)),\"actual\":\(optional(result.actual)),"
                + "\"diff\":\(optional(result.diff)),"
                + "\"traces\":[\(result.traces.map(jsonString).joined(separator: ","))],"
                + "\"audit\":\(Self.audit(result.auditIssues))}"
        }
        let summary = Summary(results)
        return (
            "{\"format_version\":\(Self.formatVersion),\"tests\":[\(tests.joined(separator: ","))],\"passed\":\(summary.passed),"
                + "\"failed\":\(summary.failed),\"skipped\":\(summary.skipped)"
                + (seed.map { ",\"seed\":\($0)" } ?? "") + "}")
    }
}

extension JSONReporter {
    /// The issues as a JSON array of objects, fields in a fixed order.
    static func audit(_ issues: [AuditIssue]) -> String {
        let objects = issues.map { issue in
            JSONValue.object([
                ("type", .string(issue.type.rawValue)), ("rule", .string(issue.rule)),
                ("component", .string(issue.component)), ("kind", .string(issue.kind.rawValue)),
                ("element", .string(issue.element)),
                (
                    "frame",
                    .object([
                        ("x", .number(issue.frame.x)), ("y", .number(issue.frame.y)),
                        ("width", .number(issue.frame.width)), ("height", .number(issue.frame.height)),
                    ])
                ),
                ("compact", .string(issue.compact)), ("detail", .string(issue.detail)),
                ("time", .number(issue.time)),
            ]).text
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The issues ``audit(_:)`` wrote (`stackplay merge` reads them back); an entry that does not
    /// read as one is left out.
    static func auditIssues(_ value: JSONValue?) -> [AuditIssue] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            func text(_ key: String) -> String? {
                if case .string(let text)? = item[key] { return text }
                return nil
            }
            func number(_ key: String, in object: JSONValue?) -> Double? {
                if case .number(let number)? = object?[key] { return number }
                return nil
            }
            let frame = item["frame"]
            guard let typeName = text("type"), let type = AuditType(rawValue: typeName), let rule = text("rule"),
                let component = text("component"), let kind = text("kind"), let element = text("element"),
                let compact = text("compact"), let detail = text("detail"), let x = number("x", in: frame),
                let y = number("y", in: frame), let width = number("width", in: frame),
                let height = number("height", in: frame), let time = number("time", in: item)
            else { return nil }
            return AuditIssue(
                type: type, rule: rule, component: component, kind: ComponentKind(kind), element: element,
                frame: Rect(x: x, y: y, width: width, height: height), compact: compact, detail: detail,
                time: time)
        }
    }
}

/// A JSON string literal, escaped per RFC 8259 (the traces' writer does it).
func jsonString(_ text: String) -> String { JSONValue.string(text).text }
