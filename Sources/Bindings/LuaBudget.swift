/// How much CPU time and memory one script may use before it is stopped.
///
/// A stop cannot be caught by the script's own `pcall`: once a budget trips, every further line
/// raises the stop again until the script has unwound.
public struct LuaBudget: Sendable, Equatable {
    /// Seconds of CPU time (of the thread running the script); 0 or less: unlimited.
    public var cpuSeconds: Double
    /// Bytes Lua may hold; 0: unlimited.
    public var memoryBytes: Int

    /// 10 s of CPU time, 256 MiB of memory.
    public static let standard = LuaBudget(cpuSeconds: 10, memoryMiB: 256)

    /// A budget in the units people think in.
    public init(cpuSeconds: Double, memoryMiB: Double) {
        self.cpuSeconds = cpuSeconds
        self.memoryBytes = Int(memoryMiB * 1_048_576)
    }

    /// The budget as a script is told it ran out: "stopped: the script used its 10 s of CPU time".
    public var cpuStopText: String {
        "stopped: the script used its \(Self.natural(cpuSeconds)) s of CPU time"
    }

    /// "stopped: the script used its 256 MiB of memory".
    public var memoryStopText: String {
        "stopped: the script used its \(Self.natural(Double(memoryBytes) / 1_048_576)) MiB of memory"
    }

    /// `10` for 10.0, `0.5` for 0.5: no trailing `.0`.
    public static func natural(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
