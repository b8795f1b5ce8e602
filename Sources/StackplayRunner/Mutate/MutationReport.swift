import Bindings
import StackModel
import TestResults
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// What `stackplay mutate` says: the human report (per SPEC id, per mutant), Stryker's
/// mutation-testing-report-schema version 2 (`--json FILE`) and JUnit XML (`--junit FILE`). A
/// report read back from its JSON (``read(_:path:)``: `merge`, `--incremental`) says the same.
struct MutationReport {
    /// A test of the unmutated suite: its id (full name), name, script and line.
    struct SuiteTest: Equatable {
        var id: String
        var name: String
        var file: String
        var line: Int
    }

    var outcomes: [MutantOutcome]
    /// The unmutated run's tests, and each script's text as the run read it.
    var tests: [SuiteTest]
    var sources: [String: String]
    /// Wall seconds of the unmutated run, and of the whole command.
    var plainSeconds: Double
    var seconds: Double
    var jobs: Int
    /// What the verdicts depend on, kept in the JSON's `stackplay` field for `--incremental` and
    /// `merge`: the runs' arguments (paths and selection flags) and the shard.
    var arguments: [String]
    var shard: (index: Int, count: Int)?
    /// The folder the run is about (Stryker's `projectRoot`): where it ran, which its script paths
    /// are relative to.
    var projectRoot: String
    /// How many verdicts `--incremental` reused, and from which report.
    var reused = 0
    var reusedFrom: String?
    /// The models the verdicts were given on (``currentModels`` for a run; as read for a report).
    var models = MutationReport.currentModels

    func count(_ status: MutantOutcome.Status) -> Int {
        outcomes.filter { $0.status == status }.count
    }

    var detected: Int { outcomes.filter { $0.status.isDetected }.count }
    var valid: Int { outcomes.filter { $0.status.isValid }.count }

    /// Stryker's mutation score in percent: detected (killed, timed out) / valid (detected,
    /// survived, not covered); runtime errors and ignored mutants are left out. With no valid
    /// mutant: 0 when some ended in an error (nothing was shown to kill one), else 100.
    var score: Double {
        guard valid > 0 else { return count(.runtimeError) > 0 ? 0 : 100 }
        return Double(detected) / Double(valid) * 100
    }

    /// The version and catalogue whose models the verdicts were given on: a report of another
    /// stackplay (or another catalogue) lends `--incremental` nothing.
    static var currentModels: String {
        ReleaseVersions.string + " "
            + TraceFile.hash(Mutant.catalogue.map { "\($0.id) \($0.summary) \($0.replacement)" })
    }

    /// The folder this process runs in.
    static var workingDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
            var line =
                "\(spec): \(group.count) mutant\(group.count == 1 ? "" : "s"), "
                + "\(group.filter { $0.status.isDetected }.count) killed"
            for (status, word) in [
                (MutantOutcome.Status.survived, "survived"), (.noCoverage, "not covered"),
                (.runtimeError, "errored"), (.ignored, "ignored"),
            ] {
                let number = group.filter { $0.status == status }.count
                if number > 0 { line += ", \(number) \(word)" }
            }
            lines.append(line)
            for outcome in group {
                let id = outcome.mutant.id + String(repeating: " ", count: width - outcome.mutant.id.count)
                lines.append(
                    "  \(Self.word(outcome.status)) \(id)  \(Self.detail(outcome))"
                        + (outcome.reused ? " (reused)" : ""))
            }
        }
        lines.append("")
        var counts =
            "\(outcomes.count) mutants: \(count(.killed)) killed, \(count(.survived)) survived, "
        if count(.noCoverage) > 0 { counts += "\(count(.noCoverage)) not covered, " }
        counts +=
            "\(count(.timeout)) timed out, \(count(.runtimeError)) runtime errors, \(count(.ignored)) ignored"
        var line =
            "mutation score: \(formatNumber((score * 10).rounded() / 10))% (\(counts); "
            + "\(detected) detected of \(valid) valid; \(tests.count) test\(tests.count == 1 ? "" : "s"); "
            + "\(formatNumber((seconds * 100).rounded() / 100)) s, --jobs \(jobs)"
        if let shard { line += "; shard \(shard.index)/\(shard.count)" }
        lines.append(line + ")")
        if let reusedFrom {
            lines.append(
                "incremental: \(reused) of \(outcomes.count) verdicts reused from \(reusedFrom), "
                    + "\(outcomes.filter { !$0.reused && $0.status != .ignored }.count) mutants run")
        }
        let survivors = outcomes.filter { $0.status == .survived || $0.status == .noCoverage }
        if !survivors.isEmpty {
            lines.append("survived: " + survivors.map(\.mutant.id).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    static func word(_ status: MutantOutcome.Status) -> String {
        switch status {
        case .killed: "killed   "
        case .survived: "SURVIVED "
        case .noCoverage: "UNCOVERED"
        case .timeout: "timed out"
        case .runtimeError: "errored  "
        case .ignored: "ignored  "
        }
    }

    static func detail(_ outcome: MutantOutcome) -> String {
        switch outcome.status {
        case .survived: return "\(outcome.mutant.summary) [\(outcome.mutant.replacement)]"
        case .noCoverage: return "no test reached it: \(outcome.mutant.summary)"
        case .ignored: return outcome.reason
        case .killed, .timeout, .runtimeError:
            guard let killer = outcome.killer else { return outcome.reason }
            return "by \(killer.test) at \(killer.at)"
        }
    }

    // MARK: JUnit

    /// One test case a mutant, in a suite a SPEC id: a survivor (or one no test reached) is a
    /// failure, an ignored one is skipped.
    var junit: String {
        let results = outcomes.enumerated().map { index, outcome in
            let undetected = outcome.status == .survived || outcome.status == .noCoverage
            var result = TestResult(
                test: TestCase(
                    file: "mutants/\(outcome.mutant.spec)", root: nil, name: outcome.mutant.id,
                    position: "\(Mutant.sourceFolder)\(outcome.mutant.file)", index: index,
                    skipped: outcome.status == .ignored),
                status: undetected ? .failed : outcome.status == .ignored ? .skipped : .passed)
            result.seconds = outcome.seconds
            if undetected {
                result.kind = .failure
                result.message =
                    "\(outcome.mutant.id) \(outcome.status == .survived ? "survived" : "was reached by no test"): "
                    + "\(outcome.mutant.summary) [\(outcome.mutant.replacement)]"
            } else {
                result.output = "\(outcome.status.rawValue): \(Self.detail(outcome))"
            }
            return result
        }
        return JUnitReporter().xml(results)
    }
}
