import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to stdout and stderr apart, unbuffered where it matters.
enum Output {
    static func out(_ text: String) { write(STDOUT_FILENO, text, newline: true) }
    static func err(_ text: String) { write(STDERR_FILENO, text, newline: true) }

    /// Whether this process has written anything to stdout or stderr through ``write(_:_:)``.
    nonisolated(unsafe) private(set) static var wrote = false

    /// Lines held by ``buffered(_:)``, in the order written: (descriptor, bytes) runs, then the
    /// run being written (`tail`, to `tailDescriptor`), appended to in place at every line.
    // (unchecked exclusivity: the runner is one thread, and nothing here lends them out)
    @exclusivity(unchecked) nonisolated(unsafe) private static var held:
        [(descriptor: Int32, bytes: [UInt8])] = []
    @exclusivity(unchecked) nonisolated(unsafe) private static var tail: [UInt8] = []
    @exclusivity(unchecked) nonisolated(unsafe) private static var tailDescriptor: Int32 = -1
    @exclusivity(unchecked) nonisolated(unsafe) private static var holding = false
    /// The bytes held, in every run: written out past 64 KiB.
    @exclusivity(unchecked) nonisolated(unsafe) private static var heldBytes = 0

    /// Writes `text` (and a newline after it, with `newline`).
    static func write(_ descriptor: Int32, _ text: String, newline: Bool = false) {
        wrote = true
        if holding {
            hold(to: descriptor)
            append(text)
            if newline { append(byte: 0x0A) }
            if heldBytes >= 1 << 16 { flush() }
            return
        }
        fflush(nil)  // a script's own print() output first
        // A terminal or pipe that refuses the bytes (closed, full disk) loses this line; the
        // first such failure is kept, said at the end, and fails the run (``finish(_:)``).
        send(descriptor, newline ? text + "\n" : text)
    }

    /// The first write to stdout or stderr that failed: where, and why.
    nonisolated(unsafe) private(set) static var failure: (descriptor: Int32, error: Errno)?
    /// stdout and stderr when the process started with them closed (`>&-`): /dev/null holds
    /// their numbers, so that no file the run opens takes them, and every write to them fails.
    nonisolated(unsafe) private static var closed: Set<Int32> = []

    private static func send(_ descriptor: Int32, _ text: String) {
        guard !closed.contains(descriptor) else { return record(descriptor, Errno(EBADF)) }
        if let error = Syscall.writeAll(descriptor, text, interruptible: true) { record(descriptor, error) }
    }

    private static func send(_ descriptor: Int32, _ bytes: [UInt8]) {
        guard !closed.contains(descriptor) else { return record(descriptor, Errno(EBADF)) }
        if let error = bytes.withUnsafeBytes({ Syscall.writeAll(descriptor, $0, interruptible: true) }) {
            record(descriptor, error)
        }
    }

    private static func record(_ descriptor: Int32, _ error: Errno) {
        if failure == nil { failure = (descriptor, error) }
    }

    /// Run first: stdin, stdout and stderr that the process started without are held by /dev/null
    /// (stdout and stderr remembered as closed).
    static func holdStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let null = open("/dev/null", O_RDWR)
            if null >= 0, null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
            if descriptor > 0 { closed.insert(descriptor) }
        }
    }

    /// The exit code of a run that ended with `code`, once its output is written: a write to
    /// stdout or stderr that failed (a full disk, a closed stdout, a reader gone: EPIPE) loses the
    /// report, so it is said on stderr (when stderr can still say it) and a run that would have
    /// passed exits 1.
    static func finish(_ code: Int32) -> Int32 {
        flush()
        fflush(nil)
        let signal = Syscall.signalled
        // A signal that ended a write waiting for its reader ends the run as any signal does.
        let ended = signal != 0 && code != 128 + signal ? 128 + signal : code
        guard let failure else { return ended }
        let name = failure.descriptor == STDOUT_FILENO ? "stdout" : "stderr"
        if failure.descriptor != STDERR_FILENO {
            let why =
                failure.error.code == EINTR || failure.error.code == ETIMEDOUT
                ? "interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT") while its reader was not reading"
                : "\(failure.error)"
            send(STDERR_FILENO, "stackplay: cannot write to \(name): \(why) (the report is incomplete)\n")
        }
        return ended == ExitCode.success ? ExitCode.failure : ended
    }

    /// Writes `first` then `second` as one line of stdout: a report's line a result, without the
    /// string that would join them.
    static func line(_ first: String, _ second: String) {
        guard holding else { return out(first + second) }
        wrote = true
        hold(to: STDOUT_FILENO)
        append(first)
        append(second)
        append(byte: 0x0A)
        if heldBytes >= 1 << 16 { flush() }
    }

    /// Makes `descriptor`'s the run being written.
    private static func hold(to descriptor: Int32) {
        guard tailDescriptor != descriptor else { return }
        if !tail.isEmpty {
            held.append((tailDescriptor, tail))
            tail.removeAll(keepingCapacity: true)
        }
        tailDescriptor = descriptor
    }

    private static func append(_ text: String) {
        var text = text
        text.withUTF8 {
            tail.append(contentsOf: $0)
            heldBytes += $0.count
        }
    }

    private static func append(byte: UInt8) {
        tail.append(byte)
        heldBytes += 1
    }

    /// Runs `body` with the lines it writes held and written a few at a time (``flush()``), in
    /// order, stdout's and stderr's as they alternate: a report of 1,000 results was 1,000 writes
    /// of the runner's, beside the workers on the same cores (issue 21's --jobs row).
    static func buffered<T>(_ body: () -> T) -> T {
        holding = true
        defer {
            flush()
            holding = false
        }
        return body()
    }

    /// Drops the held lines and holds no more (a forked worker: they are its parent's).
    static func forget() {
        held = []
        tail = []
        tailDescriptor = -1
        heldBytes = 0
        holding = false
    }

    /// Writes the held lines now: the worker pool calls it before it waits, so that a result is
    /// on the terminal while the tests after it run.
    static func flush() {
        guard !held.isEmpty || !tail.isEmpty else { return }
        fflush(nil)
        for run in held { send(run.descriptor, run.bytes) }
        held.removeAll(keepingCapacity: true)
        if !tail.isEmpty {
            send(tailDescriptor, tail)
            tail.removeAll(keepingCapacity: true)
        }
        heldBytes = 0
    }

    static func usageError(_ message: String) {
        err("stackplay: \(message)\nSee 'stackplay --help'.")
    }

    /// Whether to colour stdout: only on a terminal, and never with NO_COLOR set (no-color.org).
    static var colours: Bool {
        if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
        return isatty(STDOUT_FILENO) != 0
    }
}
