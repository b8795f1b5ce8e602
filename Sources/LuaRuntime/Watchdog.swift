import CLuaRuntime

/// Where a process says that its script was stopped inside C or Swift code (runtime.c's CPU-time
/// watchdog: a loop in `string.rep` or a long Swift call that no Lua instruction interrupts).
public enum Watchdog {
    /// A worker: the stop goes to the parent as an answer frame on `descriptor` (the length's bit
    /// 62 set, then the message; ``stoppedFlag``), and the worker ends.
    public static func answer(to descriptor: Int32) { stackplay_watchdog_answer_to(descriptor) }

    /// No worker (the config loader, a run in this process): the stop is said on stderr and the
    /// process exits with `status`.
    public static func exit(status: Int32) { stackplay_watchdog_exit_status(status) }

    /// The bit of an answer frame's length that marks a watchdog's stop message.
    public static let stoppedFlag: UInt64 = 1 << 62
}
