import CLuaRuntime
import CProcess

#if canImport(Glibc)
    import Glibc
#endif

/// Where a process says that its script was stopped inside C or Swift code (watchdog.c's CPU-time
/// watchdog: a loop in `string.rep` or a long Swift call that no Lua instruction interrupts).
public enum Watchdog {
    /// A worker: the stop goes to the parent as an answer frame on `descriptor` (the length's bit
    /// 62 set, then the message; ``stoppedFlag``), and the worker ends.
    public static func answer(to descriptor: Int32) { stackplay_watchdog_answer_to(descriptor) }

    /// No worker (the config loader, a run in this process): the stop is said on stderr and the
    /// process exits with `status`.
    public static func exit(status: Int32) { stackplay_watchdog_exit_status(status) }

    /// The runner's own process loading a lone file (no worker): until ``endRestart()``, a
    /// script stuck in C or Swift code past its CPU budget, or a crash, makes the process exec
    /// `program` (this one by default) with `arguments` and `environment` (restart.c), instead of
    /// ending.
    public static func restart(
        program: String = "/proc/self/exe", arguments: [String], environment: [String]
    ) {
        // kept for the rest of the process: a signal handler may read them at any time
        func cStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
            let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
                capacity: strings.count + 1)
            for (index, string) in strings.enumerated() { list[index] = strdup(string) }
            list[strings.count] = nil
            return list
        }
        // the watchdog (CLuaRuntime) knows the restart (CProcess) only as this hook
        stackplay_watchdog_on_stuck(stackplay_restart_now)
        stackplay_restart_arm(strdup(program), cStrings(arguments), cStrings(environment))
    }

    /// From a signal handler: the Lua chunk this thread runs stops at its next instruction, with
    /// its CPU budget's message (a run interrupted by SIGINT says so instead).
    public static func interrupt() { stackplay_watchdog_interrupt() }

    /// A stuck script or a crash ends the process again.
    public static func endRestart() { stackplay_restart_disarm() }

    /// The bit of an answer frame's length that marks a watchdog's stop message.
    public static let stoppedFlag: UInt64 = 1 << 62
}

/// Where a state hears what its test has printed (``LuaState/outputNote``): the watchdog sends
/// those bytes with its stop when the test is stuck inside C or Swift code, so that they reach the
/// reports. Holds the state unretained: use it only while the state lives.
public struct LuaOutputNote {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let L: OpaquePointer

    /// The test has printed `bytes` (readable until the next note), and `dropped` bytes more that
    /// were not kept.
    public func note(_ bytes: UnsafeRawBufferPointer, dropped: Int) {
        stackplay_note_output(
            L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, max(0, dropped))
    }
}

extension LuaState {
    /// Where this state's test output is noted; nil for a host's state (no watchdog there).
    public var outputNote: LuaOutputNote? { isHost ? nil : LuaOutputNote(L: stack.L) }
}
