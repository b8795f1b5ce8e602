import TestResults
import Wording

/// What a mutant's failed test may count for (docs/mutate.md, "Verdicts"): a mutant is killed only
/// by a test that failed on it and passed unmutated, in a run under the same conditions (the
/// baseline runs with `--forbid-only`, so an `only(...)` left in fails the baseline, as `CI=true`
/// fails it in every mutant's run). A timeout is a kill only when the test took under a quarter of its timeout
/// unmutated: one that comes near it unmutated says more of the machine's load than of the
/// mutant. As in Stryker, a runtime error (a test that raised an error, a crash) is no verdict:
/// it neither kills nor survives, and the score leaves it out.
struct Verdicts {
    /// The unmutated run's seconds of each test that passed, by file and name.
    private var passed: [ByteKey: Double] = [:]
    /// The wall time a mutant's test may take: `--timeout` when given, else the default.
    let timeout: Double

    init(baseline: [TestResult], timeout: Double, given: Bool) {
        for result in baseline where result.status == .passed {
            passed[Self.key(result.test.file, result.test.fullName)] = result.seconds
        }
        let slowest = baseline.map(\.seconds).max() ?? 0
        self.timeout = given ? timeout : 5 + 2 * slowest
    }

    private static func key(_ file: String, _ test: String) -> ByteKey { ByteKey(file + "\u{0}" + test) }

    /// `outcome` with a kill or a timeout that does not count made a runtime error, saying why.
    func checked(_ outcome: MutantOutcome) -> MutantOutcome {
        guard outcome.status == .killed || outcome.status == .timeout, let test = outcome.killer else {
            return outcome
        }
        var checked = outcome
        guard let seconds = passed[Self.key(test.file, test.test)] else {
            checked.status = .runtimeError
            checked.reason =
                "'\(terminalSafe(test.test))' failed, but it did not pass unmutated: no verdict"
            return checked
        }
        if outcome.status == .timeout, seconds * 4 > timeout {
            checked.status = .runtimeError
            checked.reason =
                "timed out, but unmutated it took \(formatNumber((seconds * 100).rounded() / 100)) s of its "
                + "\(formatNumber(timeout)) s: no verdict (raise --timeout)"
        }
        return checked
    }
}
