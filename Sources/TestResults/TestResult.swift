import StackModel

/// How one test went.
///
/// Its fields are stored once and shared by every copy until one of them changes (copy on write):
/// a result passes through the worker's answer, the run's order, the report and the summary, and
/// a copy is one reference, not twenty.
public struct TestResult: Error, Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable { case passed, failed, skipped }
    /// Why a test failed: an `expect(...)` that did not hold, or an error (a script that raised
    /// outside an expectation, did not load, hit a budget, crashed or timed out). JUnit files the
    /// first as `<failure>`, the second as `<error>`.
    public enum FailureKind: String, Sendable, CaseIterable { case failure, error }

    private struct Fields: Equatable {
        var test: TestCase
        var status: Status
        var message: String = ""
        var traceback: String = ""
        var dump: String = ""
        var position: String = ""
        var seconds: Double = 0
        var traces: [String] = []
        var output: String = ""
        var seed: Int = 0
        var kind: FailureKind = .error
        var expected: String = ""
        var actual: String = ""
        var diff: String = ""
        var cause: String = ""
        var causePosition: String = ""
        var picture: String = ""
        var asksMirror: Bool = false
        var fixedSettings: [String: String]? = nil
        var requestedTraces: [String] = []
        var auditIssues: [AuditIssue] = []
        var knownAuditIssues: [AuditIssue] = []
    }

    private var shared: Shared<Fields>

    /// The test it is the result of.
    public var test: TestCase {
        get { shared.fields.test }
        _modify { yield &shared.fields.test }
    }
    /// Whether it passed, failed or was skipped.
    public var status: Status {
        get { shared.fields.status }
        _modify { yield &shared.fields.status }
    }
    /// `path:line: message`, with the expected and actual values for a failed expectation.
    public var message: String {
        get { shared.fields.message }
        _modify { yield &shared.fields.message }
    }
    /// The Lua traceback of the failure.
    public var traceback: String {
        get { shared.fields.traceback }
        _modify { yield &shared.fields.traceback }
    }
    /// The screens as they were when it failed: every card's frame and the components' state.
    public var dump: String {
        get { shared.fields.dump }
        _modify { yield &shared.fields.dump }
    }
    /// `path:line` of the failure, when known.
    public var position: String {
        get { shared.fields.position }
        _modify { yield &shared.fields.position }
    }
    /// Wall time in seconds.
    public var seconds: Double {
        get { shared.fields.seconds }
        _modify { yield &shared.fields.seconds }
    }
    /// The trace of each screen the test made (JSON Lines), when traces are recorded.
    public var traces: [String] {
        get { shared.fields.traces }
        _modify { yield &shared.fields.traces }
    }
    /// What the test printed.
    public var output: String {
        get { shared.fields.output }
        _modify { yield &shared.fields.output }
    }
    /// The seed `math.random` started from in this test.
    public var seed: Int {
        get { shared.fields.seed }
        _modify { yield &shared.fields.seed }
    }
    /// For a failed test: an assertion's failure or an error.
    public var kind: FailureKind {
        get { shared.fields.kind }
        _modify { yield &shared.fields.kind }
    }
    /// For a failed expectation: the expected side, as the report shows it ("" when there is none).
    public var expected: String {
        get { shared.fields.expected }
        _modify { yield &shared.fields.expected }
    }
    /// For a failed expectation: the actual side ("" when there is none).
    public var actual: String {
        get { shared.fields.actual }
        _modify { yield &shared.fields.actual }
    }
    /// For a failed expectation: the diff ("" when there is none).
    public var diff: String {
        get { shared.fields.diff }
        _modify { yield &shared.fields.diff }
    }
    /// For a failed expectation: its likely cause, the last gesture before it on what it reads,
    /// explained by the model's gate ("the drag at x.lua:6 moved 'calendar' 66.6 pt towards
    /// trailing; ..."); "" when no gesture was made.
    public var cause: String {
        get { shared.fields.cause }
        _modify { yield &shared.fields.cause }
    }
    /// `path:line` of the call that made the cause's gesture ("" when not known).
    public var causePosition: String {
        get { shared.fields.causePosition }
        _modify { yield &shared.fields.causePosition }
    }
    /// `--mirror`: for a mirrored test whose frames are not the mirror image of its twin's, an
    /// SVG of the unmirrored and the mirrored frame side by side and overlaid (``MirrorCheck``).
    public var picture: String {
        get { shared.fields.picture }
        _modify { yield &shared.fields.picture }
    }
    /// The test asked `screen:mirrored()` (read in the worker only, never sent).
    public var asksMirror: Bool {
        get { shared.fields.asksMirror }
        _modify { yield &shared.fields.asksMirror }
    }
    /// The screen settings every screen of the test gave itself (read in the worker only, never
    /// sent): a `--matrix` variant of one of them is skipped (``TestRunner``).
    public var fixedSettings: [String: String]? {
        get { shared.fields.fixedSettings }
        _modify { yield &shared.fields.fixedSettings }
    }
    /// Of `traces`, those the run or the script asked for (`--trace`, `record = true`), without the
    /// ones `--mirror` records for its comparison (read in the worker only, never sent).
    public var requestedTraces: [String] {
        get { shared.fields.requestedTraces }
        _modify { yield &shared.fields.requestedTraces }
    }
    /// The accessibility issues that failed it (`--audit`, `to_pass_audit`); empty otherwise.
    public var auditIssues: [AuditIssue] {
        get { shared.fields.auditIssues }
        _modify { yield &shared.fields.auditIssues }
    }
    /// `--audit`: the known issues its audits found (the seeds' own findings), each element and
    /// rule once, at its first step; they fail nothing.
    public var knownAuditIssues: [AuditIssue] {
        get { shared.fields.knownAuditIssues }
        _modify { yield &shared.fields.knownAuditIssues }
    }

    public init(
        test: TestCase, status: Status, message: String = "", traceback: String = "", dump: String = "",
        position: String = "", seconds: Double = 0, traces: [String] = [], output: String = "", seed: Int = 0
    ) {
        shared = Shared(
            Fields(
                test: test, status: status, message: message, traceback: traceback, dump: dump,
                position: position, seconds: seconds, traces: traces, output: output, seed: seed))
    }

    public static func == (lhs: TestResult, rhs: TestResult) -> Bool {
        lhs.shared.isSame(as: rhs.shared) || lhs.shared.fields == rhs.shared.fields
    }
}
