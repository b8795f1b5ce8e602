import Bindings
import LuaRuntime
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
/// file's snapshot). The parent sends a job's request down a pipe (bytes, length first; for the
/// batch of ``init(workers:count:timeout:body:)`` the job's index) and reads the worker's answer
/// back, length first. The parent stays single-threaded (it forks, so it must), and never waits
/// for a worker it let go: stopped workers are reaped later, without blocking.
final class WorkerPool {
    enum Outcome {
        /// What `body` returned.
        case finished([UInt8])
        /// The worker died while running the job: by `signal`, or exiting with `status`.
        case crashed(signal: Int32?, status: Int32)
        /// The job ran past the limit and its worker was killed.
        case timedOut(seconds: Double)
        /// The worker's watchdog ended it: its script spent the CPU budget inside C or Swift code
        /// ("x.lua:3: stopped: the script used its 10 s of CPU time (inside `string.rep`)").
        case stopped(message: String)
    }

    /// Set by SIGINT/SIGTERM: the signal's number. The pool stops handing out jobs and returns.
    nonisolated(unsafe) static var interruption: Int32 = 0

    /// Set by a batch's `done` (`--bail`): no job starts after it, and ``run(_:_:)`` returns as soon
    /// as it is set, leaving the jobs that run to be killed with ``killAll()``.
    var stopsHere = false

    /// Catches SIGINT and SIGTERM (the run reports what finished and exits 130/143) and ignores
    /// SIGPIPE (a dead worker's pipe must not kill the parent).
    static func installSignalHandlers() {
        Syscall.installSignalHandler([SIGINT, SIGTERM]) { signal in WorkerPool.interruption = signal }
        signal(SIGPIPE, SIG_IGN)
        // a parent may have started us with them blocked (spawned processes inherit the mask)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    private struct Worker {
        var pid: pid_t
        var requests: Int32  // parent writes job indices
        var answers: Int32  // parent reads answers
        var job: Int?
        var started: Double = 0
        var buffer: [UInt8] = []
        var closed = false
    }

    private let count: Int
    private let timeout: Double
    private let most: Int
    /// Answers a request (in a worker, or here when no worker can be made).
    private let serve: ([UInt8]) -> [UInt8]
    private var workers: [Worker] = []
    /// The requests of the batch running now.
    private var requests: [[UInt8]] = []
    /// The read buffer of ``receive(_:)``, made once: answers arrive once a test.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// A pool of `workers` processes for jobs `0..<count`; `body(index)` runs in a worker.
    /// `timeout`: seconds of wall time a job may take; 0 or less: no limit.
    convenience init(workers: Int, count: Int, timeout: Double, body: @escaping (Int) -> [UInt8]) {
        self.init(workers: workers, timeout: timeout, count: count) { request in
            var index = 0
            for (shift, byte) in request.prefix(8).enumerated() { index |= Int(byte) << (8 * shift) }
            return body(index)
        }
    }

    /// A pool of at most `workers` processes that answer requests with `serve`, batch after batch
    /// (``run(_:_:)``). `timeout`: seconds of wall time a job may take; 0 or less: no limit.
    init(workers: Int, timeout: Double, count: Int = 0, serve: @escaping ([UInt8]) -> [UInt8]) {
        self.count = count
        self.timeout = timeout
        self.most = max(1, workers)
        self.serve = serve
    }

    deinit {
        for worker in workers { stop(worker, kill: false) }
        Self.reapStopped()
    }

    /// Runs the jobs `0..<count` of ``init(workers:count:timeout:body:)``, as ``run(_:_:)``.
    func run(_ done: (Int, Outcome) -> Void) -> Bool {
        run((0..<count).map { index in withUnsafeBytes(of: Int64(index).littleEndian) { Array($0) } }, done)
    }

    /// Runs a job for each of `requests`, calling `done(index, outcome)` as each ends (in the order
    /// they end). Returns false when a signal interrupted the run before every job ended.
    func run(_ requests: [[UInt8]], _ done: (Int, Outcome) -> Void) -> Bool {
        let count = requests.count
        self.requests = requests
        defer { self.requests = [] }
        while workers.count < min(most, count), let worker = spawn() { workers.append(worker) }
        var next = 0
        var remaining = count
        if workers.isEmpty {
            // No process could be made: run here, unprotected, rather than not at all.
            for index in 0..<count { done(index, .finished(serve(requests[index]))) }
            return true
        }
        stopsHere = false
        while remaining > 0, !stopsHere {
            if Self.interruption != 0 { return false }
            if !workers.contains(where: { $0.pid > 0 }) {
                // Every worker is gone and none can be made: run what is left here, unprotected.
                while next < count {
                    done(next, .finished(serve(requests[next])))
                    next += 1
                }
                return true
            }
            for slot in workers.indices
            where workers[slot].pid > 0 && workers[slot].job == nil && next < count {
                if send(next, to: slot) {
                    next += 1
                } else {
                    // the worker is gone before it took the job: replace it and try again
                    replace(slot)
                }
            }
            // a gone slot polls fd -1, which poll() skips
            var fds = workers.map {
                pollfd(fd: $0.pid > 0 ? $0.answers : -1, events: Int16(POLLIN), revents: 0)
            }
            let wait = pollTimeout()
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            let now = Self.now()
            for slot in workers.indices {
                guard let job = workers[slot].job else { continue }
                if fds[slot].revents != 0 {
                    if let (answer, stopped) = receive(slot) {
                        if stopped {
                            // the worker ends right after its watchdog's frame: a new one takes its place
                            replace(slot)
                        } else {
                            workers[slot].job = nil
                        }
                        remaining -= 1
                        done(
                            job,
                            stopped
                                ? .stopped(message: String(decoding: answer, as: UTF8.self))
                                : .finished(answer))
                    } else if workers[slot].closed {
                        let (signal, status) = reap(workers[slot].pid)
                        replace(slot, alreadyReaped: true)
                        remaining -= 1
                        done(job, .crashed(signal: signal, status: status))
                    }
                } else if timeout > 0, now - workers[slot].started > timeout {
                    if workers[slot].pid > 0 { Glibc.kill(workers[slot].pid, SIGKILL) }
                    replace(slot)
                    remaining -= 1
                    done(job, .timedOut(seconds: timeout))
                }
            }
        }
        return true
    }

    // MARK: Workers

    private func spawn() -> Worker? {
        Self.reapStopped()
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        guard pipe(&requests) == 0 else { return nil }
        guard pipe(&answers) == 0 else {
            close(requests[0])
            close(requests[1])
            return nil
        }
        let pid = fork()
        if pid < 0 {
            for fd in requests + answers { close(fd) }
            return nil
        }
        if pid == 0 {
            // The worker: only its own two pipe ends stay open, so that the parent sees each
            // worker's death as the end of that worker's pipe.
            for other in workers where other.requests >= 0 {
                close(other.requests)
                close(other.answers)
            }
            close(requests[1])
            close(answers[0])
            Watchdog.answer(to: answers[1])
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_DFL)
            // A crash ends the worker at once, for the parent to report: the Swift runtime's
            // backtracer would print to the run's stderr and take seconds.
            for fatal in [SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTRAP] { signal(fatal, SIG_DFL) }
            serve(requests: requests[0], answers: answers[1])
        }
        close(requests[0])
        close(answers[1])
        return Worker(pid: pid, requests: requests[1], answers: answers[0])
    }

    /// The worker's loop: read a request, answer it, write the answer; end when the pipe closes.
    private func serve(requests: Int32, answers: Int32) -> Never {
        while true {
            var field: Int64 = 0
            guard withUnsafeMutableBytes(of: &field, { readFully(requests, $0) }) else { _exit(0) }
            let size = Int(Int64(littleEndian: field))
            guard size >= 0 else { _exit(1) }
            var request = [UInt8](repeating: 0, count: size)
            guard request.withUnsafeMutableBytes({ readFully(requests, $0) }) else { _exit(0) }
            let answer = serve(request)
            var length = Int64(answer.count).littleEndian
            let sent =
                withUnsafeBytes(of: &length) { writeFully(answers, $0) }
                && answer.withUnsafeBytes { writeFully(answers, $0) }
            guard sent else { _exit(1) }
        }
    }

    private func send(_ job: Int, to slot: Int) -> Bool {
        var length = Int64(requests[job].count).littleEndian
        guard withUnsafeBytes(of: &length, { writeFully(workers[slot].requests, $0) }),
            requests[job].withUnsafeBytes({ writeFully(workers[slot].requests, $0) })
        else { return false }
        workers[slot].job = job
        workers[slot].started = Self.now()
        workers[slot].buffer.removeAll(keepingCapacity: true)
        return true
    }

    /// Reads what is there; the whole answer once it has all arrived (and whether it is a
    /// watchdog's stop message), else nil.
    private func receive(_ slot: Int) -> ([UInt8], Bool)? {
        let fd = workers[slot].answers
        let got = chunk.withUnsafeMutableBytes { Syscall.read(fd, into: $0) }
        if got > 0 { workers[slot].buffer.append(contentsOf: chunk[0..<got]) }
        if got <= 0 { workers[slot].closed = true }
        let buffer = workers[slot].buffer
        guard buffer.count >= 8 else { return nil }
        var field: UInt64 = 0
        for shift in 0..<8 { field |= UInt64(buffer[shift]) << (8 * shift) }
        let stopped = field & Watchdog.stoppedFlag != 0
        guard let length = Int(exactly: field & ~Watchdog.stoppedFlag), length <= Int.max - 8 else {
            workers[slot].closed = true
            return nil
        }
        guard buffer.count >= 8 + length else { return nil }
        return (Array(buffer[8..<8 + length]), stopped)
    }

    private func replace(_ slot: Int, alreadyReaped: Bool = false) {
        let old = workers[slot]
        close(old.requests)
        close(old.answers)
        // The numbers may come back from the next pipe(): a new worker must not close them.
        workers[slot].requests = -1
        workers[slot].answers = -1
        if !alreadyReaped { Self.letGo(old.pid) }
        if let fresh = spawn() {
            workers[slot] = fresh
        } else {
            // no new process could be made: this slot is gone (pid 0 marks it)
            workers[slot].pid = 0
            workers[slot].job = nil
        }
    }

    private func stop(_ worker: Worker, kill: Bool) {
        guard worker.pid > 0 else { return }
        close(worker.requests)
        close(worker.answers)
        if kill || worker.job != nil { Glibc.kill(worker.pid, SIGKILL) }
        Self.letGo(worker.pid)
    }

    /// Workers told to stop (their pipes closed, or killed) and not reaped yet.
    nonisolated(unsafe) private static var stopped: [pid_t] = []

    /// Leaves `pid`, told to stop, to end on its own: reaped later (``reapStopped()``), so that the
    /// parent never waits for a worker's exit.
    private static func letGo(_ pid: pid_t) {
        stopped.append(pid)
        reapStopped()
    }

    /// Reaps the stopped workers that have ended, without waiting for the others.
    private static func reapStopped() {
        stopped.removeAll { pid in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result < 0 && errno != EINTR)
        }
    }

    /// Kills every worker at once (the run was interrupted).
    func killAll() {
        for worker in workers { stop(worker, kill: true) }
        workers.removeAll()
    }

    /// Waits for `pid` and says how it ended: the signal that killed it, or its exit status.
    private func reap(_ pid: pid_t) -> (Int32?, Int32) {
        let status = Syscall.wait(for: pid) ?? 0
        let signal = status & 0x7f
        if signal != 0 { return (signal, 0) }
        return (nil, (status >> 8) & 0xff)
    }

    private func pollTimeout() -> Int32 {
        guard timeout > 0 else { return -1 }
        let now = Self.now()
        let soonest = workers.compactMap { $0.job == nil ? nil : $0.started + timeout }.min()
        guard let soonest else { return -1 }
        return Int32(clamping: Int(max(0, (soonest - now) * 1000).rounded(.up)) + 1)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}

private func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
    Syscall.readFully(fd, buffer)
}

private func writeFully(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    Syscall.writeAll(fd, buffer) == nil
}
