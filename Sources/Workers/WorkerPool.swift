import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Runs jobs in worker processes, so that no test can take the run down: a worker that crashes
/// (a trap, a signal) or passes the wall-clock limit is reported as that job's outcome, a new
/// worker takes its place, and the other jobs go on.
///
/// The workers are forked from this process once, when the first batch needs them, and serve every
/// batch after it (a run's discovery, then its tests: a worker keeps what it built, such as a
/// file's snapshot). The parent sends jobs' requests down a pipe (bytes, after their length,
/// their weight and when to ring, ``run(count:request:key:weight:_:)``; for the
/// batch of ``init(workers:count:timeout:hooks:body:)`` the job's index), up to ``depth`` of them ahead
/// of the worker, so that it never waits for the parent between jobs; a job it had not started
/// when it died goes to the next worker.
///
/// A worker writes each answer to its answer pipe as soon as the job ends (length first, then the
/// time it ended, then the bytes), so that what it finished is there for the parent even if it
/// dies at the next job. It does not wake the parent for each: it rings a third pipe, the doorbell,
/// once the weight it answered since its last ring reaches what the parent's last requests said
/// (``ring`` before any said), once its unrung answers pass ``unrungMostBytes(pipe:)``, before it
/// would wait for a request, and in the middle of an answer that may not fit in the pipe (its length sent first, so the parent reads the rest as it comes);
/// the parent, woken by a ring (or a worker's death, the end of its doorbell, or its own
/// clock: at least every ``latency`` seconds while jobs run, so that a result is reported while a
/// slow test after it runs), reads every answer there is. Waking the parent was most of what a
/// small test cost beyond its own work on the 2-core machine (issue 21: a wake-up across cores
/// each answer, in a virtual machine). The parent stays single-threaded (it forks, so it must),
/// and never waits for a worker it let go: stopped workers are reaped later, without blocking.
package final class WorkerPool {
    package enum Outcome {
        /// What `body` returned.
        case finished([UInt8])
        /// The worker died while running the job: by `signal`, or exiting with `status`.
        case crashed(signal: Int32?, status: Int32)
        /// The job ran past the limit and its worker was killed.
        case timedOut(seconds: Double)
        /// The worker's watchdog ended it: its script spent the CPU budget inside C or Swift code
        /// ("x.lua:3: stopped: the script used its 10 s of CPU time (inside `string.rep`)"), what
        /// the test had printed by then, and how many bytes more it printed that were not kept.
        case stopped(message: String, output: String, dropped: Int)
    }

    /// What the pool's owner does at the moments only the pool sees: the pool knows processes and
    /// pipes, not the run's report or the Lua watchdog (docs/design/worker-wire.md).
    package struct Hooks {
        /// In a new worker, before it serves: with its answer pipe's write end (the runner forgets
        /// the report's held lines, which are the parent's to write, and points the CPU watchdog's
        /// stop frames at the pipe, ``stoppedFlag``).
        package var workerStarts: (_ answers: Int32) -> Void
        /// In the parent, before it sleeps waiting for answers (the runner writes what it reported).
        package var beforeWait: () -> Void
        /// A worker may not be forked (``forkRefusal(threads:)``): says so and ends the process.
        package var refused: (_ message: String) -> Never

        package init(
            workerStarts: @escaping (_ answers: Int32) -> Void, beforeWait: @escaping () -> Void,
            refused: @escaping (_ message: String) -> Never
        ) {
            self.workerStarts = workerStarts
            self.beforeWait = beforeWait
            self.refused = refused
        }

        /// Nothing at a worker's start or before a wait; a refusal on stderr, then exit status 1
        /// (a pool whose jobs are plain Swift, in the tests).
        package static var bare: Hooks {
            Hooks(
                workerStarts: { _ in }, beforeWait: {},
                refused: { message in
                    var line = message + "\n"
                    _ = line.withUTF8 { Syscall.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
                    exit(1)
                })
        }
    }

    /// The bit of an answer frame's length that marks a stop message written by the Lua CPU
    /// watchdog (watchdog.c writes the frame; ``Hooks/workerStarts`` points it at the pipe), not
    /// by the worker's loop.
    package static let stoppedFlag: UInt64 = 1 << 62

    /// Set by SIGINT/SIGTERM: the signal's number. The pool stops handing out jobs and returns.
    /// A C `volatile sig_atomic_t` (``Syscall/interruption``), which a handler may write.
    package static var interruption: Int32 {
        get { Syscall.interruption }
        set { Syscall.interruption = newValue }
    }

    /// Whether a worker is forked only from a process with one thread, and the run ends with
    /// ``forkRefusal(threads:)`` otherwise: a worker is forked without exec, and a lock another
    /// thread held at the fork stays held in it for ever (docs/design/worker-wire.md). On in the
    /// `stackplay` command (``StackplayCommand/run(_:)``), whose process has one thread; off in a
    /// host that calls the pool itself (`swift test`'s, which has many: its workers run code that
    /// takes no lock another of its threads may hold).
    nonisolated(unsafe) package static var forksOnlyAlone = false

    /// Why this process, with `threads` threads (nil: unknown), may not fork a worker; nil when it may.
    package static func forkRefusal(threads: Int?) -> String? {
        guard let threads, threads > 1 else { return nil }
        return "stackplay: cannot start a worker process: this process has \(threads) threads, and a worker "
            + "is forked without exec, which needs exactly one (docs/design/worker-wire.md)"
    }

    /// Set by a batch's `done` (`--bail`): no job starts after it, and ``run(count:request:key:_:)`` returns as soon
    /// as it is set, leaving the jobs that run to be killed with ``killAll()``.
    @exclusivity(unchecked) package var stopsHere = false

    /// Jobs a batch's `done` adds to the batch running (``extend(by:)``), taken up after it returns,
    /// and how many of them its worker runs of itself (``extend(by:runningAfter:)``).
    @exclusivity(unchecked) private var added = 0
    @exclusivity(unchecked) private var addedRunning = 0

    /// Adds `count` jobs to the batch running, numbered after its last: called from its `done`
    /// (a file's discovery answered, and its tests can run while other files are discovered).
    /// Their requests and keys come from the batch's `request` and `key`.
    package func extend(by count: Int) { added += max(0, count) }

    /// Adds `count` jobs that the worker whose answer `done` is handling runs of itself, right
    /// after that job and before any it was sent (``init(workers:timeout:count:hooks:serve:next:)``'s
    /// `next`): numbered after the batch's last (and any ``extend(by:)`` added in the same `done`).
    /// No request is sent for them, unless the worker dies first: then they go to another worker
    /// as any job it held.
    package func extend(by count: Int, runningAfter: Void) {
        precondition(added == addedRunning, "the jobs a worker runs of itself come first")
        added += max(0, count)
        addedRunning += max(0, count)
    }

    /// Catches SIGINT and SIGTERM (the run reports what finished and exits 130/143) and ignores
    /// SIGPIPE (a dead worker's pipe must not kill the parent).
    /// SIGINT's and SIGTERM's handler: records the first (the run ends, reporting what finished;
    /// a write waiting for its reader gives up, ``Syscall/writeAll(_:_:interruptible:)``); a
    /// second ends the process at once, whatever it is doing, with 128 + the signal.
    static let interruptionHandler: @convention(c) (Int32) -> Void = { signal in
        if WorkerPool.interruption != 0 || Syscall.signalled != 0 { _exit(128 + signal) }
        WorkerPool.interruption = signal
        Syscall.signalled = signal
    }

    package static func installSignalHandlers() {
        Syscall.installSignalHandler([SIGINT, SIGTERM], interruptionHandler)
        signal(SIGPIPE, SIG_IGN)
        // a parent may have started us with them blocked (spawned processes inherit the mask)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    /// How many jobs a worker holds at once: the one it runs and those sent behind it.
    static let depth = 128
    /// When a worker rings before the parent's first batch says otherwise (each batch says: once
    /// half of the weight it then holds is done, so that the parent sends more while the rest runs).
    static let ring = depth / 2
    /// The most request bytes sent behind a worker's running job: they fit in the pipe, so that
    /// writing them never waits for a worker that may hang.
    private static let queuedMost = 32 << 10
    /// The most answer bytes a worker leaves in its pipe unrung: a quarter of the pipe, so that a
    /// watchdog's stop frame still fits (``answerPipeBytes`` when the system grants it, else the
    /// 64 KiB pipes start with).
    static func unrungMostBytes(pipe bytes: Int) -> Int { max(16 << 10, bytes / 4) }
    /// The room asked for in each answer pipe: a worker's answers wait there, unrung, while the
    /// parent sleeps (a few wake-ups a run instead of one every few dozen results).
    static let answerPipeBytes = 256 << 10
    /// Seconds the parent sleeps at most while jobs run: a result waits no longer than this for
    /// its report while a slow test after it runs.
    static let latency = 0.01

    struct Worker {
        var pid: pid_t
        var requests: Int32  // parent writes requests
        var answers: Int32  // parent reads answers (non-blocking)
        var doorbell: Int32  // parent reads rings (non-blocking); its end is the worker's death
        /// The jobs sent, in order: the first is running (or about to), the others wait behind it.
        var jobs: [Int] = []
        /// Each of `jobs`' request size and when it was sent.
        var sizes: [Int] = []
        var sentAt: [Double] = []
        /// When the first of `jobs` started (as near as the parent knows: the end of the one before,
        /// which its answer carries, or its sending).
        var started: Double = 0
        var buffer: [UInt8] = []
        /// Where the first answer not taken yet starts in `buffer`.
        var head = 0
        var closed = false

        /// The request bytes waiting behind the running job.
        var queuedBytes: Int { sizes.dropFirst().reduce(0, +) }
    }

    private let count: Int
    let timeout: Double
    private let most: Int
    /// Answers a request (in a worker, or here when no worker can be made).
    let serve: ([UInt8]) -> [UInt8]
    /// The answer of the next job a worker runs of itself, if it has one (``extend(by:runningAfter:)``).
    let next: () -> [UInt8]?
    let hooks: Hooks
    // (unchecked exclusivity, here and below: the pool is one thread's, and its methods lend no
    // property out across another access; read and written at every answer)
    @exclusivity(unchecked) var workers: [Worker] = []
    /// The keys each worker slot's process served (``run(count:request:key:_:)``).
    @exclusivity(unchecked) var served: [Set<String>] = []
    /// The request of each job of the batch running now, made when the job is sent (a 10,000-test
    /// batch holds no 10,000 requests).
    @exclusivity(unchecked) private var request: (Int) -> [UInt8] = { _ in [] }
    /// The read buffer of ``readAnswers(_:)``, made once, at its first read: after the workers
    /// are forked (made before, its pages would be theirs too, and copied at the first write).
    @exclusivity(unchecked) var chunk: [UInt8] = []

    /// A pool of `workers` processes for jobs `0..<count`; `body(index)` runs in a worker.
    /// `timeout`: seconds of wall time a job may take; 0 or less: no limit.
    package convenience init(
        workers: Int, count: Int, timeout: Double, hooks: Hooks, body: @escaping (Int) -> [UInt8]
    ) {
        self.init(workers: workers, timeout: timeout, count: count, hooks: hooks) { request in
            var index = 0
            for (shift, byte) in request.prefix(8).enumerated() { index |= Int(byte) << (8 * shift) }
            return body(index)
        }
    }

    /// A pool of at most `workers` processes that answer requests with `serve`, batch after batch
    /// (``run(_:_:)``). `timeout`: seconds of wall time a job may take; 0 or less: no limit.
    /// `next`: in a worker, the answer of the next job it runs of itself, before it reads another
    /// request (none by default). `hooks`: what the pool's owner does at a worker's start, before
    /// a wait and at a refusal to fork.
    package init(
        workers: Int, timeout: Double, count: Int = 0, hooks: Hooks, serve: @escaping ([UInt8]) -> [UInt8],
        next: @escaping () -> [UInt8]? = { nil }
    ) {
        self.count = count
        self.timeout = timeout
        self.most = max(1, workers)
        self.serve = serve
        self.next = next
        self.hooks = hooks
    }

    deinit {
        for worker in workers { stop(worker, kill: false) }
        Self.reapStopped()
    }

    /// Runs the jobs `0..<count` of ``init(workers:count:timeout:hooks:body:)``, as ``run(_:_:)``.
    package func run(_ done: (Int, Outcome) -> Void) -> Bool {
        run((0..<count).map { index in withUnsafeBytes(of: Int64(index).littleEndian) { Array($0) } }, done)
    }

    /// Runs a job for each of `requests`, as ``run(count:request:key:_:)``.
    package func run(_ requests: [[UInt8]], _ done: (Int, Outcome) -> Void) -> Bool {
        run(count: requests.count, request: { requests[$0] }, done)
    }

    /// Runs `count` jobs, job `index` answering `request(index)` (asked for when the job is sent),
    /// calling `done(index, outcome)` as each ends (in the order they end). Jobs next to each other
    /// with the same `key` (a file's tests) go to one worker, the one that served the key before
    /// when it is free (a file's discovery: it has the file's snapshot) (``JobOrder``). Returns
    /// false when a signal interrupted the run before every job ended (what had finished by then
    /// is handed to `done` first).
    ///
    /// `weight(index)`: how much of a worker's queue job `index` takes (1 by default): a job that
    /// leads to others the worker runs of itself (``extend(by:runningAfter:)``) counts for them,
    /// so that a worker never holds more of the batch than it can run before another is free.
    package func run(
        count: Int, request: @escaping (Int) -> [UInt8], key: ((Int) -> String)? = nil,
        weight: ((Int) -> Int)? = nil, _ done: (Int, Outcome) -> Void
    ) -> Bool {
        self.request = request
        defer { self.request = { _ in [] } }
        // a job sent behind another may meet a worker that has just died: its pipe's end must not
        // end this process
        signal(SIGPIPE, SIG_IGN)
        // one worker first (the others are forked once it has its jobs: it starts while they are made)
        while workers.count < min(1, count), let worker = spawn(elsewhere: true) { workers.append(worker) }
        while served.count < workers.count { served.append([]) }
        var order = JobOrder(count: count, key: key)
        var remaining = count
        // the weight of the jobs not finished (``run(count:request:key:weight:_:)``)
        let weigh = weight ?? { _ in 1 }
        var remainingWeight = (0..<count).reduce(0) { $0 + weigh($1) }
        added = 0
        addedRunning = 0
        /// The jobs `done` added, in the batch from now on; those the worker in `slot` runs of
        /// itself are its next jobs (none when `slot` is nil: they ran here).
        @discardableResult
        func takeAdded(from slot: Int? = nil, ended: Double = 0) -> Range<Int> {
            guard added > 0 else { return 0..<0 }
            let running = order.count..<order.count + addedRunning
            order.extend(to: order.count + addedRunning, served: served, taken: true)
            order.extend(to: order.count + added - addedRunning, served: served)
            remainingWeight += (order.count - added..<order.count).reduce(0) { $0 + weigh($1) }
            remaining += added
            added = 0
            addedRunning = 0
            if let slot, !running.isEmpty {
                workers[slot].jobs.insert(contentsOf: running, at: 0)
                workers[slot].sizes.insert(contentsOf: repeatElement(0, count: running.count), at: 0)
                workers[slot].sentAt.insert(contentsOf: repeatElement(ended, count: running.count), at: 0)
                workers[slot].started = ended
            }
            return running
        }
        /// Serves job `index` here, with the jobs it adds that run of themselves after it.
        func serveHere(_ index: Int) {
            done(index, .finished(serve(request(index))))
            for job in takeAdded() { done(job, .finished(next() ?? [])) }
        }
        // Jobs sent behind another to a worker that was gone before it started them: sent again.
        var again: [Int] = []
        func nextJob(for slot: Int) -> Int? {
            if !again.isEmpty { return again.removeFirst() }
            if served.isEmpty { served.append([]) }
            return order.next(for: slot, served: &served[slot])
        }
        if workers.isEmpty {
            // No process could be made: run here, unprotected, rather than not at all.
            while let job = nextJob(for: 0) { serveHere(job) }
            return true
        }
        /// Replaces the worker in `slot`, its job ended; the jobs it held behind it are sent again.
        func replacing(_ slot: Int, alreadyReaped: Bool = false) {
            again.insert(contentsOf: workers[slot].jobs.dropFirst(), at: 0)
            replace(slot, alreadyReaped: alreadyReaped)
        }
        /// Hands over every whole answer that has arrived from the worker in `slot`, in order, and
        /// the end of a worker that died (not when the run `ending`, interrupted: then only what
        /// finished); false once `--bail` stopped the batch.
        func takeAnswers(_ slot: Int, ending: Bool = false) -> Bool {
            while let job = workers[slot].jobs.first,
                let (answer, ended) = takeAnswer(slot, finishedOnly: ending)
            {
                remaining -= 1
                remainingWeight -= weigh(job)
                if let ended {
                    workers[slot].jobs.removeFirst()
                    workers[slot].sizes.removeFirst()
                    workers[slot].sentAt.removeFirst()
                    if let sent = workers[slot].sentAt.first { workers[slot].started = max(ended, sent) }
                    done(job, .finished(answer))
                    takeAdded(from: slot, ended: ended)
                } else {
                    // the worker ends right after its watchdog's frame: a new one takes its place
                    replacing(slot)
                    let (message, output, dropped) = Self.stop(answer)
                    done(job, .stopped(message: message, output: output, dropped: dropped))
                    takeAdded()
                    return !stopsHere
                }
                if stopsHere { return false }
            }
            if !ending, let job = workers[slot].jobs.first, workers[slot].closed {
                let (signal, status) = reap(workers[slot].pid)
                replacing(slot, alreadyReaped: true)
                remaining -= 1
                remainingWeight -= weigh(job)
                done(job, .crashed(signal: signal, status: status))
                takeAdded()
            }
            return !stopsHere
        }
        /// Every answer that has arrived from every worker (the run ends: an interruption).
        func takeEveryAnswer() {
            for slot in workers.indices where workers[slot].pid > 0 && !workers[slot].jobs.isEmpty {
                readAnswers(slot)
                guard takeAnswers(slot, ending: true) else { return }
            }
        }
        stopsHere = false
        while remaining > 0, !stopsHere {
            if Self.interruption != 0 {
                takeEveryAnswer()
                return false
            }
            if !workers.contains(where: { $0.pid > 0 }) {
                // Every worker is gone and none can be made: run what is left here, unprotected.
                while let job = nextJob(for: 0) { serveHere(job) }
                return true
            }
            // Each worker gets jobs, up to `depth` of them, so that it starts the next job as soon as
            // it has answered one, without waiting for this process to read the answer.
            // Near the end, fewer: a job sent to one worker cannot move to another that has run out.
            // (the workers about to be forked count: each gets its share of the first jobs)
            let live = max(workers.filter { $0.pid > 0 }.count, min(most, order.count))
            // (by weight; near the end at most half of each worker's share: the rest goes to
            // whichever frees up first, and the workers end together)
            let depth = min(Self.depth, max(2, remainingWeight / max(1, 2 * live)))
            // The jobs for one worker go in one write.
            func fill(_ slot: Int) -> Bool {
                var batch: [Int] = []
                var sizes: [Int] = []
                var frames: [UInt8] = []
                var ringFields: [Int] = []
                var held = workers[slot].jobs.reduce(0) { $0 + weigh($1) }
                var queued = workers[slot].queuedBytes
                while held < depth, let job = nextJob(for: slot) {
                    let bytes = request(job)
                    if held > 0, queued + bytes.count > Self.queuedMost {
                        again.insert(job, at: 0)
                        break
                    }
                    if held > 0 { queued += bytes.count }
                    // length, weight, when to ring (set below), request
                    withUnsafeBytes(of: Int64(bytes.count).littleEndian) { frames.append(contentsOf: $0) }
                    withUnsafeBytes(of: Int64(weigh(job)).littleEndian) { frames.append(contentsOf: $0) }
                    ringFields.append(frames.count)
                    frames.append(contentsOf: repeatElement(0, count: 8))
                    frames.append(contentsOf: bytes)
                    batch.append(job)
                    sizes.append(bytes.count)
                    held += weigh(job)
                }
                guard !batch.isEmpty else { return true }
                // the worker rings once half of what it holds is done: this process sends more
                // while the other half runs
                let ringAfter = Int64(max(1, held / 2)).littleEndian
                for field in ringFields {
                    withUnsafeBytes(of: ringAfter) { frames.replaceSubrange(field..<field + 8, with: $0) }
                }
                guard send(batch, sizes: sizes, frames: frames, to: slot) else {
                    // the worker is gone before it took the jobs: they wait for another (the one it
                    // was running, if any, ends as a crash when its pipe is read)
                    again.insert(contentsOf: batch, at: 0)
                    return false
                }
                return true
            }
            func fillOrReplace(_ slot: Int) {
                for _ in 0..<3 {
                    guard workers[slot].pid > 0, !fill(slot), workers[slot].jobs.isEmpty else { break }
                    replace(slot)
                }
            }
            for slot in workers.indices { fillOrReplace(slot) }
            // the rest of the workers (all of them at the batch's start, more when it grew), each
            // given its jobs as soon as it is forked
            while workers.count < min(most, order.count), let worker = spawn() {
                workers.append(worker)
                served.append([])
                fillOrReplace(workers.count - 1)
            }
            // a gone slot polls fd -1, which poll() skips; a worker in the middle of an answer is
            // read as it writes
            var fds: [pollfd] = []
            for worker in workers {
                let busy = worker.pid > 0 && !worker.jobs.isEmpty
                fds.append(pollfd(fd: busy ? worker.doorbell : -1, events: Int16(POLLIN), revents: 0))
                let partial = busy && worker.head < worker.buffer.count
                fds.append(pollfd(fd: partial ? worker.answers : -1, events: Int16(POLLIN), revents: 0))
            }
            let wait = pollTimeout()
            hooks.beforeWait()  // what was reported is written before the wait
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            for slot in workers.indices {
                guard !workers[slot].jobs.isEmpty else { continue }
                if fds[2 * slot].revents != 0 { drainDoorbell(slot) }
                readAnswers(slot)
                guard takeAnswers(slot) else { break }
                if let job = workers[slot].jobs.first, timeout > 0,
                    Self.now() - workers[slot].started > timeout
                {
                    if workers[slot].pid > 0 { Glibc.kill(workers[slot].pid, SIGKILL) }
                    replacing(slot)
                    remaining -= 1
                    remainingWeight -= weigh(job)
                    done(job, .timedOut(seconds: timeout))
                    takeAdded()
                }
            }
        }
        return true
    }

    /// How long the parent may sleep: until the soonest job's limit, and ``latency`` at most while
    /// jobs run; -1 (no limit) when none does.
    private func pollTimeout() -> Int32 {
        let running = workers.filter { $0.pid > 0 && !$0.jobs.isEmpty }
        guard !running.isEmpty else { return -1 }
        var wait = Self.latency
        if timeout > 0, let soonest = running.map({ $0.started + timeout }).min() {
            wait = min(wait, max(0, soonest - Self.now()))
        }
        return Int32(clamping: Int((wait * 1000).rounded(.up)) + 1)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
