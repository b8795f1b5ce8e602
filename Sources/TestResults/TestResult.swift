import StackModel

/// How one test went.
public struct TestResult: Error, Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable { case passed, failed, skipped }
    /// Why a test failed: an `expect(...)` that did not hold, or an error (a script that raised
    /// outside an expectation, did not load, hit a budget, crashed or timed out). JUnit files the
    /// first as `<failure>`, the second as `<error>`.
    public enum FailureKind: String, Sendable, CaseIterable { case failure, error }

    public var test: TestCase
    public var status: Status
    /// `path:line: message`, with the expected and actual values for a failed expectation.
    public var message: String = ""
    /// The Lua traceback of the failure.
    public var traceback: String = ""
    /// The screens as they were when it failed: every card's frame and the components' state.
    public var dump: String = ""
    /// `path:line` of the failure, when known.
    public var position: String = ""
    /// Wall time in seconds.
    public var seconds: Double = 0
    /// The trace of each screen the test made (JSON Lines), when traces are recorded.
    public var traces: [String] = []
    /// What the test printed.
    public var output: String = ""
    /// The seed `math.random` started from in this test.
    public var seed: Int = 0
    /// For a failed test: an assertion's failure or an error.
    public var kind: FailureKind = .error
    /// For a failed expectation: the expected side, the actual side and the diff, as the report
    /// shows them ("" when there is none).
    public var expected: String = ""
    public var actual: String = ""
    public var diff: String = ""
    /// `--mirror`: for a mirrored test whose frames are not the mirror image of its twin's, an
    /// SVG of the unmirrored and the mirrored frame side by side and overlaid (``MirrorCheck``).
    public var picture: String = ""
    /// The test asked `screen:mirrored()` (read in the worker only, never sent).
    public var asksMirror = false
    /// Of `traces`, those the run or the script asked for (`--trace`, `record = true`), without the
    /// ones `--mirror` records for its comparison (read in the worker only, never sent).
    public var requestedTraces: [String] = []
    /// The accessibility issues that failed it (`--audit`, `to_pass_audit`); empty otherwise.
    public var auditIssues: [AuditIssue] = []
    /// `--audit`: the known issues its audits found (the seeds' own findings), each element and
    /// rule once, at its first step; they fail nothing.
    public var knownAuditIssues: [AuditIssue] = []

    public init(
        test: TestCase, status: Status, message: String = "", traceback: String = "", dump: String = "",
        position: String = "", seconds: Double = 0, traces: [String] = [], output: String = "", seed: Int = 0
    ) {
        self.test = test
        self.status = status
        self.message = message
        self.traceback = traceback
        self.dump = dump
        self.position = position
        self.seconds = seconds
        self.traces = traces
        self.output = output
        self.seed = seed
    }
}
