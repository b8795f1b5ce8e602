import SystemCalls
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// Runs this executable again, as many at a time as asked, each with its own arguments and
/// environment, and collects what each printed on stdout and how it exited (`stackplay mutate`:
/// the suite once unmutated, then once a mutant, each in its own process, so that the mutant a
/// process reads at its first model use is that run's alone).
struct ChildRuns {
    struct Job {
        var arguments: [String]
        /// Added to (or replacing in) this process's environment; a nil value removes the variable.
        var environment: [String: String?]
    }

    struct Ended {
        var stdout: String
        /// The exit status, or 128 + the signal that ended it; -1 when it could not be started.
        var status: Int32
        var seconds: Double
    }

    /// This executable's path (`/proc/self/exe`), else how it was called.
    static var executable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs every job, at most `jobs` at once; `done(index, ended)` as each ends. False when a
    /// signal interrupted (the running children are killed).
    static func run(_ list: [Job], jobs: Int, done: (Int, Ended) -> Void) -> Bool {
        var running: [(index: Int, pid: pid_t, fd: Int32, output: [UInt8], started: Double)] = []
        var next = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while next < list.count || !running.isEmpty {
            if WorkerPool.interruption != 0 {
                for child in running {
                    kill(child.pid, SIGKILL)
                    _ = Syscall.wait(for: child.pid)
                    close(child.fd)
                }
                return false
            }
            while running.count < max(jobs, 1), next < list.count {
                if let (pid, fd) = spawn(list[next]) {
                    running.append((next, pid, fd, [], now()))
                } else {
                    done(next, Ended(stdout: "", status: -1, seconds: 0))
                }
                next += 1
            }
            guard !running.isEmpty else { continue }
            var fds = running.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), 100) < 0, errno != EINTR { return false }
            var finished: [Int] = []
            for slot in running.indices where fds[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { Syscall.read(running[slot].fd, into: $0) }
                if count > 0 {
                    running[slot].output += chunk[..<count]
                } else {
                    finished.append(slot)
                }
            }
            for slot in finished.reversed() {
                let child = running.remove(at: slot)
                close(child.fd)
                let status =
                    Syscall.wait(for: child.pid).map {
                        ($0 & 0x7f) == 0 ? ($0 >> 8) & 0xff : 128 + ($0 & 0x7f)
                    }
                    ?? -1
                done(
                    child.index,
                    Ended(
                        stdout: String(decoding: child.output, as: UTF8.self), status: status,
                        seconds: now() - child.started))
            }
        }
        return true
    }

    /// Starts one job with its stdout on a pipe (read end returned) and its stderr on /dev/null.
    private static func spawn(_ job: Job) -> (pid_t, Int32)? {
        var pipes: [Int32] = [0, 0]
        guard pipe(&pipes) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipes[0])
        posix_spawn_file_actions_addclose(&actions, pipes[1])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let program = executable
        var environment = ProcessEnvironment.entries.filter {
            job.environment[String($0.prefix { $0 != "=" })] == nil
        }
        for (name, value) in job.environment.sorted(by: { $0.key < $1.key }) {
            if let value { environment.append(name + "=" + value) }
        }
        // A child's run is not the user's: it leaves `--last-failed`'s record alone.
        environment.append(LastRun.switchVariable + "=0")
        let argv = ([program] + job.arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, program, &actions, nil, argv, envp)
        close(pipes[1])
        guard started == 0 else {
            close(pipes[0])
            return nil
        }
        return (pid, pipes[0])
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
