import Bindings
import StackModel
import TestResults
import Traces
import Workers

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
        let pool = WorkerPool(workers: jobs, timeout: timeout, hooks: .runner) { request in
            Self.answer(request, runner: runner, repeats: repeats)
        } next: {
            Self.runOwn(runner: runner, repeats: repeats)
        }
        workers.pool = pool
        return pool
    }

    /// Lets the workers go (killed when a signal ended the run); the next use forks new ones.
    private func release(killing: Bool) {
        if killing { workers.pool?.killAll() }
        workers.pool = nil
    }

    /// How many of a file's first tests its worker runs as soon as it has found them, unasked
    /// (``discoverAndRun(_:running:pending:report:deliver:)``): few, so that near the end of a run
    /// no worker waits long for another to finish what it started.
    static let runningAfterDiscovery = 16

    /// In a worker: the tests of the file it discovered last that it runs of itself, next
    /// (``discoveryRequest(_:running:)``).
    nonisolated(unsafe) private static var own: [TestCase] = []

    /// The answer of the next test the worker runs of itself, if any: as a test's request would
    /// have it.
    private static func runOwn(runner: TestRunner, repeats: Int) -> [UInt8]? {
        guard !own.isEmpty else { return nil }
        let test = own.removeFirst()
        var wire = WireWriter()
        wire.result(runner.run(test, repeats: repeats), known: test)
        return wire.bytes
    }

    /// A worker's answer to `request`: a file's tests, or one test's result (two for a mirror pair).
    private static func answer(_ request: [UInt8], runner: TestRunner, repeats: Int) -> [UInt8] {
        var reader = WireReader(request)
        var wire = WireWriter()
        wire.reserve(1024)
        switch reader.int().flatMap(Request.init(rawValue:)) {
        case .discover?:
            guard let path = reader.string(), let root = reader.optionalString(), let running = reader.int()
            else { break }
            // the tests go into the answer as they are read (a 10,000-test list is never whole here)
            var streamed = 0
            var first: [TestCase] = []
            let discovered = runner.discoverRunning(file: path, root: root) { test, count in
                if streamed == 0 {
                    wire.bool(true)
                    wire.int(count)
                }
                if streamed < running { first.append(test) }
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
                // the file's first tests, run next without being asked (a whole script ran already)
                own = discovered.ran == nil ? first : []
                wire.int(own.count)
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
            Self.discoveryRequest(scripts[index], running: 0)
        } key: {
            scripts[$0].path
        } _: { index, outcome in
            found[index] = Self.discovered(outcome, of: scripts[index]).found
        }
        if !ended { release(killing: true) }
        return (found.compactMap { $0 }, ended)
    }

    /// The request that finds `script`'s tests; the worker then runs the first `running` of them
    /// (plain, in their order) of itself, as if each had been sent (``WorkerPool/extend(by:runningAfter:)``).
    private static func discoveryRequest(_ script: Script, running: Int) -> [UInt8] {
        var wire = WireWriter()
        wire.int(Request.discover.rawValue)
        wire.string(script.path)
        wire.optionalString(script.root)
        wire.int(running)
        return wire.bytes
    }

    /// What a worker's answer to ``discoveryRequest(_:running:)`` says: the file's tests, or its
    /// failure, and how many of its first tests the worker is running of itself.
    private static func discovered(_ outcome: WorkerPool.Outcome, of script: Script) -> (
        found: TestRunner.Discovered, running: Int
    ) {
        var whole: TestCase {
            TestCase(
                file: script.path, root: script.root, name: script.path, position: script.path, index: 0,
                skipped: false)
        }
        guard case .finished(let bytes) = outcome else {
            return (.init(outcome: .failure(Self.lost(whole, outcome, while: "while loading"))), 0)
        }
        var wire = WireReader(bytes)
        if wire.bool() == true, let count = wire.int(), count >= 0 {
            var tests: [TestCase] = []
            tests.reserveCapacity(min(count, bytes.count))
            for _ in 0..<count {
                guard let test = wire.test(after: tests.last) else { break }
                tests.append(test)
            }
            if tests.count == count, let fallback = wire.optionalString(), let hasRun = wire.bool() {
                let ran = hasRun ? wire.result() : nil
                if !hasRun || ran != nil, let running = wire.int(), (0...count).contains(running) {
                    return (.init(outcome: .success(tests), ran: ran, fallback: fallback), running)
                }
            }
        } else if let result = wire.result() {
            return (.init(outcome: .failure(result)), 0)
        }
        let unreadable = Self.lost(whole, .crashed(signal: nil, status: -1), while: "while loading")
        return (.init(outcome: .failure(unreadable)), 0)
    }

    /// One job of a run: a test, or a test followed by its mirrored copy (`--mirror`: the plain run
    /// is the mirrored run's twin, and both run in one job).
    private struct Unit {
        let first: TestCase
        let twin: TestCase?
        var count: Int { twin == nil ? 1 : 2 }

        /// What a unit becomes once its results are reported.
        static let reported = Unit(
            first: TestCase(file: "", root: nil, name: "", position: "", index: 0, skipped: false), twin: nil)
    }

    /// `tests` cut into jobs.
    private static func units(of tests: [TestCase]) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(tests.count)
        var index = 0
        while index < tests.count {
            let test = tests[index]
            // (a next test that is not mirrored is no copy: no copy is made to compare it with)
            let paired =
                index + 1 < tests.count && !test.isMirrored && tests[index + 1].isMirrored
                && tests[index + 1] == test.under(test.variant.mirrored)
            units.append(Unit(first: test, twin: paired ? tests[index + 1] : nil))
            index += paired ? 2 : 1
        }
        return units
    }

    private static func request(_ unit: Unit) -> [UInt8] {
        var wire = WireWriter()
        wire.reserve(512)
        wire.int((unit.twin == nil ? Request.test : Request.mirrorPair).rawValue)
        wire.test(unit.first)
        if let twin = unit.twin { wire.test(twin) }
        return wire.bytes
    }

    /// Hands each result of `unit`, read from its worker's answer, to `body` in order (its failure
    /// for each test when the worker crashed, hung or answered nonsense).
    private static func eachResult(
        of unit: Unit, _ outcome: WorkerPool.Outcome, _ body: (TestResult) -> Void
    ) {
        if case .finished(let bytes) = outcome {
            var wire = WireReader(bytes)
            // the worker leaves out a result's test when it is the one it was sent
            if let result = wire.result(known: unit.first) {
                guard let twin = unit.twin else { return body(result) }
                if let second = wire.result(known: twin) {
                    body(result)
                    body(second)
                    return
                }
            }
        }
        body(Self.lost(unit.first, outcome, while: ""))
        if let twin = unit.twin { body(Self.lost(twin, outcome, while: "")) }
    }

    /// What ``discoverAndRun(_:running:pending:found:deliver:)`` keeps while its batch runs, read
    /// and written at every answer. Unchecked exclusivity: one thread, and no access lends a
    /// property out across another.
    private final class Batch {
        /// Each file's tests, once its discovery answered.
        @exclusivity(unchecked) var discovered: [TestRunner.Discovered?]
        /// The run's jobs after the files' discoveries: job `files + k` runs `units[k]`.
        @exclusivity(unchecked) var units: [Unit] = []
        /// Each file's units, in its pending tests' order.
        @exclusivity(unchecked) var unitsOf: [[Int]]
        /// Each unit's outcome once it finished, until its turn comes (a few bytes each).
        @exclusivity(unchecked) var finished: [WorkerPool.Outcome?] = []
        /// The file being reported (handed to `found`), whether it was, and its next unit to report.
        @exclusivity(unchecked) var file = 0
        @exclusivity(unchecked) var announced = false
        @exclusivity(unchecked) var unit = 0

        /// What a file's discovery becomes once the file is reported.
        nonisolated(unsafe) static let reported = TestRunner.Discovered(outcome: .success([]))

        init(files: Int) {
            discovered = Array(repeating: nil, count: files)
            unitsOf = Array(repeating: [], count: files)
        }
    }

    /// Finds the tests of `scripts` and runs them in one batch: a file's tests go to the workers as
    /// soon as its discovery answers (`pending(index, discovered)`: the tests of script `index` to
    /// run, in their order), so that no worker waits for the last file to be discovered, and the
    /// report goes file by file: once every file before it is reported, a file is handed to
    /// `found`, then each of its results to `deliver`, in its pending tests' order, as they finish.
    /// Returns whether the run ended without a signal (an interrupted run has handed over what
    /// finished, in order, the tests that did not run left out).
    ///
    /// `running`: how many of each file's first tests its worker runs right after finding them,
    /// unasked, when they are the first it has to run (no request goes out for them); 0 when
    /// the pending tests are not the file's tests as they are (a matrix, a mirror, a selection).
    func discoverAndRun(
        _ scripts: [Script], running: Int, pending: (Int, TestRunner.Discovered) -> [TestCase],
        found: (Int, TestRunner.Discovered) -> Void, deliver: (TestResult) -> Void
    ) -> Bool {
        let files = scripts.count
        let batch = Batch(files: files)
        func handOverInOrder() {
            while batch.file < files, let current = batch.discovered[batch.file] {
                if !batch.announced {
                    found(batch.file, current)
                    batch.announced = true
                }
                let ids = batch.unitsOf[batch.file]
                while batch.unit < ids.count, let outcome = batch.finished[ids[batch.unit]] {
                    let id = ids[batch.unit]
                    batch.finished[id] = nil
                    Self.eachResult(of: batch.units[id], outcome, deliver)
                    // reported: its tests go (a long run holds only the files still to report)
                    batch.units[id] = Unit.reported
                    batch.unit += 1
                }
                guard batch.unit == ids.count else { return }
                batch.discovered[batch.file] = Batch.reported
                batch.unitsOf[batch.file] = []
                batch.file += 1
                batch.announced = false
                batch.unit = 0
            }
        }
        let pool = self.pool
        let ended = pool.run(count: files) { job in
            job < files
                ? Self.discoveryRequest(scripts[job], running: running)
                : Self.request(batch.units[job - files])
        } key: { job in
            job < files ? scripts[job].path : batch.units[job - files].first.file
        } weight: { job in
            // a file's discovery holds its worker for the tests it runs after it: a worker holds a
            // few files at a time, and the files are shared out as the workers free up
            job < files ? 1 + running : 1
        } _: { job, outcome in
            guard job < files else {
                batch.finished[job - files] = outcome
                handOverInOrder()
                return
            }
            let (found, ran) = Self.discovered(outcome, of: scripts[job])
            batch.discovered[job] = found
            let added = Self.units(of: pending(job, found))
            var ids: [Int] = []
            ids.reserveCapacity(added.count)
            if ran > 0, case .success(let listed) = found.outcome {
                // the tests its worker is running now, unasked: each a job, first in its list
                let first = batch.units.count
                batch.units += listed.prefix(ran).map { Unit(first: $0, twin: nil) }
                batch.finished += repeatElement(nil, count: ran)
                pool.extend(by: ran, runningAfter: ())
                // (they are the first pending tests; any that are not are run, never reported)
                for (offset, unit) in added.enumerated() {
                    guard offset < ran, unit.twin == nil, unit.first == batch.units[first + offset].first
                    else {
                        break
                    }
                    ids.append(first + offset)
                }
            }
            let more = added.dropFirst(ids.count)
            ids += batch.units.count..<batch.units.count + more.count
            batch.units += more
            batch.finished += repeatElement(nil, count: more.count)
            pool.extend(by: more.count)
            batch.unitsOf[job] = ids
            handOverInOrder()
        }
        release(killing: !ended || pool.stopsHere)
        if !ended {
            // an interrupted run: what finished, in order, the tests that did not run left out
            while batch.file < files, let current = batch.discovered[batch.file] {
                if !batch.announced { found(batch.file, current) }
                for id in batch.unitsOf[batch.file].dropFirst(batch.unit) {
                    guard let outcome = batch.finished[id] else { continue }
                    Self.eachResult(of: batch.units[id], outcome, deliver)
                }
                batch.file += 1
                batch.announced = false
                batch.unit = 0
            }
        }
        return ended
    }

    /// Runs `tests`, handing each result to `deliver` (with its test's index) in the tests' order, as soon as it and every
    /// one before it have finished (the run holds only the few that finished ahead of another).
    /// Returns false when a signal ended the run early: the results that finished are handed over
    /// first, in order, the tests that did not run left out. A test followed by its mirrored copy
    /// (`--mirror`) is one job: the plain run is the mirrored run's twin.
    func run(_ tests: [TestCase], deliver: (Int, TestResult) -> Void) -> Bool {
        let units = Self.units(of: tests)
        // each job's first test's index in `tests`
        var firsts: [Int] = []
        firsts.reserveCapacity(units.count)
        var first = 0
        for unit in units {
            firsts.append(first)
            first += unit.count
        }
        // jobs that finished before one ahead of them, as their workers answered (read when
        // their turn comes: a few bytes each, not a TestResult moved at every growth of the table)
        var ahead: [Int: WorkerPool.Outcome] = [:]
        var nextJob = 0
        var delivered = 0
        var bailed = false
        // `--bail`: the first failed test in the tests' order ends the run; what finished after
        // it (a worker runs the jobs it holds behind another) is not reported.
        func handOver(_ job: Int, _ outcome: WorkerPool.Outcome) {
            Self.eachResult(of: units[job], outcome) { result in
                guard !bailed else { return }
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
            Self.request(units[job])
        } key: {
            units[$0].first.file
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
                var offset = 0
                Self.eachResult(of: units[job], ahead[job]!) { result in
                    deliver(firsts[job] + offset, result)
                    offset += 1
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
        case .stopped(let message, let output, let dropped):
            // the budget's own stop, said where the script was: the same words as a Lua-side stop,
            // and what the test printed before it (sent with the stop)
            var result = TestResult(
                test: test, status: .failed, message: ScriptTests.budgetHint(message),
                position: message.firstRange(of: ": stopped: ").map { String(message[..<$0.lowerBound]) }
                    ?? test.position)
            result.output = dropped > 0 ? output + CapturedOutput.droppedLine(dropped) : output
            return result
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
