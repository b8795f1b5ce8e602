/// One test of a script: a `test(name, fn)` of the file, or the whole file when it defines none.
public struct TestCase: Sendable, Equatable {
    /// The script's path as given.
    public var file: String
    /// Where the script's `require` looks.
    public var root: String?
    /// The test's name; for a file without tests, its path.
    public var name: String
    /// `path:line` where the test is defined.
    public var position: String
    /// 1-based index among the file's tests; 0 for a whole file without tests.
    public var index: Int
    /// `skip(...)`, or not `only(...)` while another test of the file is.
    public var skipped: Bool
    /// A whole file without tests that already ran to its end while its tests were looked for:
    /// it passed, and running it again would repeat its output.
    public var alreadyPassed = false

    /// The file's name and the test's, as lists and filters show them: `path: name`.
    public var fullName: String { index == 0 ? file : "\(file): \(name)" }
}

/// How one test went.
public struct TestResult: Error, Sendable, Equatable {
    public enum Status: String, Sendable { case passed, failed, skipped }

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
}

/// Finds and runs the tests of scripts: each test in a fresh Lua state, from a fresh start.
public struct TestRunner: Sendable {
    public var scripts: ScriptRunner

    public init(scripts: ScriptRunner = ScriptRunner()) {
        self.scripts = scripts
    }

    /// The tests of `file`, or a failed result when the file does not load or run.
    public func discover(file: String, root: String?) -> Result<[TestCase], TestResult> {
        let whole = TestCase(file: file, root: root, name: file, position: file, index: 0, skipped: false)
        do {
            let lua = try scripts.makeState(root: root)
            try lua.run(file: file)
            let listed = try lua.run("return stackplay._tests()", name: "=stackplay.runner")
            guard case .array(let entries)? = listed.first, !entries.isEmpty else {
                var ran = whole
                ran.alreadyPassed = true
                return .success([ran])
            }
            return .success(
                entries.enumerated().map { offset, entry in
                    guard case .table(let fields) = entry else { return whole }
                    var skipped = false
                    if case .boolean(let flag)? = fields["skipped"] { skipped = flag }
                    return TestCase(
                        file: file, root: root, name: fields["name"]?.string ?? "?",
                        position: fields["position"]?.string ?? file, index: offset + 1, skipped: skipped)
                })
        } catch {
            return .failure(Self.failed(whole, error))
        }
    }

    /// Runs one test in a fresh state: the file's top level again, then the test.
    public func run(_ test: TestCase) -> TestResult {
        if test.skipped { return TestResult(test: test, status: .skipped) }
        if test.alreadyPassed { return TestResult(test: test, status: .passed) }
        let clock = ContinuousClock()
        let start = clock.now
        var result = runUntimed(test)
        let elapsed = clock.now - start
        result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return result
    }

    private func runUntimed(_ test: TestCase) -> TestResult {
        do {
            let lua = try scripts.makeState(root: test.root)
            try lua.run(file: test.file)
            if test.index == 0 {
                return TestResult(test: test, status: .passed, traces: Self.traces(of: lua))
            }
            let outcome = try lua.run("return stackplay._run(\(test.index))", name: "=stackplay.runner")
            guard case .table(let fields)? = outcome.first else {
                return TestResult(
                    test: test, status: .failed, message: "stackplay: the test runner returned nothing")
            }
            let traces = Self.traces(of: lua)
            guard fields["status"]?.string == "failed" else {
                return TestResult(test: test, status: .passed, traces: traces)
            }
            return TestResult(
                test: test, status: .failed, message: fields["message"]?.string ?? "",
                traceback: fields["traceback"]?.string ?? "", dump: fields["dump"]?.string ?? "",
                position: fields["position"]?.string ?? "", traces: traces)
        } catch {
            return Self.failed(test, error)
        }
    }

    /// The traces the test's screens recorded (none when traces are off).
    private static func traces(of lua: LuaState) -> [String] {
        guard
            case .array(let texts)? = try? lua.run("return stackplay._traces()", name: "=stackplay.runner")
                .first
        else {
            return []
        }
        return texts.compactMap(\.string)
    }

    static func failed(_ test: TestCase, _ error: LuaFailure) -> TestResult {
        let position = error.message.firstMatch(of: /^([^\n]*?:\d+):/).map { String($0.1) } ?? ""
        return TestResult(
            test: test, status: .failed, message: error.message, traceback: error.traceback,
            position: position)
    }
}
