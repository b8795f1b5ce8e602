import LuaRuntime
import StackModel
import TestResults
import Traces

/// The Lua side of running a script's tests (the runner's ``TestRunner`` holds the rest: repeats,
/// the matrix, the mirror check): finds a file's tests and runs one of them in a state from
/// ``StatePolicy``, and reads its verdict, output and traces.
///
/// The verdict is the runner's own: a test passed only when the prelude's runner table, which
/// lives in the Lua registry out of the script's reach, saw every step return; anything else
/// (an error, a budget stop, a runner that returned something unexpected) is a failure. Output
/// and traces are read from the Swift session, never through Lua.
public struct ScriptTests: Sendable {
    /// The states' sandbox, budget and modules.
    public var scripts: ScriptRunner
    /// The run's seed (`--seed`): each test's `math.random` starts from a seed made from it and the
    /// test's file and name.
    public var seed: Int
    /// Where each test's state comes from.
    public var states: any StatePolicy

    public init(scripts: ScriptRunner, seed: Int, states: any StatePolicy) {
        self.scripts = scripts
        self.seed = seed
        self.states = states
    }

    /// What finding a file's tests found.
    public struct Discovered {
        /// The tests, or the failure of a file that does not load or run.
        public var outcome: Result<[TestCase], TestResult>
        /// A file without tests is one test, the whole script, and finding that out ran it: its
        /// result, as ``run(_:)`` gives it for the script in its plain variant.
        public var ran: TestResult?
        /// Why the file's tests re-run its top level in this process (no snapshot after it), if they do.
        public var fallback: String?

        public init(
            outcome: Result<[TestCase], TestResult>, ran: TestResult? = nil, fallback: String? = nil
        ) {
            self.outcome = outcome
            self.ran = ran
            self.fallback = fallback
        }
    }

    /// The tests of `file`, or the failure of a file that does not load or run; a whole script's
    /// result comes with them. With `each`, each test the file lists is handed to it as it is read
    /// (with how many there are), in order, instead of kept: a worker writes them to its answer,
    /// and a 10,000-test file's list is never whole in it. The outcome's list then holds only what
    /// is not listed: a whole script's one test, or nothing.
    ///
    /// `loadedOnce` is for a file loaded once in this process (the runner's lone file): its state
    /// is a fresh one, never snapshotted (no test restores it), and kept open instead of closed
    /// (``leftOpen``): the process ends with it open, as a worker does with its states (closing
    /// would run finalizers).
    public func discover(
        file: String, root: String?, each: ((_ test: TestCase, _ of: Int) -> Void)? = nil,
        loadedOnce: Bool = false
    ) -> Discovered {
        let clock = ContinuousClock()
        let start = clock.now
        let whole = TestCase(file: file, root: root, name: file, position: file, index: 0, skipped: false)
        let seed = RunSeed.seed(seed, file: file, name: file)
        var lua: LuaState?
        defer { if loadedOnce, let lua { Self.keepOpen(lua) } }
        do {
            let state = try prepared(
                file: file, root: root, variant: ScreenVariant(), seed: seed, listing: true,
                once: loadedOnce, into: &lua)
            let fallback = states.fallback(for: file)
            let (tests, listed, explorations) = try Self.listing(
                of: state, file: file, root: root, whole: whole, each: each)
            guard listed > 0 else {
                // A file that only declares explorations has no tests: `stackplay explore` runs it.
                if explorations > 0 { return Discovered(outcome: .success([]), fallback: fallback) }
                var result = TestResult(test: whole, status: .passed)
                result.seed = seed
                Self.collect(state, into: &result)
                result.seconds = Self.seconds(since: start, on: clock)
                return Discovered(outcome: .success([whole]), ran: result, fallback: fallback)
            }
            return Discovered(outcome: .success(tests), fallback: fallback)
        } catch {
            var failed = Self.failed(whole, error, in: lua)
            failed.seed = seed
            if let lua { Self.collect(lua, into: &failed) }
            return Discovered(outcome: .failure(failed))
        }
    }

    /// The states of the files loaded once in this process, open until the process ends.
    nonisolated(unsafe) private static var leftOpen: [LuaState] = []

    private static func keepOpen(_ lua: LuaState) { leftOpen.append(lua) }

    /// The tests the prelude registered for `file` (`runner.tests()` hands its own list over), read
    /// entry by entry from the Lua stack (a whole Swift copy of a 10,000-test listing was 5 MB of a
    /// worker's peak, the list of copies the prelude made 3 MB more), and how many explorations it
    /// declares. An entry that is not a table is `whole`, as before.
    private static func listing(
        of state: LuaState, file: String, root: String?, whole: TestCase, each: ((TestCase, Int) -> Void)?
    ) throws(LuaFailure) -> (tests: [TestCase], listed: Int, explorations: Int) {
        var tests: [TestCase] = []
        var listed = 0
        var explorations = 0
        let stack = state.stack
        func read(_ first: Int32, _ count: Int32) {
            if count > 1, let number = stack.rawNumber(at: first + 1) { explorations = Int(number) }
            let focus = count > 2 && stack.strictBoolean(first + 2) == true
            guard count > 0, stack.isTable(first) else { return }
            listed = stack.rawLength(first)
            if each == nil { tests.reserveCapacity(listed) }
            for offset in 0..<listed {
                stack.pushElement(offset + 1, of: first)
                defer { stack.pop(1) }
                guard stack.isTable(-1) else {
                    if let each { each(whole, listed) } else { tests.append(whole) }
                    continue
                }
                let mode = field(stack, "mode", \.string)
                let test = TestCase(
                    file: file, root: root, name: field(stack, "name", \.string) ?? "?",
                    position: field(stack, "position", \.string) ?? file, index: offset + 1,
                    skipped: mode == "skip" || (focus && mode != "only"), focused: mode == "only",
                    tags: field(stack, "tags", \.strings) ?? [])
                if let each { each(test, listed) } else { tests.append(test) }
            }
        }
        // no collection marks the file's objects after its snapshot (the list's strings, if any)
        try state.withCollectorStopped { () throws(LuaFailure) in
            try state.callRunner("tests", [], reading: read)
        }
        return (tests, listed, explorations)
    }

    /// What the stack's reading `read` gives of field `key` of the table on top, as a LuaValue
    /// would: a string only from a string, a boolean only from a boolean, a list's strings.
    private static func field<T>(_ stack: LuaStack, _ key: String, _ read: (ListedValue) -> T?) -> T? {
        stack.pushField(key, of: -1)
        defer { stack.pop(1) }
        return read(ListedValue(stack: stack))
    }

    /// The value on top of the stack, read as ``LuaValue``'s `string`, `boolean` and `strings` read.
    private struct ListedValue {
        let stack: LuaStack
        var string: String? { stack.isString(-1) ? stack.string(-1) : nil }
        var boolean: Bool? { stack.strictBoolean(-1) }
        var strings: [String]? {
            guard stack.isTable(-1) else { return nil }
            return (0..<stack.rawLength(-1)).compactMap { index in
                stack.pushElement(index + 1, of: -1)
                defer { stack.pop(1) }
                return stack.isString(-1) ? stack.string(-1) : nil
            }
        }
    }

    /// A state at the start of a test of `file` (or of the whole script), from ``states`` (a fresh
    /// one, `once`, for a file loaded once): its top level has run, `math.random` is seeded with
    /// `seed`. `lua` is set as soon as there is a state, so that a top level that raises is
    /// reported with what it printed.
    private func prepared(
        file: String, root: String?, variant: ScreenVariant, seed: Int, wholeScript: Bool = false,
        listing: Bool = false, once: Bool = false, into lua: inout LuaState?
    ) throws(LuaFailure) -> LuaState {
        let policy: any StatePolicy = once ? FreshStates() : states
        return try policy.prepared(
            file: file, root: root, variant: variant, seed: seed, wholeScript: wholeScript, listing: listing,
            scripts: scripts, into: &lua)
    }

    /// Runs one test (``TestCase/index`` 0: the whole script) in a state at its start, untimed.
    public func run(_ test: TestCase) -> TestResult {
        // The name in the file, not the variant's: every copy of a test draws the same numbers.
        let seed = RunSeed.seed(seed, file: test.file, name: test.baseName)
        var lua: LuaState?
        var result: TestResult
        do {
            let state = try prepared(
                file: test.file, root: test.root, variant: test.variant, seed: seed,
                wholeScript: test.index == 0,
                into: &lua)
            if test.index == 0 {
                // an `expect` the script left without a matcher fails it (its listing checks the same)
                if case .table(let fields)? = try state.callRunner("unfinished", []).first {
                    result = Self.failure(test, fields)
                } else {
                    result = TestResult(test: test, status: .passed)
                }
            } else {
                let outcome = try state.callRunner("run", [.integer(test.index), .string(test.baseName)])
                switch outcome.first {
                case .nil?, nil:
                    result = TestResult(test: test, status: .passed)
                case .table(let fields)? where fields["mismatch"]?.boolean == true:
                    // The file's tests differ from those discovery listed: never run another's.
                    let now = fields["now"]?.string.map { "it is '\($0)'" } ?? "there is none"
                    let count = fields["count"].flatMap { $0.number.map { Int($0) } } ?? 0
                    result = TestResult(
                        test: test, status: .failed,
                        message:
                            "\(test.position): the file's tests changed between listing and running: test "
                            + "\(test.index) was listed as '\(test.baseName)', now \(now) (of \(count) tests); a file's "
                            + "test names and count must not depend on math.random, os.time or os.clock at its top level",
                        position: test.position)
                case .table(let fields)?:
                    result = Self.failure(test, fields)
                default:
                    result = TestResult(
                        test: test, status: .failed,
                        message: "stackplay: the test runner returned nothing it knows")
                }
            }
        } catch {
            result = Self.failed(test, error, in: lua)
        }
        result.seed = seed
        if let lua { Self.collect(lua, into: &result) }
        return result
    }

    /// The failed result of `test` from the prelude's description of its failure (`describe`).
    private static func failure(_ test: TestCase, _ fields: [String: LuaValue]) -> TestResult {
        var result = TestResult(
            test: test, status: .failed,
            message: LuaFailure.bounded(fields["message"]?.string ?? ""),
            traceback: LuaFailure.bounded(traceback: scriptFrames(fields["traceback"]?.string ?? "")),
            position: fields["position"]?.string ?? "")
        if fields["assertion"]?.boolean == true { result.kind = .failure }
        result.expected = LuaFailure.bounded(fields["expected"]?.string ?? "")
        result.actual = LuaFailure.bounded(fields["actual"]?.string ?? "")
        result.diff = LuaFailure.bounded(fields["diff"]?.string ?? "")
        return result
    }

    /// The seconds from `start` to now on `clock`.
    package static func seconds(since start: ContinuousClock.Instant, on clock: ContinuousClock) -> Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The output, the traces and, for a failure, the screens' state: read from the session.
    private static func collect(_ lua: LuaState, into result: inout TestResult) {
        lua.session.applyAudit(to: &result)
        result.output = lua.session.output.captured
        result.traces = lua.session.recorders.map(\.text)
        // A trace that could not be recorded whole (a frame of infinite numbers, a trace past
        // what `replay` reads) fails the test: what is written always reads back.
        for (index, recorder) in lua.session.recorders.enumerated() {
            guard let refusal = recorder.refusal else { continue }
            let note = "\(result.test.position): screen \(index + 1)'s trace is cut short: \(refusal)"
            result.message = result.message.isEmpty ? note : result.message + "\n" + note
            if result.status != .failed { result.position = result.test.position }
            result.status = .failed
        }
        result.requestedTraces = lua.session.requestedRecorders.map(\.text)
        result.asksMirror = lua.session.asksMirror
        result.fixedSettings = lua.session.fixedSettings
        if result.status == .failed { result.dump = lua.session.dump() }
        if result.status == .failed, result.kind == .failure, let moving = lua.session.stillAnimating() {
            result.message += "\n" + moving
        }
        // The gesture that most likely made the expectation fail, as its gate explained it.
        if result.status == .failed, result.kind == .failure,
            let cause = lua.session.gestures.cause(of: result.message)
        {
            result.cause = cause.line
            result.causePosition = cause.position
            result.message += "\n  likely cause: " + cause.line
        }
    }

    /// The result of a test or script that raised `error`. A script without tests whose
    /// expectation failed is a failure (with both sides), not an error: its failure reaches here
    /// as text, and the prelude keeps the last one for comparison.
    static func failed(_ test: TestCase, _ error: LuaFailure, in lua: LuaState? = nil) -> TestResult {
        let frames = scriptFrames(error.traceback)
        var message = error.message
        var at = position(in: message)
        // An error raised in stackplay's own Lua is placed at the script's nearest frame.
        if at.hasPrefix("stackplay/"), let script = firstFrame(frames) ?? firstFrame(error.traceback) {
            message = script + message.dropFirst(at.count)
            at = script
        }
        var result = TestResult(
            test: test, status: .failed, message: budgetHint(message), traceback: frames, position: at)
        if test.index == 0, error.kind == .error, let lua,
            case .table(let fields)? = try? lua.callRunner("last_failure", []).first,
            fields["message"]?.string == error.message
        {
            result.kind = .failure
            result.expected = fields["expected"]?.string ?? ""
            result.actual = fields["actual"]?.string ?? ""
            result.diff = fields["diff"]?.string ?? ""
        }
        return result
    }

    /// The script's own frames of a Lua traceback: the prelude, the sandbox and the runner (and
    /// the C functions that connect them) are noise to the reader. "" when no frame is left (a
    /// budget stop is raised from the runner's frames).
    static func scriptFrames(_ traceback: String) -> String {
        let noise = [
            "stackplay/", "(...tail calls...)", "in function 'xpcall'", "in function 'error'", "[C]: in ?",
            "'raw_xpcall'", "[C]: in metamethod 'index'", "[C]: in upvalue 'golden'",
            "[C]: in upvalue 'audit'",
        ]
        let kept = traceback.split(separator: "\n").filter { line in !noise.contains { line.contains($0) } }
        guard kept.count > 1 else { return "" }
        return kept.joined(separator: "\n")
    }

    /// A budget stop's message with the flag that raises the budget (`--cpu-budget`,
    /// `--memory-budget`) under it; any other message as it is.
    package static func budgetHint(_ message: String) -> String {
        guard message.contains("stopped: the script used its ") else { return message }
        if message.contains(" of CPU time") {
            return message
                + "\n  To fix: a test that needs more raises it with --cpu-budget SECONDS (cpu_budget in .stackplay.lua)."
        }
        if message.contains(" of memory") {
            return message
                + "\n  To fix: a test that needs more raises it with --memory-budget MIB (memory_budget in .stackplay.lua)."
        }
        return message
    }

    /// The `path:line` of a traceback's first frame outside stackplay's own Lua, or nil.
    static func firstFrame(_ traceback: String) -> String? {
        for line in traceback.split(separator: "\n") {
            let frame = line.drop { $0 == "\t" || $0 == " " }
            guard !frame.hasPrefix("stackplay/"), !frame.hasPrefix("["), !frame.hasPrefix("(") else {
                continue
            }
            let at = position(in: String(frame))
            if !at.isEmpty { return at }
        }
        return nil
    }

    /// The `path:line` a message starts with, or "".
    static func position(in message: String) -> String {
        let firstLine = message.prefix { $0 != "\n" }
        var end = firstLine.startIndex
        // the last ":<digits>:" of the first line's leading `path:line:`
        var index = firstLine.startIndex
        while let colon = firstLine[index...].firstIndex(of: ":") {
            let digits = firstLine[firstLine.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
            let after = digits.endIndex
            if !digits.isEmpty, after < firstLine.endIndex, firstLine[after] == ":" {
                end = after
                break
            }
            index = firstLine.index(after: colon)
        }
        return String(firstLine[..<end])
    }
}
