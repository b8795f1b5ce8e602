/// Everything a model refuses, with a message that names the argument or the thing not found.
public struct StackModelError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    static func invalid(_ argument: String, _ value: Double, _ rule: String) -> StackModelError {
        StackModelError("\(argument) must be \(rule), got \(formatNumber(value))")
    }

    /// Fails unless `value` is finite.
    static func requireFinite(_ value: Double, _ argument: String) throws {
        guard value.isFinite else { throw invalid(argument, value, "a finite number") }
    }

    /// Fails unless a component's place on the screen is usable: a finite origin, a width ≥ 0.
    static func requirePlacement(_ origin: Point, width: Double) throws {
        try requireFinite(origin.x, "x")
        try requireFinite(origin.y, "y")
        try requireNonNegative(width, "width")
    }

    /// Fails unless `value` is finite and not negative.
    static func requireNonNegative(_ value: Double, _ argument: String) throws {
        guard value.isFinite, value >= 0 else { throw invalid(argument, value, "a finite number ≥ 0") }
    }
}
