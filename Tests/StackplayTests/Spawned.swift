import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc's pipe2 and posix_spawn_file_actions_addchdir_np (GNU extensions the Glibc module
// does not show).
@_silgen_name("pipe2")
private func cPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func cAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

/// A child process started with posix_spawn, its stdout and stderr on pipes of its own.
///
/// The end-to-end tests start hundreds of processes at once from many threads. Foundation's
/// `Process.run` reads past a buffer while it counts the open descriptors (AddressSanitizer shows
/// it; it crashes now and then), and its pipes trap on EINTR; this does neither. The pipes are
/// close-on-exec, so a child started at the same moment by another test never holds them open.
struct Spawned {
    let pid: pid_t
    private let out: Int32
    private let err: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable arguments` in `directory` with exactly `environment`; stdin is /dev/null.
    static func start(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]
    ) throws -> Spawned {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard cPipe2(&outPipe, O_CLOEXEC) == 0, cPipe2(&errPipe, O_CLOEXEC) == 0 else {
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        _ = cAddChdir(&actions, directory)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // the child starts with no signal blocked and the default handlers
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        return Spawned(pid: pid, out: outPipe[0], err: errPipe[0])
    }

    /// What the child writes on stdout while it runs, read until it holds `text` or `timeout`
    /// seconds pass (those bytes are not in ``finish(timeout:)``'s stdout).
    func readOut(until text: String, timeout: Double) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let end = Date().addingTimeInterval(timeout)
        while !String(decoding: data, as: UTF8.self).contains(text), Date() < end {
            var fd = pollfd(fd: out, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 100) > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { read(out, $0.baseAddress, $0.count) }
            if got > 0 { data.append(contentsOf: buffer[0..<got]) } else if got == 0 { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads both streams to their ends, waits for the child, and says how it ended (the exit
    /// status, or the number of the signal that ended it). A child still running after `timeout`
    /// seconds is sent SIGTERM, so that a run that blocks fails its test instead of hanging the suite.
    /// By default 120 s, four times that under AddressSanitizer: `mutate --suggest`'s runs of many
    /// child processes took more than 120 s there on the shared 2-core machine.
    func finish(timeout: Double = builtWithAddressSanitizer ? 480 : 120) -> Run {
        final class Box: @unchecked Sendable {
            var data = Data()
            let lock = NSLock()
            var done = false
        }
        let box = Box()
        let errFD = err
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.data = readDescriptor(errFD) }
        let pid = self.pid
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            box.lock.lock()
            defer { box.lock.unlock() }
            if !box.done { kill(pid, SIGTERM) }
        }
        let outData = readDescriptor(out)
        group.wait()
        close(out)
        close(err)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        box.lock.lock()
        box.done = true
        box.lock.unlock()
        let signal = status & 0x7f
        return Run(
            status: signal != 0 ? signal : (status >> 8) & 0xff,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: box.data, as: UTF8.self))
    }
}

/// Everything until the end of the descriptor, read with read(2) and retried on EINTR.
func readDescriptor(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if got > 0 {
            data.append(contentsOf: buffer[0..<got])
        } else if got < 0 && errno == EINTR {
            continue
        } else {
            return data
        }
    }
}

/// A `stackplay` started in the package root without waiting for it (`finish()` reads it to its end).
func startStackplay(_ arguments: [String], environment: [String: String] = [:]) throws -> Spawned {
    try Spawned.start(
        stackplayBinary().path, arguments, in: packageRoot.path,
        environment: ProcessInfo.processInfo.environment.filter { $0.key != "CI" }.merging(environment) { $1 }
    )
}

/// The user CPU time (s) each child of `parent` has used so far, by pid, read from /proc.
func childCPUSeconds(of parent: Int32) -> [(pid: Int32, seconds: Double)] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
        guard let pid = Int32(entry), let stat = processStat(pid), stat.parent == parent else { return nil }
        return (pid, stat.seconds)
    }
}

/// The parent and the user CPU time (s) of process `pid`, from /proc/PID/stat.
func processStat(_ pid: Int32) -> (parent: Int32, seconds: Double)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // after "pid (comm)": state ppid ... utime is the 12th field after the name
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let parent = Int32(fields[1]), let utime = Double(fields[11]) else { return nil }
    return (parent, utime / Double(sysconf(Int32(_SC_CLK_TCK))))
}

/// A child process of `parent` that has used at least 0.3 s of CPU time (a worker spinning in a
/// hanging test), read from /proc, waiting up to 60 s for one.
func waitForBusyChild(of parent: Int32) -> Int32? {
    for _ in 0..<1200 {
        if let busy = childCPUSeconds(of: parent).first(where: { $0.seconds >= 0.3 }) { return busy.pid }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
}
