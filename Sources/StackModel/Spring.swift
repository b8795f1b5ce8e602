#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SwiftUI's `.spring(duration:bounce:)` (G2), evaluated in **closed form**.
///
/// Mass 1, natural frequency `ω0 = 2π / duration`, stiffness `k = ω0²`, damping ratio
/// `ζ = 1 − bounce` (bounce ≥ 0) or `1 / (1 + bounce)` (bounce < 0), damping `c = 2ζω0`.
/// SwiftUI integrates the same spring in 1/300 s steps; for the seeds' springs the two differ by
/// under 1% of the change (SEMANTICS.md). stackplay uses the exact solution, so a value depends
/// only on the time asked for, never on how often the clock was sampled.
public struct Spring: Hashable, Sendable, CustomStringConvertible {
    /// The perceptual duration in seconds (not the time to rest).
    public let duration: Double
    /// 0 is critically damped; up to 1 bounces more; below 0 is overdamped.
    public let bounce: Double

    public let stiffness: Double
    public let damping: Double
    /// The damping ratio ζ.
    public let dampingRatio: Double
    let omega0: Double
    /// λ = ζω0: the envelope's decay rate.
    let decay: Double
    /// ωd = ω0·√|1 − ζ²|.
    let dampedFrequency: Double
    /// One grid tick of the free motion, for `finishTime`.
    let grid: Grid

    /// The "finished" rule's thresholds (SEMANTICS.md): speed and acceleration at most 0.06, in the
    /// value's own units, and at most 1% of the change left to go.
    public static let restingSpeed = 0.06
    public static let restingAcceleration = 0.06
    public static let restingFraction = 0.01
    /// The distance counted as "there" for a change of zero (a value pushed by velocity alone):
    /// `Spring.settlingDuration`'s ε.
    public static let restingEpsilon = 0.001
    /// The grid on which the finished rule is checked: SwiftUI's 1/300 s animation step.
    public static let tick = 1.0 / 300

    public init(duration: Double, bounce: Double) {
        self.duration = duration
        self.bounce = bounce
        let omega0 = 2 * Double.pi / duration
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.omega0 = omega0
        self.stiffness = omega0 * omega0
        self.dampingRatio = zeta
        self.damping = 2 * zeta * omega0
        self.decay = zeta * omega0
        self.dampedFrequency = omega0 * abs(1 - zeta * zeta).squareRoot()
        self.grid = Grid(decay: decay, dampedFrequency: dampedFrequency, dampingRatio: zeta)
    }

    public var description: String { "spring(duration: \(duration), bounce: \(bounce))" }

    /// Where a value that starts at `from` with velocity `velocity` and heads for `target` is after
    /// `t` seconds, and its velocity there.
    public func state(from: Double, to target: Double, velocity v0: Double, after t: Double)
        -> (value: Double, velocity: Double)
    {
        let d = target - from
        let b = decay * d - v0
        let envelope = exp(-decay * t)
        if dampingRatio < 1 {
            let w = dampedFrequency
            let c = cos(w * t)
            let s = sin(w * t)
            let value = target - envelope * (d * c + b * s / w)
            let velocity = envelope * ((decay * d - b) * c + (decay * b / w + d * w) * s)
            return (value, velocity)
        } else if dampingRatio == 1 {
            let value = target - envelope * (d + b * t)
            let velocity = envelope * (v0 + decay * b * t)
            return (value, velocity)
        } else {
            let w = dampedFrequency
            let c = cosh(w * t)
            let s = sinh(w * t)
            let value = target - envelope * (d * c + b * s / w)
            let velocity = envelope * ((decay * d - b) * c + (decay * b / w - d * w) * s)
            return (value, velocity)
        }
    }

    /// The acceleration at a value and velocity: `k(T − x) − c·v`.
    public func acceleration(value: Double, velocity: Double, target: Double) -> Double {
        stiffness * (target - value) - damping * velocity
    }

    /// Whether the value has finished by SwiftUI's rule: `|v| ≤ 0.06`, `|a| ≤ 0.06` and at most 1%
    /// of the change left.
    public func isFinished(value: Double, velocity: Double, target: Double, change: Double) -> Bool {
        let tolerance = change == 0 ? Self.restingEpsilon : abs(change) * Self.restingFraction
        return abs(velocity) <= Self.restingSpeed
            && abs(acceleration(value: value, velocity: velocity, target: target)) <= Self.restingAcceleration
            && abs(target - value) <= tolerance
    }

    /// The first time on the 1/300 s grid at which the finished rule holds, or nil when it does not
    /// hold within `limit` seconds (a spring with bounce 1 never rests).
    ///
    /// Exactly `scannedFinishTime`'s answer, which evaluates the closed form at every tick;
    /// `FinishSearch` rules most ticks out without it (Spring+FinishTime.swift).
    public func finishTime(from: Double, to target: Double, velocity: Double, limit: Double = 60)
        -> Double?
    {
        let steps = Int((limit / Self.tick).rounded(.up))
        guard
            let search = FinishSearch(spring: self, from: from, to: target, velocity: velocity, steps: steps)
        else { return scannedFinishTime(from: from, to: target, velocity: velocity, limit: limit) }
        return search.firstStep().map { Double($0) * Self.tick }
    }

    /// `finishTime` by brute force: the closed form at every tick until the rule holds. The
    /// reference the fast search is tested against, and its answer outside the range it covers.
    func scannedFinishTime(from: Double, to target: Double, velocity: Double, limit: Double = 60) -> Double? {
        let change = target - from
        var step = 0
        let steps = Int((limit / Self.tick).rounded(.up))
        while step <= steps {
            let t = Double(step) * Self.tick
            let s = state(from: from, to: target, velocity: velocity, after: t)
            if isFinished(value: s.value, velocity: s.velocity, target: target, change: change) {
                return t
            }
            step += 1
        }
        return nil
    }

    /// The seeds' four springs, named once.
    /// N7: the pile opening and closing.
    public static let notificationExpand = Spring(
        duration: Mutant.number(0.45, (.n7ExpandDurationUp, 0.6), (.n7ExpandDurationDown, 0.3)),
        bounce: Mutant.number(0.2, (.n7ExpandBounceUp, 0.4), (.n7ExpandBounceDown, 0)))
    /// N13: a card that was not swiped far enough going back.
    public static let notificationSpringBack = Spring(
        duration: Mutant.number(0.35, (.n13SpringBackDurationUp, 0.5), (.n13SpringBackDurationDown, 0.2)),
        bounce: Mutant.number(0.25, (.n13SpringBackBounceUp, 0.45), (.n13SpringBackBounceDown, 0)))
    /// N14: the other cards moving when the number of cards changes.
    public static let notificationCountChange = Spring(
        duration: Mutant.number(0.4, (.n14CountDurationUp, 0.6), (.n14CountDurationDown, 0.25)),
        bounce: Mutant.number(0.15, (.n14CountBounceUp, 0.35), (.n14CountBounceDown, 0)))
    /// W6: a change of the wallet's selection.
    public static let walletSelection = Spring(
        duration: Mutant.number(0.5, (.w6SelectionDurationUp, 0.7), (.w6SelectionDurationDown, 0.3)),
        bounce: Mutant.number(0.2, (.w6SelectionBounceUp, 0.4), (.w6SelectionBounceDown, 0)))
}
