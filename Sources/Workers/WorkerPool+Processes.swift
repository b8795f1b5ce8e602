import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The pool's worker processes (``WorkerPool``): forked with their three pipes, sent jobs,
/// replaced when one dies, stopped, and reaped without the parent ever waiting for one.
extension WorkerPool {
    /// A new worker; `elsewhere`: it starts on another CPU than this process's (the first of a
    /// batch's: this process goes on to send it jobs and fork the others).
    func spawn(elsewhere: Bool = false) -> Worker? {
        if Self.forksOnlyAlone, let refusal = Self.forkRefusal(threads: Syscall.threadCount()) {
            hooks.refused(refusal)
        }
        Self.reapStopped()
        var requests: [Int32] = [0, 0]
        var answers: [Int32] = [0, 0]
        var doorbell: [Int32] = [0, 0]
        guard pipe(&requests) == 0 else { return nil }
        guard pipe(&answers) == 0 else {
            for fd in requests { close(fd) }
            return nil
        }
        guard pipe(&doorbell) == 0 else {
            for fd in requests + answers { close(fd) }
            return nil
        }
        Syscall.setPipeRoom(answers[0], Self.answerPipeBytes)  // refused: it keeps its room
        // the parent reads what there is without waiting, and a ring never waits; a worker's
        // answers wait for room (as its watchdog's stop frame does), having rung before a large one
        for fd in [answers[0], doorbell[0], doorbell[1]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let pid = fork()
        if pid < 0 {
            for fd in requests + answers + doorbell { close(fd) }
            return nil
        }
        if pid == 0 {
            // The worker: only its own pipe ends stay open, so that the parent sees each worker's
            // death as the end of that worker's pipes.
            for other in workers where other.requests >= 0 {
                close(other.requests)
                close(other.answers)
                close(other.doorbell)
            }
            close(requests[1])
            close(answers[0])
            close(doorbell[0])
            hooks.workerStarts(answers[1])
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_DFL)
            // A crash ends the worker at once, for the parent to report: the Swift runtime's
            // backtracer would print to the run's stderr and take seconds.
            for fatal in [SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTRAP] { signal(fatal, SIG_DFL) }
            var loop = WorkerLoop(requests: requests[0], answers: answers[1], doorbell: doorbell[1])
            loop.serve(serve, next: next)
        }
        if elsewhere { Cores.startElsewhere(pid) }
        close(requests[0])
        close(answers[1])
        close(doorbell[1])
        return Worker(pid: pid, requests: requests[1], answers: answers[0], doorbell: doorbell[0])
    }

    /// Sends `frames`, the requests of `jobs` (of `sizes` bytes, each after its length), to the
    /// worker in `slot`: behind the jobs it holds.
    func send(_ jobs: [Int], sizes: [Int], frames: [UInt8], to slot: Int) -> Bool {
        guard frames.withUnsafeBytes({ Syscall.writeAll(workers[slot].requests, $0) == nil }) else {
            return false
        }
        let now = Self.now()
        if workers[slot].jobs.isEmpty { workers[slot].started = now }
        workers[slot].jobs += jobs
        workers[slot].sizes += sizes
        workers[slot].sentAt += repeatElement(now, count: jobs.count)
        return true
    }

    func replace(_ slot: Int, alreadyReaped: Bool = false) {
        let old = workers[slot]
        close(old.requests)
        close(old.answers)
        close(old.doorbell)
        // The numbers may come back from the next pipe(): a new worker must not close them.
        workers[slot].requests = -1
        workers[slot].answers = -1
        workers[slot].doorbell = -1
        if !alreadyReaped { Self.letGo(old.pid) }
        served[slot] = []  // a new process has built nothing yet
        if let fresh = spawn() {
            workers[slot] = fresh
        } else {
            // no new process could be made: this slot is gone (pid 0 marks it)
            workers[slot].pid = 0
            workers[slot].jobs = []
            workers[slot].sizes = []
            workers[slot].sentAt = []
        }
    }

    func stop(_ worker: Worker, kill: Bool) {
        guard worker.pid > 0 else { return }
        close(worker.requests)
        close(worker.answers)
        close(worker.doorbell)
        if kill || !worker.jobs.isEmpty { Glibc.kill(worker.pid, SIGKILL) }
        Self.letGo(worker.pid)
    }

    /// Workers told to stop (their pipes closed, or killed) and not reaped yet.
    nonisolated(unsafe) static var stopped: [pid_t] = []

    /// Leaves `pid`, told to stop, to end on its own: reaped later (``reapStopped()``), so that the
    /// parent never waits for a worker's exit.
    static func letGo(_ pid: pid_t) {
        stopped.append(pid)
        reapStopped()
    }

    /// Reaps the stopped workers that have ended, without waiting for the others.
    static func reapStopped() {
        stopped.removeAll { pid in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result < 0 && errno != EINTR)
        }
    }

    /// Kills every worker at once (the run was interrupted).
    package func killAll() {
        for worker in workers { stop(worker, kill: true) }
        workers.removeAll()
    }

    /// Waits for `pid` and says how it ended: the signal that killed it, or its exit status.
    func reap(_ pid: pid_t) -> (Int32?, Int32) {
        let status = Syscall.wait(for: pid) ?? 0
        let signal = status & 0x7f
        if signal != 0 { return (signal, 0) }
        return (nil, (status >> 8) & 0xff)
    }
}
