import CSystemCalls

/// The `STACKPLAY_*` environment switches, read by one rule in C and Swift alike
/// (`stackplay_switch_on`, process.c): a switch is on when it is set to anything but "" and "0".
/// `STACKPLAY_FRESH_STATES=1`, `=yes` and `=true` turn it on; `=0`, `=` and leaving it unset leave
/// it off. The switches and what each turns off are listed in docs/design/speed-tricks.md.
public enum EnvironmentSwitch {
    /// Whether the switch `name` is on in this process's environment now.
    public static func isOn(_ name: String) -> Bool { stackplay_switch_on(name) != 0 }
}

extension Syscall {
    /// The SIGINT or SIGTERM the run's handler recorded (0: none). A write to a pipe, a terminal
    /// or a FIFO that waits for its reader gives up when it is set (``writeAll(_:_:)``). Kept in a
    /// C `volatile sig_atomic_t` (process.c): a handler's store is seen whole by the code it
    /// interrupted.
    public static var signalled: Int32 {
        get { stackplay_signalled() }
        set { stackplay_set_signalled(newValue) }
    }

    /// The flag the worker pool's SIGINT and SIGTERM handler sets (`WorkerPool.interruption`), a C
    /// `volatile sig_atomic_t` as ``signalled`` is.
    public static var interruption: Int32 {
        get { stackplay_interruption() }
        set { stackplay_set_interruption(newValue) }
    }

    /// This process's threads (`Threads:` in /proc/self/status), nil when it cannot be read.
    public static func threadCount() -> Int? {
        let count = stackplay_thread_count()
        return count < 0 ? nil : Int(count)
    }
}
