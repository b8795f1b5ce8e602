#if canImport(Glibc)
    import Glibc
#endif

/// The libc calls a signal can interrupt, each behind one rule: a call that fails with `EINTR` is
/// made again. Nothing in stackplay treats `EINTR` as an answer. The run's SIGINT and SIGTERM
/// handlers only record the signal and are installed with `SA_RESTART` (``installSignalHandler``);
/// `poll` is never restarted by the kernel (signal(7)), so the worker pool's loop still wakes at
/// once and reads the flag. (swift-system keeps its calls in one `Syscalls.swift` the same way.)
public enum Syscall {
    /// `call()` again while it fails with `EINTR`; its result otherwise (with `errno` as it left it).
    @inlinable
    public static func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// One `read(2)` into `buffer`: the bytes read, 0 at the end of the file, -1 on an error (`errno`).
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads until `buffer` is full: false when the file ends first or a read fails.
    public static func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Reads to the end of the file, at most `limit` bytes: the bytes, or the `errno` of the read
    /// that failed; `.failure(EFBIG)` past `limit`.
    public static func readAll(_ descriptor: Int32, limit: Int) -> Result<[UInt8], Errno> {
        var bytes: [UInt8] = []
        // not zeroed: a read writes only the pages it fills (a small file's read faulted in 16)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, into: buffer)
            if count < 0 { return .failure(Errno(errno)) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if bytes.count > limit { return .failure(Errno(EFBIG)) }
        }
    }

    /// How long a write that waits for its reader may wait once a signal ended the run: the
    /// partial report of an interrupted run is written when someone reads it, and dropped otherwise.
    static let interruptedWaitMilliseconds: Int32 = 2000

    /// Writes all of `bytes`: nil, or the `errno` that stopped it (`ENOSPC` for a write of nothing).
    /// With `interruptible` (an output of the run: stdout, stderr, a report the user named), to
    /// anything but a regular file (a pipe, a terminal, a FIFO), it waits for room with
    /// `poll(2)`, which a signal always interrupts (the kernel never restarts it), and writes at
    /// most `PIPE_BUF` bytes at a time, which then never block: a reader that stops reading
    /// cannot keep the run from ending on SIGINT or SIGTERM (`EINTR`), whatever it was writing.
    public static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, interruptible: Bool = false
    ) -> Errno? {
        var info = stat()
        let waits = interruptible && fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        var offset = 0
        while offset < bytes.count {
            var chunk = bytes.count - offset
            if waits {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let timeout = signalled == 0 ? -1 : interruptedWaitMilliseconds
                let polled = poll(&ready, 1, timeout)
                if polled < 0 {
                    if errno != EINTR { return Errno(errno) }
                    if signalled != 0 { return Errno(EINTR) }
                    continue
                }
                if polled == 0 { return Errno(ETIMEDOUT) }
                chunk = min(chunk, Int(PIPE_BUF))
            }
            let count = retryingInterrupts { Glibc.write(descriptor, bytes.baseAddress! + offset, chunk) }
            if count < 0 { return Errno(errno) }
            if count == 0 { return Errno(ENOSPC) }
            offset += count
        }
        return nil
    }

    /// Writes all of `text` (its UTF-8 bytes), as ``writeAll(_:_:)-(_,UnsafeRawBufferPointer)``.
    public static func writeAll(_ descriptor: Int32, _ text: String, interruptible: Bool = false) -> Errno? {
        var text = text
        return text.withUTF8 {
            writeAll(descriptor, UnsafeRawBufferPointer($0), interruptible: interruptible)
        }
    }

    /// Waits for the child `pid` to end: its raw wait status, or nil when there is no such child.
    public static func wait(for pid: pid_t) -> Int32? {
        var status: Int32 = 0
        return retryingInterrupts { waitpid(pid, &status, 0) } < 0 ? nil : status
    }

    /// Installs `handler` for `signals` with `SA_RESTART`, so that a signal never makes another
    /// call fail (poll excepted, which the kernel never restarts).
    public static func installSignalHandler(_ signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in signals { sigaction(signal, &action, nil) }
    }
}

/// An `errno` value, with its text.
public struct Errno: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    /// `strerror`'s words: "No space left on device".
    public var description: String { String(cString: strerror(code)) }
}

extension Syscall {
    /// Asks for `bytes` of room in the pipe `descriptor` is an end of (Linux's `F_SETPIPE_SZ`,
    /// which Glibc's module leaves out); false when the system refuses (the pipe keeps its room).
    @discardableResult
    public static func setPipeRoom(_ descriptor: Int32, _ bytes: Int) -> Bool {
        fcntl(descriptor, 1031, Int32(clamping: bytes)) >= 0
    }

    /// The room of the pipe `descriptor` is an end of (`F_GETPIPE_SZ`), nil when it cannot be read.
    public static func pipeRoom(_ descriptor: Int32) -> Int? {
        let room = fcntl(descriptor, 1032)
        return room > 0 ? Int(room) : nil
    }
}
