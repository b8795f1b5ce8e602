import StackModel
import TestResults
import Traces

/// What `stackplay mutate` says: the human report (per SPEC id, per mutant), Stryker's
/// mutation-testing-report-schema version 2 (`--json FILE`) and JUnit XML (`--junit FILE`).
struct MutationReport {
    let outcomes: [MutateCommand.Outcome]
    /// The unmutated run's results.
    let baseline: [TestResult]
    /// Wall seconds of the unmutated run, and of the whole command.
    let plainSeconds: Double
    let seconds: Double
    let jobs: Int

    func count(_ status: MutateCommand.Outcome.Status) -> Int {
        outcomes.filter { $0.status == status }.count
    }

    /// `(killed + timed out) / (killed + timed out + survived)` in percent, as Stryker counts it: a
    /// runtime error is no verdict and is left out (``Verdicts``); 100 with no mutant, 0 when
    /// every mutant ended in an error (nothing was shown to kill one).
    var score: Double {
        let detected = count(.killed) + count(.timeout)
        let judged = detected + count(.survived)
        if outcomes.isEmpty { return 100 }
        return judged == 0 ? 0 : Double(detected) / Double(judged) * 100
    }

    // MARK: Human

    var human: String {
        var lines: [String] = []
        var specs: [String] = []
        for outcome in outcomes where !specs.contains(outcome.mutant.spec) {
            specs.append(outcome.mutant.spec)
        }
        let width = outcomes.map(\.mutant.id.count).max() ?? 0
        for spec in specs {
            let group = outcomes.filter { $0.mutant.spec == spec }
            let killed = group.filter { $0.status != .survived }.count
            lines.append(
                "\(spec): \(group.count) mutant\(group.count == 1 ? "" : "s"), \(killed) killed"
                    + (killed == group.count ? "" : ", \(group.count - killed) survived"))
            for outcome in group {
                let id = outcome.mutant.id + String(repeating: " ", count: width - outcome.mutant.id.count)
                lines.append("  \(Self.word(outcome.status)) \(id)  \(Self.detail(outcome))")
            }
        }
        let survivors = outcomes.filter { $0.status == .survived }
        lines.append("")
        lines.append(
            "mutation score: \(formatNumber((score * 10).rounded() / 10))% (\(outcomes.count) mutants: "
                + "\(count(.killed)) killed, \(count(.survived)) survived, \(count(.timeout)) timed out, "
                + "\(count(.runtimeError)) runtime errors; \(baseline.count) test\(baseline.count == 1 ? "" : "s"); "
                + "\(formatNumber((seconds * 100).rounded() / 100)) s, --jobs \(jobs))")
        if !survivors.isEmpty {
            lines.append("survived: " + survivors.map(\.mutant.id).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private static func word(_ status: MutateCommand.Outcome.Status) -> String {
        switch status {
        case .killed: "killed   "
        case .survived: "SURVIVED "
        case .timeout: "timed out"
        case .runtimeError: "errored  "
        }
    }

    private static func detail(_ outcome: MutateCommand.Outcome) -> String {
        switch outcome.status {
        case .survived: return outcome.mutant.summary
        case .killed, .timeout, .runtimeError:
            guard let test = outcome.killedBy else { return outcome.reason }
            let at = test.position.isEmpty ? test.test.position : test.position
            return "by \(test.test.fullName) at \(at)"
        }
    }

    // MARK: Stryker's schema

    /// `mutation-testing-report-schema` version 2: `files` keyed by model file (its source and
    /// mutants), `testFiles` keyed by script (its tests).
    var stryker: JSONValue {
        var files: [(String, JSONValue)] = []
        var order: [String] = []
        for outcome in outcomes where !order.contains(outcome.mutant.file) {
            order.append(outcome.mutant.file)
        }
        for file in order {
            let path = Mutant.sourceFolder + file
            let source = (try? TraceFile.read(Mutant.sourceDirectory + file)) ?? ""
            let mutants = outcomes.filter { $0.mutant.file == file }.map { outcome -> JSONValue in
                let location = outcome.mutant.location(in: source)
                var fields: [(String, JSONValue)] = [
                    ("id", .string(outcome.mutant.id)),
                    ("mutatorName", .string(outcome.mutant.kind.rawValue)),
                    ("description", .string("\(outcome.mutant.spec): \(outcome.mutant.summary)")),
                    ("location", Self.location(location)),
                    ("status", .string(outcome.status.rawValue)),
                    ("coveredBy", .array(outcome.ran.map { .string($0.test.fullName) })),
                    (
                        "killedBy",
                        .array(
                            outcome.status == .survived
                                ? [] : outcome.killedBy.map { [.string($0.test.fullName)] } ?? [])
                    ),
                    ("testsCompleted", .number(Double(outcome.ran.count))),
                    ("duration", .number((outcome.seconds * 1000).rounded())),
                ]
                if !outcome.reason.isEmpty { fields.append(("statusReason", .string(outcome.reason))) }
                return .object(fields)
            }
            files.append(
                (
                    path,
                    .object([
                        ("language", .string("swift")), ("source", .string(source)),
                        ("mutants", .array(mutants)),
                    ])
                ))
        }
        var testFiles: [(String, JSONValue)] = []
        var scripts: [String] = []
        for result in baseline where !scripts.contains(result.test.file) { scripts.append(result.test.file) }
        for script in scripts {
            let tests = baseline.filter { $0.test.file == script }.map { result -> JSONValue in
                let line = result.test.position.split(separator: ":").last.flatMap { Int($0) } ?? 1
                return .object([
                    ("id", .string(result.test.fullName)), ("name", .string(result.test.name)),
                    ("location", .object([("start", Self.position(line: line, column: 1))])),
                ])
            }
            var fields: [(String, JSONValue)] = [("tests", .array(tests))]
            if let source = try? TraceFile.read(script) { fields.insert(("source", .string(source)), at: 0) }
            testFiles.append((script, .object(fields)))
        }
        return .object([
            ("schemaVersion", .string("2")),
            ("thresholds", .object([("high", .number(80)), ("low", .number(60))])),
            ("projectRoot", .string(Mutant.packageDirectory)),
            ("files", .object(files)),
            ("testFiles", .object(testFiles)),
            ("framework", .object([("name", .string("stackplay"))])),
            (
                "performance",
                .object([
                    ("setup", .number(0)), ("initialRun", .number((plainSeconds * 1000).rounded())),
                    ("mutation", .number(((seconds - plainSeconds) * 1000).rounded())),
                ])
            ),
        ])
    }

    private static func position(line: Int, column: Int) -> JSONValue {
        .object([("line", .number(Double(line))), ("column", .number(Double(column)))])
    }

    /// A mutant's place; line 1 when its model's source is not where it was built.
    private static func location(_ location: Mutant.Location?) -> JSONValue {
        .object([
            ("start", position(line: location?.line ?? 1, column: location?.startColumn ?? 1)),
            ("end", position(line: location?.line ?? 1, column: location?.endColumn ?? 2)),
        ])
    }

    // MARK: JUnit

    /// One test case a mutant, in a suite a SPEC id: a survivor is a failure.
    var junit: String {
        let results = outcomes.enumerated().map { index, outcome in
            var result = TestResult(
                test: TestCase(
                    file: "mutants/\(outcome.mutant.spec)", root: nil, name: outcome.mutant.id,
                    position: "\(Mutant.sourceFolder)\(outcome.mutant.file)", index: index, skipped: false),
                status: outcome.status == .survived ? .failed : .passed)
            result.seconds = outcome.seconds
            if outcome.status == .survived {
                result.kind = .failure
                result.message = "\(outcome.mutant.id) survived: \(outcome.mutant.summary)"
            } else {
                result.output = "\(outcome.status.rawValue): \(Self.detail(outcome))"
            }
            return result
        }
        return JUnitReporter().xml(results)
    }
}
