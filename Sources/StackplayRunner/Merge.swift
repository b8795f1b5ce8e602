import Bindings
import TestResults
import Traces

/// `stackplay merge REPORT.json ... [--junit FILE] [--json] [--artifacts DIR]`: the `--json`
/// reports of shards as one run. Tests are ordered by file, then by where they are defined; the
/// report is human by default. Exits 1 when any test failed (or a report is malformed, naming
/// the file and the field), 0 otherwise, 64 for usage errors (no report, a missing file).
enum Merge {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ options: Options) -> Int32 {
        guard !options.paths.isEmpty else {
            Output.usageError("merge needs at least one report (the --json output of a run)")
            return ExitCode.usage
        }
        if let missing = options.paths.first(where: { !TraceFile.exists($0) }) {
            Output.usageError("no such report: \(missing)")
            return ExitCode.usage
        }
        var results: [TestResult] = []
        var seed: Int?
        for path in options.paths {
            do {
                let text: String
                do { text = try TraceFile.read(path) } catch { throw Malformed(description: error.message) }
                let report = try read(text, path: path)
                results += report.results
                if seed == nil { seed = report.seed }
            } catch {
                Output.err("stackplay: \(error)")
                return ExitCode.failure
            }
        }
        results = order(results)
        Reporters.report(results, format: options.format ?? .human, seed: seed)
        var written = true
        if let junit = options.junit {
            do { try JUnitReporter.write(results, seed: seed, to: junit) } catch {
                Output.err("stackplay: \(error.message)")
                written = false
            }
        }
        if let directory = options.artifactsDirectory {
            written = TraceOutputs.writeArtifacts(results, in: directory, golden: nil) && written
        }
        return Summary(results).failed == 0 && written ? ExitCode.success : ExitCode.failure
    }

    /// By file, then by the line the test is defined on; otherwise as given.
    static func order(_ results: [TestResult]) -> [TestResult] {
        func line(_ result: TestResult) -> Int {
            result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 0
        }
        return results.enumerated().sorted { a, b in
            (a.element.test.file, line(a.element), a.offset) < (
                b.element.test.file, line(b.element), b.offset
            )
        }.map(\.element)
    }

    /// The results of one `--json` report (format version 1).
    static func read(_ text: String, path: String) throws(Malformed) -> (results: [TestResult], seed: Int?) {
        let document: JSONValue
        do { document = try JSONParser.parse(text) } catch {
            throw Malformed(
                description: "\(path): malformed JSON at column \(error.column): \(error.message)")
        }
        func fail(_ field: String, _ message: String) -> Malformed {
            Malformed(description: "\(path): field '\(field)': \(message)")
        }
        guard case .object = document else {
            throw Malformed(description: "\(path): not a stackplay --json report (expected an object)")
        }
        guard case .number(let version)? = document["format_version"] else {
            throw fail("format_version", "missing: not a stackplay --json report")
        }
        guard version == Double(JSONReporter.formatVersion) else {
            throw fail(
                "format_version",
                "unknown version \(JSONValue.format(version)) (this stackplay reads \(JSONReporter.formatVersion))"
            )
        }
        guard case .array(let tests)? = document["tests"] else {
            throw fail("tests", "missing or not an array")
        }
        var seed: Int?
        if case .number(let number)? = document["seed"] { seed = Int(exactly: number) }
        var results: [TestResult] = []
        for (i, test) in tests.enumerated() {
            let at = "tests[\(i)]"
            func string(_ key: String, optional: Bool = false) throws(Malformed) -> String {
                switch test[key] {
                case .string(let text)?: return text
                case .null?, nil:
                    if optional { return "" }
                    throw fail("\(at).\(key)", "missing")
                case let other?: throw fail("\(at).\(key)", "expected a string, got \(other.typeName)")
                }
            }
            guard case .object = test else { throw fail(at, "expected an object, got \(test.typeName)") }
            let file = try string("file")
            let name = try string("name")
            let statusText = try string("status")
            guard let status = TestResult.Status(rawValue: statusText) else {
                throw fail("\(at).status", "expected 'passed', 'failed' or 'skipped', got '\(statusText)'")
            }
            guard case .number(let seconds)? = test["seconds"] else {
                throw fail("\(at).seconds", "missing or not a number")
            }
            var tags: [String] = []
            if case .array(let values)? = test["tags"] {
                for value in values { if case .string(let tag) = value { tags.append(tag) } }
            }
            var traces: [String] = []
            if case .array(let values)? = test["traces"] {
                for (j, value) in values.enumerated() {
                    guard case .string(let trace) = value else {
                        throw fail("\(at).traces[\(j)]", "expected a string, got \(value.typeName)")
                    }
                    traces.append(trace)
                }
            }
            let position = try string("position")
            var result = TestResult(
                test: TestCase(
                    file: file, root: nil, name: name, position: position, index: name == file ? 0 : 1,
                    skipped: status == .skipped, tags: tags),
                status: status, message: try string("message", optional: true),
                traceback: try string("traceback", optional: true), dump: try string("dump", optional: true),
                position: try string("failure_position", optional: true), seconds: seconds, traces: traces,
                output: try string("output", optional: true))
            if case .number(let testSeed)? = test["seed"], let exact = Int(exactly: testSeed) {
                result.seed = exact
            }
            if let kind = TestResult.FailureKind(rawValue: try string("kind", optional: true)) {
                result.kind = kind
            }
            result.expected = try string("expected", optional: true)
            result.actual = try string("actual", optional: true)
            result.diff = try string("diff", optional: true)
            result.auditIssues = JSONReporter.auditIssues(test["audit"])
            results.append(result)
        }
        return (results, seed)
    }
}
