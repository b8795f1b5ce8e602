import StackModel

/// What became of one mutant, with Stryker's statuses (mutation-testing-report-schema): `Killed`
/// (a test that passed unmutated failed on it), `Survived` (every test passed), `NoCoverage` (no
/// test reached its mutated point, so it changed nothing), `Timeout` (a test ran past its time or
/// CPU budget), `RuntimeError` (no verdict: an error, a crash, a failure of a test that did not
/// pass unmutated, a timeout near the unmutated time) and `Ignored` (not run: a documented
/// equivalent mutant).
struct MutantOutcome {
    enum Status: String, CaseIterable {
        case killed = "Killed"
        case survived = "Survived"
        case noCoverage = "NoCoverage"
        case timeout = "Timeout"
        case runtimeError = "RuntimeError"
        case ignored = "Ignored"

        /// Killed or timed out: the suite noticed it (Stryker's *detected*).
        var isDetected: Bool { self == .killed || self == .timeout }
        /// Counted in the score (Stryker's *valid*): detected, survived or not covered.
        var isValid: Bool { isDetected || self == .survived || self == .noCoverage }
    }

    /// The test that killed a mutant (or timed out on it) and where it failed.
    struct Killer: Equatable {
        /// The test's id: its full name (`scripts/x.lua: swipe`).
        var test: String
        /// Its script.
        var file: String
        /// Where it failed (`scripts/x.lua:12`).
        var at: String
    }

    let mutant: Mutant
    var status: Status
    var killer: Killer?
    /// The tests that ran against it (ids).
    var coveredBy: [String] = []
    /// Why: the failure's first line, or what went wrong with the run, or why it was ignored.
    var reason = ""
    var seconds = 0.0
    /// Taken from `--incremental`'s report rather than run again.
    var reused = false
}
