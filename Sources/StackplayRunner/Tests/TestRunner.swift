import Bindings
import StackModel
import TestResults
import Traces

/// Finds and runs the tests of scripts: each test in a state at its start (``StatePolicy``), with
/// repeats, the matrix and the mirror check around it; the Lua side of a test is Bindings'
/// ``ScriptTests``.
public struct TestRunner: Sendable {
    public var scripts: ScriptRunner
    /// The run's seed (`--seed`): each test's `math.random` starts from a seed made from it and the
    /// test's file and name.
    public var seed: Int
    /// The run's `--matrix`: a variant whose setting the test's screens all give themselves is
    /// reported skipped, the one that runs is the test's own value (``Matrix/overridden(_:fixed:)``).
    var matrix = Matrix()

    /// This runner's states in this process: snapshot-restored ones unless they are switched off
    /// (a forked worker has its own copy).
    let states = StatePolicies.standard()

    public init(scripts: ScriptRunner = ScriptRunner(), seed: Int = RunSeed.standard) {
        self.scripts = scripts
        self.seed = seed
    }

    /// The Lua side of this runner's tests.
    private var tests: ScriptTests { ScriptTests(scripts: scripts, seed: seed, states: states) }

    /// The tests of `file`, or a failed result when the file does not load or run.
    public func discover(file: String, root: String?) -> Result<[TestCase], TestResult> {
        discoverRunning(file: file, root: root).outcome
    }

    /// What finding a file's tests found.
    public typealias Discovered = ScriptTests.Discovered

    /// The tests of `file`, as ``discover(file:root:)``; a whole script's result comes with it.
    public func discoverRunning(file: String, root: String?) -> Discovered {
        discoverRunning(file: file, root: root, each: nil)
    }

    /// As ``discoverRunning(file:root:)``, handing each test the file lists to `each` as it is read
    /// (``ScriptTests/discover(file:root:each:loadedOnce:)``). `loadedOnce` is for a file loaded
    /// once in this process (``LoneFile``): a fresh state, kept open until the process ends.
    func discoverRunning(
        file: String, root: String?, each: ((_ test: TestCase, _ of: Int) -> Void)?, loadedOnce: Bool = false
    ) -> Discovered {
        tests.discover(file: file, root: root, each: each, loadedOnce: loadedOnce)
    }

    /// Why the tests of `file` re-run its top level in this process (no snapshot after it), if they do.
    public func snapshotFallback(for file: String) -> String? { states.fallback(for: file) }

    /// Runs one test in a fresh state: the file's top level again, then the test. With
    /// `repeats` > 1 it runs that many times, each from a fresh start, and fails when the outcome,
    /// the output or a trace differs between runs.
    public func run(_ test: TestCase, repeats: Int = 1) -> TestResult {
        if test.skipped { return TestResult(test: test, status: .skipped) }
        return overridden(repeated(repeats) { [timed { runMirrorChecked(test) }] }[0])
    }

    /// `result`, or a skipped result saying why when its variant sets a key the test's screens
    /// all set themselves, to another value than the one that runs (``Matrix/overridden(_:fixed:)``).
    private func overridden(_ result: TestResult, fixed: [String: String]?? = nil) -> TestResult {
        guard let reason = matrix.overridden(result.test.variant, fixed: fixed ?? result.fixedSettings) else {
            return result
        }
        var skipped = TestResult(test: result.test, status: .skipped, message: reason)
        skipped.seed = result.seed
        skipped.seconds = result.seconds
        return skipped
    }

    /// Runs `plain` and `mirrored`, its copy in the mirrored world (`--mirror`), as
    /// ``run(_:repeats:)`` runs each: the plain run is the mirrored run's twin, so each runs once,
    /// not the plain one twice.
    public func run(plain: TestCase, mirrored: TestCase, repeats: Int = 1)
        -> (plain: TestResult, mirrored: TestResult)
    {
        if plain.skipped || mirrored.skipped {
            return (run(plain, repeats: repeats), run(mirrored, repeats: repeats))
        }
        let results = repeated(repeats) {
            var twin = mirrored
            twin.variant = mirrored.variant.twin
            let compared = timed { runUntimed(twin) }
            var plainResult = compared
            // what the plain run reports: its own test, and only the traces it asked for
            plainResult.test = plain
            plainResult.traces = compared.requestedTraces
            var checked = timed { MirrorCheck.check(runUntimed(mirrored), twin: compared, kinds: traceKinds) }
            checked.seconds += compared.seconds
            return [plainResult, checked]
        }
        // the twin's screens are the plain run's, and the mirrored run's but for the mirror
        let fixed = results[0].fixedSettings
        return (overridden(results[0], fixed: fixed), overridden(results[1], fixed: fixed))
    }

    /// `body`'s results (each timed) `repeats` times, each from a fresh start: a result that differs
    /// from its first run fails as flaky; the times add up.
    private func repeated(_ repeats: Int, _ body: () -> [TestResult]) -> [TestResult] {
        var results = body()
        var flagged = Array(repeating: false, count: results.count)
        var run = 1
        while run < repeats, flagged.contains(false) {
            run += 1
            let again = body()
            for index in results.indices where !flagged[index] {
                results[index].seconds += again[index].seconds
                guard let difference = Self.difference(results[index], again[index]) else { continue }
                flagged[index] = true
                results[index].status = .failed
                results[index].message =
                    "\(results[index].test.position): flaky: run \(run) of \(repeats) differs from run 1: \(difference)\n"
                    + "  To fix: find what the test reads that is not the same on every run."
            }
        }
        return results
    }

    /// `body`'s result with the wall time it took.
    private func timed(_ body: () -> TestResult) -> TestResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = body()
        result.seconds = ScriptTests.seconds(since: start, on: clock)
        return result
    }

    /// Runs `test` in a state at its start (``ScriptTests/run(_:)``), untimed.
    func runUntimed(_ test: TestCase) -> TestResult { tests.run(test) }

    /// What differs between two runs of one test, or nil.
    static func difference(_ first: TestResult, _ other: TestResult) -> String? {
        if first.status != other.status {
            return "it \(first.status.rawValue) then \(other.status.rawValue)"
                + (other.message.isEmpty ? "" : " (\(other.message))")
        }
        if first.message != other.message {
            return "the failure message: \(quoted(first.message)) then \(quoted(other.message))"
        }
        if first.output != other.output {
            return "the output: " + firstLineDifference(first.output, other.output)
        }
        if first.traces.count != other.traces.count {
            return "it made \(first.traces.count) recorded screens then \(other.traces.count)"
        }
        for (index, (a, b)) in zip(first.traces, other.traces).enumerated() where a != b {
            return "the trace of screen \(index + 1): " + firstLineDifference(a, b)
        }
        return nil
    }

    private static func firstLineDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? String(left[index]) : "(nothing)"
            let y = index < right.count ? String(right[index]) : "(nothing)"
            if x != y { return "line \(index + 1) was \(quoted(x)), then \(quoted(y))" }
        }
        return "they differ"
    }

    private static func quoted(_ text: String) -> String {
        let short = text.count > 200 ? String(text.prefix(200)) + "..." : text
        return "'" + short.replacing("\n", with: "\\n") + "'"
    }
}
