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
/// back, length first; a worker holds the next job's request in its pipe while it runs one (a
/// small request: one that cannot fill the pipe), so that it never waits for the parent between
/// jobs, and a job it had not started when it died goes to the next worker. The parent stays
/// single-threaded (it forks, so it must), and never waits for a worker it let go: stopped
/// workers are reaped later, without blocking.
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

    /// Set by a batch's `done` (`--bail`): no job starts after it, and ``run(count:request:key:_:)`` returns as soon
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
        /// The job it is running, and the one sent behind it (in the pipe, not started).
        var job: Int?
        var queued: Int?
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
    /// The keys each worker slot's process served (``run(count:request:key:_:)``).
    private var served: [Set<String>] = []
    /// The request of each job of the batch running now, made when the job is sent (a 10,000-test
    /// batch holds no 10,000 requests).
    private var request: (Int) -> [UInt8] = { _ in [] }
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

    /// Runs a job for each of `requests`, as ``run(count:request:key:_:)``.
    func run(_ requests: [[UInt8]], _ done: (Int, Outcome) -> Void) -> Bool {
        run(count: requests.count, request: { requests[$0] }, done)
    }

    /// Runs `count` jobs, job `index` answering `request(index)` (asked for when the job is sent),
    /// calling `done(index, outcome)` as each ends (in the order they end). Jobs next to each other
    /// with the same `key` (a file's tests) go to one worker, the one that served the key before
    /// when it is free (a file's discovery: it has the file's snapshot) (``JobOrder``). Returns
    /// false when a signal interrupted the run before every job ended.
    func run(
        count: Int, request: @escaping (Int) -> [UInt8], key: ((Int) -> String)? = nil,
        _ done: (Int, Outcome) -> Void
    ) -> Bool {
        self.request = request
        defer { self.request = { _ in [] } }
        // a job sent behind another may meet a worker that has just died: its pipe's end must not
        // end this process
        signal(SIGPIPE, SIG_IGN)
        while workers.count < min(most, count), let worker = spawn() { workers.append(worker) }
        while served.count < workers.count { served.append([]) }
        var order = JobOrder(count: count, key: key)
        var remaining = count
        if workers.isEmpty {
            // No process could be made: run here, unprotected, rather than not at all.
            for index in 0..<count { done(index, .finished(serve(request(index)))) }
            return true
        }
        // Jobs sent behind another to a worker that was gone before it started them: sent again.
        var again: [Int] = []
        func nextJob(for slot: Int) -> Int? {
            if !again.isEmpty { return again.removeFirst() }
            return order.next(for: slot, served: &served[slot])
        }
        /// Replaces the worker in `slot`, its job ended; the job it held behind it is sent again.
        func replacing(_ slot: Int, alreadyReaped: Bool = false) {
            if let queued = workers[slot].queued { again.append(queued) }
            replace(slot, alreadyReaped: alreadyReaped)
        }
        stopsHere = false
        while remaining > 0, !stopsHere {
            if Self.interruption != 0 { return false }
            if !workers.contains(where: { $0.pid > 0 }) {
                // Every worker is gone and none can be made: run what is left here, unprotected.
                while let job = nextJob(for: 0) { done(job, .finished(serve(request(job)))) }
                return true
            }
            // Each worker gets a job, and a small one behind it, so that it starts the next job as
            // soon as it has answered one, without waiting for this process to read the answer.
            for slot in workers.indices {
                while workers[slot].pid > 0, workers[slot].queued == nil, let job = nextJob(for: slot) {
                    let bytes = request(job)
                    if workers[slot].job != nil, bytes.count > Self.queuedMost {
                        again.insert(job, at: 0)
                        break
                    }
                    if !send(job, bytes, to: slot) {
                        // the worker is gone before it took the job: the job waits for another (the
                        // one it was running, if any, ends as a crash when its pipe is read)
                        again.insert(job, at: 0)
                        guard workers[slot].job == nil else { break }
                        replace(slot)
                    }
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
                guard workers[slot].job != nil else { continue }
                if fds[slot].revents != 0 {
                    readAnswers(slot)
                    // every whole answer that has arrived, in order: a job's, then the one behind it
                    while let job = workers[slot].job, let (answer, stopped) = takeAnswer(slot) {
                        remaining -= 1
                        if stopped {
                            // the worker ends right after its watchdog's frame: a new one takes its place
                            replacing(slot)
                        } else {
                            workers[slot].job = workers[slot].queued
                            workers[slot].queued = nil
                            workers[slot].started = now
                        }
                        done(
                            job,
                            stopped
                                ? .stopped(message: String(decoding: answer, as: UTF8.self))
                                : .finished(answer))
                        if stopped { break }
                    }
                    if let job = workers[slot].job, workers[slot].closed {
                        let (signal, status) = reap(workers[slot].pid)
                        replacing(slot, alreadyReaped: true)
                        remaining -= 1
                        done(job, .crashed(signal: signal, status: status))
                    }
                } else if let job = workers[slot].job, timeout > 0, now - workers[slot].started > timeout {
                    if workers[slot].pid > 0 { Glibc.kill(workers[slot].pid, SIGKILL) }
                    replacing(slot)
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

    /// The largest request sent to a worker behind the job it is running: one that fits in the
    /// pipe beside another, so that writing it never waits for a worker that may hang.
    private static let queuedMost = 4096

    /// Sends `bytes`, the request of `job`, to the worker in `slot`: its job, or the one behind it.
    private func send(_ job: Int, _ bytes: [UInt8], to slot: Int) -> Bool {
        var length = Int64(bytes.count).littleEndian
        guard withUnsafeBytes(of: &length, { writeFully(workers[slot].requests, $0) }),
            bytes.withUnsafeBytes({ writeFully(workers[slot].requests, $0) })
        else { return false }
        if workers[slot].job == nil {
            workers[slot].job = job
            workers[slot].started = Self.now()
        } else {
            workers[slot].queued = job
        }
        return true
    }

    /// Reads what is there into the worker's buffer (the end of its pipe marks it closed).
    private func readAnswers(_ slot: Int) {
        let fd = workers[slot].answers
        let got = chunk.withUnsafeMutableBytes { Syscall.read(fd, into: $0) }
        if got > 0 { workers[slot].buffer.append(contentsOf: chunk[0..<got]) }
        if got <= 0 { workers[slot].closed = true }
        // a long answer (a 10,000-test file's list) gets its whole room once its length is known
        if workers[slot].buffer.count < 1 << 16, let length = answerHeader(slot)?.length, length > 1 << 20,
            length < 1 << 30, workers[slot].buffer.capacity < 8 + length
        {
            workers[slot].buffer.reserveCapacity(8 + length)
        }
    }

    /// The length the answer at the start of the worker's buffer says it has, and whether it is a
    /// watchdog's stop message; nil when its 8 bytes have not arrived or say no length.
    private func answerHeader(_ slot: Int) -> (length: Int, stopped: Bool)? {
        guard workers[slot].buffer.count >= 8 else { return nil }
        var field: UInt64 = 0
        for shift in 0..<8 { field |= UInt64(workers[slot].buffer[shift]) << (8 * shift) }
        guard let length = Int(exactly: field & ~Watchdog.stoppedFlag), length <= Int.max - 8 else {
            return nil
        }
        return (length, field & Watchdog.stoppedFlag != 0)
    }

    /// The first whole answer in the worker's buffer, taken out of it (and whether it is a
    /// watchdog's stop message); nil while it has not all arrived.
    private func takeAnswer(_ slot: Int) -> ([UInt8], Bool)? {
        guard workers[slot].buffer.count >= 8 else { return nil }
        guard let (length, stopped) = answerHeader(slot) else {
            workers[slot].closed = true
            return nil
        }
        let count = workers[slot].buffer.count
        guard count >= 8 + length else { return nil }
        if count == 8 + length {
            // the whole buffer is this answer: it becomes the answer, not a copy beside it
            var answer = workers[slot].buffer
            workers[slot].buffer = []
            answer.removeFirst(8)
            return (answer, stopped)
        }
        let answer = Array(workers[slot].buffer[8..<8 + length])
        workers[slot].buffer.removeFirst(8 + length)
        return (answer, stopped)
    }

    private func replace(_ slot: Int, alreadyReaped: Bool = false) {
        let old = workers[slot]
        close(old.requests)
        close(old.answers)
        // The numbers may come back from the next pipe(): a new worker must not close them.
        workers[slot].requests = -1
        workers[slot].answers = -1
        if !alreadyReaped { Self.letGo(old.pid) }
        served[slot] = []  // a new process has built nothing yet
        if let fresh = spawn() {
            workers[slot] = fresh
        } else {
            // no new process could be made: this slot is gone (pid 0 marks it)
            workers[slot].pid = 0
            workers[slot].job = nil
            workers[slot].queued = nil
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

/// Which job a worker takes next. The jobs are cut into shares, each a run of jobs next to each
/// other with the same key (jobs without a key are a share each); a worker runs its share to the
/// end, then takes the first share nobody has taken (among the next few, one whose key it served
/// before), and when every share is taken, the next few jobs of the largest share left: a file's
/// tests run where its state is built, and no worker waits while another has jobs to spare.
struct JobOrder {
    private struct Share {
        var next: Int
        var end: Int
        let key: String?
        var taken = false
    }
    private var shares: [Share] = []
    /// No share before it is free.
    private var firstFree = 0
    /// The share each worker slot runs.
    private var held: [Int: Int] = [:]
    /// How many shares past the first free one a worker looks at for a key it served.
    private static let lookahead = 8
    /// How many jobs a worker takes from the largest share left once every share is taken.
    private static let spared = 8

    init(count: Int, key: ((Int) -> String)?) {
        var start = 0
        while start < count {
            let name = key?(start)
            var end = start + 1
            if let name, let key { while end < count, key(end) == name { end += 1 } }
            shares.append(Share(next: start, end: end, key: name))
            start = end
        }
    }

    /// The job the worker in `slot` runs next (nil when every job is handed out); `served`, the
    /// keys its process served, gets the key of a share it takes.
    mutating func next(for slot: Int, served: inout Set<String>) -> Int? {
        if let share = held[slot], shares[share].next < shares[share].end { return take(share) }
        while firstFree < shares.count, shares[firstFree].taken { firstFree += 1 }
        var pick: Int?
        var index = firstFree
        var looked = 0
        while index < shares.count, looked < Self.lookahead {
            if !shares[index].taken {
                if pick == nil { pick = index }
                if let key = shares[index].key, served.contains(key) {
                    pick = index
                    break
                }
                looked += 1
            }
            index += 1
        }
        if pick == nil {
            // every share is taken: the next jobs of the largest share left, which goes on after them
            guard
                let largest = shares.indices.max(by: {
                    shares[$0].end - shares[$0].next < shares[$1].end - shares[$1].next
                }), shares[largest].next < shares[largest].end
            else { return nil }
            let from = shares[largest].next
            let end = min(shares[largest].end, from + Self.spared)
            shares[largest].next = end
            shares.append(Share(next: from, end: end, key: shares[largest].key))
            pick = shares.count - 1
        }
        guard let pick else { return nil }
        shares[pick].taken = true
        held[slot] = pick
        if let key = shares[pick].key { served.insert(key) }
        return take(pick)
    }

    private mutating func take(_ share: Int) -> Int {
        shares[share].next += 1
        return shares[share].next - 1
    }
}
