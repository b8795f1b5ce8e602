import Bindings
import StackModel
import TestResults
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// Finds and runs tests in worker processes (``WorkerPool``): a test that crashes or hangs is
/// that test's failure ("crashed: signal 4 (Illegal instruction)", "timed out after 120 s"), and
/// every other result stays intact.
struct IsolatedRunner {
    let runner: TestRunner
    let jobs: Int
    /// Seconds of wall time one file's loading or one test may take.
    let timeout: Double
    /// `--repeat N`.
    let repeats: Int
    /// `--bail`: the first failed test ends the run; the tests not yet run have no result.
    var bail = false
    /// The run's worker processes: forked for the discovery, they serve the tests after it (a
    /// worker keeps the snapshots it made of the files it discovered).
    private let workers = Workers()

    private final class Workers {
        var pool: WorkerPool?
    }

    /// What a worker is asked to do.
    private enum Request: Int {
        case discover = 0
        case test = 1
        case mirrorPair = 2
    }

    /// The pool, made on first use.
    private var pool: WorkerPool {
        if let pool = workers.pool { return pool }
        let runner = self.runner
        let repeats = self.repeats
        let pool = WorkerPool(workers: jobs, timeout: timeout) { request in
            Self.answer(request, runner: runner, repeats: repeats)
        }
        workers.pool = pool
        return pool
    }

    /// Lets the workers go (killed when a signal ended the run); the next use forks new ones.
    private func release(killing: Bool) {
        if killing { workers.pool?.killAll() }
        workers.pool = nil
    }

    /// A worker's answer to `request`: a file's tests, or one test's result (two for a mirror pair).
    private static func answer(_ request: [UInt8], runner: TestRunner, repeats: Int) -> [UInt8] {
        var reader = WireReader(request)
        var wire = WireWriter()
        wire.reserve(1024)
        switch reader.int().flatMap(Request.init(rawValue:)) {
        case .discover?:
            guard let path = reader.string(), let root = reader.optionalString() else { break }
            // the tests go into the answer as they are read (a 10,000-test list is never whole here)
            var streamed = 0
            let discovered = runner.discoverRunning(file: path, root: root) { test, count in
                if streamed == 0 {
                    wire.bool(true)
                    wire.int(count)
                }
                let before = wire.bytes.count
                wire.test(test)
                // room for all of them, twice what the first takes each, in one piece
                if streamed == 0 { wire.reserve(2 * (wire.bytes.count - before) * count + 4096) }
                streamed += 1
            }
            switch discovered.outcome {
            case .success(let tests):
                if streamed == 0 {
                    wire.bool(true)
                    wire.int(tests.count)
                }
                for test in tests { wire.test(test) }
                wire.optionalString(discovered.fallback)
                wire.bool(discovered.ran != nil)
                if let ran = discovered.ran { wire.result(ran) }
            case .failure(let result):
                wire.bool(false)
                wire.result(result)
            }
        case .test?:
            guard let test = reader.test() else { break }
            wire.result(runner.run(test, repeats: repeats), known: test)
        case .mirrorPair?:
            guard let plain = reader.test(), let mirrored = reader.test() else { break }
            let (first, second) = runner.run(plain: plain, mirrored: mirrored, repeats: repeats)
            wire.result(first, known: plain)
            wire.result(second, known: mirrored)
        case nil: break
        }
        return wire.bytes
    }

    /// Each script's tests, in the scripts' order (with a whole script's result, which finding it
    /// out ran); false when a signal ended the search early.
    func discover(_ scripts: [Script]) -> ([TestRunner.Discovered], Bool) {
        var found: [TestRunner.Discovered?] = Array(repeating: nil, count: scripts.count)
        let ended = pool.run(count: scripts.count) { index in
            var wire = WireWriter()
            wire.int(Request.discover.rawValue)
            wire.string(scripts[index].path)
            wire.optionalString(scripts[index].root)
            return wire.bytes
        } key: {
            scripts[$0].path
        } _: { index, outcome in
            let whole = TestCase(
                file: scripts[index].path, root: scripts[index].root, name: scripts[index].path,
                position: scripts[index].path, index: 0, skipped: false)
            guard case .finished(let bytes) = outcome else {
                found[index] = .init(outcome: .failure(Self.lost(whole, outcome, while: "while loading")))
                return
            }
            var wire = WireReader(bytes)
            if wire.bool() == true, let count = wire.int(), count >= 0 {
                var tests: [TestCase] = []
                for _ in 0..<count {
                    guard let test = wire.test() else { break }
                    tests.append(test)
                }
                if tests.count == count, let fallback = wire.optionalString(), let hasRun = wire.bool() {
                    let ran = hasRun ? wire.result() : nil
                    if !hasRun || ran != nil {
                        found[index] = .init(outcome: .success(tests), ran: ran, fallback: fallback)
                        return
                    }
                }
            } else if let result = wire.result() {
                found[index] = .init(outcome: .failure(result))
                return
            }
            found[index] = .init(
                outcome: .failure(Self.lost(whole, .crashed(signal: nil, status: -1), while: "while loading"))
            )
        }
        if !ended { release(killing: true) }
        return (found.compactMap { $0 }, ended)
    }

    /// Runs `tests`, handing each result to `deliver` (with its test's index) in the tests' order, as soon as it and every
    /// one before it have finished (the run holds only the few that finished ahead of another).
    /// Returns false when a signal ended the run early: the results that finished are handed over
    /// first, in order, the tests that did not run left out. A test followed by its mirrored copy
    /// (`--mirror`) is one job: the plain run is the mirrored run's twin.
    func run(_ tests: [TestCase], deliver: (Int, TestResult) -> Void) -> Bool {
        // Each job's first test (`units`); a pair's mirrored copy is the next one.
        var units: [(first: Int, paired: Bool)] = []
        var index = 0
        while index < tests.count {
            let test = tests[index]
            // (a next test that is not mirrored is no copy: no copy is made to compare it with)
            let paired =
                index + 1 < tests.count && !test.variant.isMirrored && tests[index + 1].variant.isMirrored
                && tests[index + 1] == test.under(test.variant.mirrored)
            units.append((index, paired))
            index += paired ? 2 : 1
        }
        // jobs that finished before one ahead of them, as their workers answered (read when
        // their turn comes: a few bytes each, not a TestResult moved at every growth of the table)
        var ahead: [Int: WorkerPool.Outcome] = [:]
        var nextJob = 0
        var delivered = 0
        var bailed = false
        /// The results of `job`, read from its worker's answer.
        func results(_ job: Int, _ outcome: WorkerPool.Outcome) -> [TestResult] {
            let (first, paired) = units[job]
            let indices = first..<first + (paired ? 2 : 1)
            var read: [TestResult] = []
            read.reserveCapacity(indices.count)
            if case .finished(let bytes) = outcome {
                var wire = WireReader(bytes)
                // the worker leaves out a result's test when it is the one it was sent
                for index in indices {
                    guard let result = wire.result(known: tests[index]) else { break }
                    read.append(result)
                }
            }
            if read.count != indices.count { read = indices.map { Self.lost(tests[$0], outcome, while: "") } }
            return read
        }
        // `--bail`: the first failed test in the tests' order ends the run; what finished after
        // it (a worker runs the jobs it holds behind another) is not reported.
        func handOver(_ job: Int, _ outcome: WorkerPool.Outcome) {
            for result in results(job, outcome) where !bailed {
                deliver(delivered, result)
                delivered += 1
                if bail, result.status == .failed {
                    bailed = true
                    pool.stopsHere = true
                }
            }
            nextJob = job + 1
        }
        let ended = pool.run(count: units.count) { job in
            let (first, paired) = units[job]
            var wire = WireWriter()
            wire.reserve(512)
            wire.int((paired ? Request.mirrorPair : Request.test).rawValue)
            wire.test(tests[first])
            if paired { wire.test(tests[first + 1]) }
            return wire.bytes
        } key: {
            tests[units[$0].first].file
        } _: { job, outcome in
            guard !bailed else { return }
            // the next in order, with none ahead of it waiting: handed over without the table
            if job == nextJob, ahead.isEmpty {
                handOver(job, outcome)
            } else {
                ahead[job] = outcome
            }
            while !bailed, let outcome = ahead.removeValue(forKey: nextJob) { handOver(nextJob, outcome) }
        }
        release(killing: !ended || pool.stopsHere)
        if !bailed {
            // an interrupted run: what finished, in order, the tests that did not run left out
            for job in ahead.keys.sorted() {
                for (offset, result) in results(job, ahead[job]!).enumerated() {
                    deliver(units[job].first + offset, result)
                }
            }
        }
        return ended
    }

    /// The failure of a test whose worker crashed, hung or answered nonsense.
    static func lost(_ test: TestCase, _ outcome: WorkerPool.Outcome, while doing: String) -> TestResult {
        let what: String
        switch outcome {
        case .crashed(let signal?, _):
            what = "crashed\(doing.isEmpty ? "" : " " + doing): signal \(signal) (\(signalName(signal)))"
        case .crashed(nil, let status) where status >= 0:
            what = "crashed\(doing.isEmpty ? "" : " " + doing): its process exited with status \(status)"
        case .crashed, .finished:
            what = "crashed\(doing.isEmpty ? "" : " " + doing): its process sent back an unreadable result"
        case .stopped(let message):
            // the budget's own stop, said where the script was: the same words as a Lua-side stop
            return TestResult(
                test: test, status: .failed, message: message,
                position: message.firstRange(of: ": stopped: ").map { String(message[..<$0.lowerBound]) }
                    ?? test.position)
        case .timedOut(let seconds):
            what =
                "timed out\(doing.isEmpty ? "" : " " + doing) after \(formatNumber(seconds)) s "
                + "(--timeout); the process running it was killed"
        }
        return TestResult(
            test: test, status: .failed, message: "\(test.position): \(what)", position: test.position)
    }

    private static func signalName(_ signal: Int32) -> String {
        guard let name = strsignal(signal) else { return "unknown signal" }
        return String(cString: name)
    }
}
