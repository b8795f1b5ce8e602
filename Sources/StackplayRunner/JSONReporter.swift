import TestResults
import Traces

/// `--json`: one JSON document on stdout with every test and the counts. Each test is the one
/// record model (``TestResult``'s `Codable` encoding, through ``JSONValueEncoder``), which
/// `stackplay merge` reads back with ``JSONValueDecoder``.
struct JSONReporter: Reporter {
    /// The run's seed; nil when the run was interrupted before it mattered.
    var seed: Int? = nil
    private var tests: [JSONValue] = []
    private var summary = Summary([])

    /// `--json=FILE`: where ``end(to:)`` writes the document; nil: stdout.
    var path: String? = nil

    init(seed: Int? = nil, path: String? = nil) {
        self.seed = seed
        self.path = path
    }

    /// The version of this document's shape; it goes up when a field changes meaning or goes away.
    /// Version 1: `format_version`, `tests` (file, name, position, status, seconds, message,
    /// failure_position, dump, traceback, output, seed, tags, kind, expected, actual, diff),
    /// `passed`, `failed`, `skipped`, `seed`; since issue 17 each test also has `traces`, the
    /// JSON Lines text of each screen it made when the run records traces (`--trace`, `--golden`,
    /// `--artifacts`), else `[]`, so that `stackplay merge --artifacts` can show them; since issue
    /// 16, `audit`, the accessibility issues that failed it (type, rule, component, kind, element,
    /// frame, compact, detail, time), else `[]`; since issue 24, `audit_known`, the known issues
    /// `--audit` found (the seeds' own findings, which fail nothing), only when there are any.
    /// A number JSON cannot hold (an audited frame's NaN)
    /// is the string `"nan"`, `"inf"` or `"-inf"`.
    static let formatVersion = 1

    mutating func forgetSeed() { seed = nil }

    mutating func finished(_ result: TestResult, to sink: ReportSink) {
        summary.add(result.status)
        tests.append(JSONValueEncoder().json(result))
    }

    func end(to sink: ReportSink) -> Bool {
        var fields: [(String, JSONValue)] = [
            ("format_version", .number(Double(Self.formatVersion))), ("tests", .array(tests)),
            ("passed", .number(Double(summary.passed))), ("failed", .number(Double(summary.failed))),
            ("skipped", .number(Double(summary.skipped))),
        ]
        if let seed { fields.append(("seed", .number(Double(seed)))) }
        guard let path else {
            sink.out(JSONValue.object(fields).text)
            return true
        }
        do {
            try ReportOutput(flag: "--json", path: path, kind: .json).write(
                JSONValue.object(fields).text + "\n")
            return true
        } catch {
            sink.err("stackplay: \(error.message)")
            return false
        }
    }

}

/// A JSON string literal, escaped per RFC 8259 (the traces' writer does it).
func jsonString(_ text: String) -> String { JSONValue.string(text).text }
