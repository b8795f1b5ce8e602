import TestResults
import Traces
import Wording

/// `stackplay merge REPORT.json ... [--junit FILE] [--json] [--artifacts DIR]`: the `--json`
/// reports of shards as one run (`mutate --json` reports: ``MutationMerge``). Tests are ordered by file, then by where they are defined; the
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
        // `mutate --json` reports (mutate --shard K/N) merge into one mutation report.
        if MutationMerge.isMutationReport(options.paths[0]) { return MutationMerge.run(options) }
        if options.htmlFile != nil {
            Output.usageError(
                "--html writes a mutation report's page: merge it mutate --json reports (\(options.paths[0]) is not one)"
            )
            return ExitCode.usage
        }
        if let refusal = ReportOutput.check(options, inputs: options.paths, as: "a report merge reads") {
            Output.usageError(refusal)
            return ExitCode.usage
        }
        var results: [TestResult] = []
        var seed: Int?
        // Where each test was first seen: a test in two reports is a shard given twice, or two
        // runs' reports mixed; either way the merged counts would be wrong.
        var seen: [ByteKey: Int] = [:]
        for (number, path) in options.paths.enumerated() {
            do {
                if let first = options.paths.prefix(number).firstIndex(where: { $0.isSameBytes(path) }) {
                    throw Malformed(
                        description: "\(path) is given twice (as report \(first + 1) and \(number + 1)): "
                            + "its tests would count twice")
                }
                let text: String
                do { text = try TraceFile.read(path) } catch { throw Malformed(description: error.message) }
                let report = try read(text, path: path)
                // One test listed twice in one report (an edited or concatenated report) would
                // count twice too.
                var listed: Set<ByteKey> = []
                for result in report.results
                where !listed.insert(ByteKey(result.test.file + "\u{0}" + result.test.fullName)).inserted {
                    throw Malformed(
                        description:
                            "\(path): test '\(terminalSafe(result.test.fullName))' is listed twice: a "
                            + "report lists each test once (its counts would be wrong)")
                }
                for result in report.results {
                    let key = ByteKey(result.test.file + "\u{0}" + result.test.name)
                    if let first = seen[key], first != number {
                        throw Malformed(
                            description: "test '\(terminalSafe(result.test.fullName))' is in both "
                                + "\(options.paths[first]) and \(path): each test belongs to one shard's report "
                                + "(a shard given twice, or reports of two runs?)")
                    }
                    seen[key] = number
                }
                results += report.results
                if seed == nil { seed = report.seed }
            } catch {
                Output.err("stackplay: \(error)")
                return ExitCode.failure
            }
        }
        results = order(results)
        var written = Reporters.report(
            results, format: options.format ?? .human, seed: seed, junit: options.junit,
            jsonFile: options.jsonFile)
        if let directory = options.artifactsDirectory {
            written =
                TraceOutputs.writeArtifacts(results, in: directory, golden: nil, scripts: false) && written
        }
        return Summary(results).failed == 0 && written ? ExitCode.success : ExitCode.failure
    }

    /// By file, then by the line the test is defined on; otherwise as given. Each key is worked
    /// out once, not in every comparison.
    static func order(_ results: [TestResult]) -> [TestResult] {
        let keys = results.map { result in
            result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 0
        }
        return results.indices.sorted { a, b in
            let (x, y) = (results[a].test.file, results[b].test.file)
            guard x.isSameBytes(y) else { return x.precedesInBytes(y) }
            return (keys[a], a) < (keys[b], b)
        }.map { results[$0] }
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
        // Every field of every test is read through the one record model; each test that does
        // not read names its first wrong field, and all of them are listed (the first 20).
        let decoder = JSONValueDecoder()
        var problems: [String] = []
        var seed: Int?
        if let value = document["seed"], value != .null {
            do { seed = try decoder.decode(Int.self, from: value, at: [JSONKey("seed")]) } catch {
                problems.append(JSONDecodingProblem(error).description)
            }
        }
        var results: [TestResult] = []
        for (i, test) in tests.enumerated() {
            do {
                results.append(
                    try decoder.decode(TestResult.self, from: test, at: [JSONKey("tests"), JSONKey(i)]))
            } catch { problems.append(JSONDecodingProblem(error).description) }
        }
        guard problems.isEmpty else {
            var lines = problems.prefix(20).map { "\(path): \($0)" }
            if problems.count > 20 { lines.append("\(path): and \(problems.count - 20) more") }
            throw Malformed(description: lines.joined(separator: "\nstackplay: "))
        }
        return (results, seed)
    }
}
