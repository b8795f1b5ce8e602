import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to stdout and stderr apart, unbuffered where it matters.
enum Output {
    static func out(_ text: String) { write(STDOUT_FILENO, text + "\n") }
    static func err(_ text: String) { write(STDERR_FILENO, text + "\n") }

    /// Whether this process has written anything to stdout or stderr through ``write(_:_:)``.
    nonisolated(unsafe) private(set) static var wrote = false

    static func write(_ descriptor: Int32, _ text: String) {
        wrote = true
        fflush(nil)  // a script's own print() output first
        // A terminal or pipe that refuses the bytes (closed, full disk) loses this line only; the
        // exit code says whether a report the run had to write was written.
        _ = Syscall.writeAll(descriptor, text)
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
