import CSystemCalls

#if canImport(Glibc)
    import Glibc
#endif

extension Syscall {
    /// Runs `body` with SIGINT and SIGTERM blocked, so that a check of the flag their handler
    /// sets and a wait with ``pollUnblockingInterrupts(_:timeout:)`` cannot miss a signal that
    /// comes between them; the mask is as it was afterwards.
    public static func withInterruptsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var signals = sigset_t()
        var old = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_BLOCK, &signals, &old)
        defer { sigprocmask(SIG_SETMASK, &old, nil) }
        return try body()
    }

    /// `poll(fds, timeout)` (milliseconds, -1: no limit) with SIGINT and SIGTERM unblocked only
    /// while it waits (ppoll): inside ``withInterruptsBlocked(_:)``, a signal wakes it at once
    /// (-1 with `EINTR`) whether it came before the wait or during it. Never restarted.
    public static func pollUnblockingInterrupts(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
        fds.withUnsafeMutableBufferPointer {
            stackplay_poll_unblocking_interrupts($0.baseAddress, UInt($0.count), timeout)
        }
    }
}
