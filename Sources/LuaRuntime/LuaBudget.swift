import Wording

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

    /// A budget in the units people think in. A memory budget of 0 (or less, or NaN) is
    /// unlimited; any other is clamped into ``memoryMiBRange``, so the conversion never traps.
    public init(cpuSeconds: Double, memoryMiB: Double) {
        self.cpuSeconds = cpuSeconds
        self.memoryBytes = Self.bytes(memoryMiB: memoryMiB)
    }

    /// The memory budgets a user may give, in MiB: from 1 KiB (a smaller one would round to 0
    /// bytes, which means unlimited) to 1 TiB.
    public static let memoryMiBRange: ClosedRange<Double> = 1.0 / 1024...1_048_576

    /// What a memory budget must be, for messages: "a number of MiB from 0.0009765625 (1 KiB) to
    /// 1048576 (1 TiB)".
    public static let memoryMiBExpectation =
        "a number of MiB from \(natural(memoryMiBRange.lowerBound)) (1 KiB) to "
        + "\(natural(memoryMiBRange.upperBound)) (1 TiB)"

    /// Whether `memoryMiB` is a budget a user may give (finite, within ``memoryMiBRange``).
    public static func isValid(memoryMiB: Double) -> Bool { memoryMiBRange.contains(memoryMiB) }

    /// `memoryMiB` in bytes: 0 for 0, negatives and NaN (unlimited), else clamped into range.
    package static func bytes(memoryMiB: Double) -> Int {
        guard memoryMiB > 0 else { return 0 }
        let clamped = min(max(memoryMiB, memoryMiBRange.lowerBound), memoryMiBRange.upperBound)
        return Int((clamped * 1_048_576).rounded())
    }

    /// A budget with `memoryMiB` set the same way as ``init(cpuSeconds:memoryMiB:)`` does.
    public mutating func setMemory(mib memoryMiB: Double) { memoryBytes = Self.bytes(memoryMiB: memoryMiB) }

    /// The budget as a script is told it ran out: "stopped: the script used its 10 s of CPU time".
    public var cpuStopText: String {
        "stopped: the script used its \(Self.natural(cpuSeconds)) s of CPU time"
    }

    /// "stopped: the script used its 256 MiB of memory".
    public var memoryStopText: String {
        "stopped: the script used its \(Self.natural(Double(memoryBytes) / 1_048_576)) MiB of memory"
    }

    /// `10` for 10.0, `0.5` for 0.5: no trailing `.0` (``formatNumber(_:)``).
    package static func natural(_ value: Double) -> String { formatNumber(value) }
}
