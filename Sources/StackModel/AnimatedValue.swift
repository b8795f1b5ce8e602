/// One animatable value: its model value (`target`) and, while an animation runs, what is on
/// screen (`value(at:)`).
///
/// Each value animates on its own (SEMANTICS.md). A new animation that interrupts a running one
/// starts from the value and velocity on screen at that moment (G3). With no animation (Reduce
/// Motion passes `nil`, G2) the new value shows at once. Once the finished rule holds the value
/// is exactly its target.
public struct AnimatedValue: Sendable, Equatable {
    /// The model value: where the value is going, or is.
    public private(set) var target: Double
    private var motion: Motion?

    private struct Motion: Sendable, Equatable {
        var animation: Animation
        var start: Double
        var from: Double
        var velocity: Double
        /// When the finished rule first holds; nil for a spring that never rests.
        var end: Double?
    }

    public init(_ value: Double) {
        target = value
    }

    /// The value on screen at `time`.
    public func value(at time: Double) -> Double {
        guard let motion, time >= motion.start else { return motion?.from ?? target }
        if let end = motion.end, time >= end { return target }
        let t = time - motion.start
        switch motion.animation {
        case .spring(let spring):
            return spring.state(from: motion.from, to: target, velocity: motion.velocity, after: t).value
        case .easeOut(let duration):
            return motion.from + (target - motion.from) * TimingCurve.easeOut.progress(at: t / duration)
        }
    }

    /// The value's speed on screen at `time`, in its units per second.
    public func velocity(at time: Double) -> Double {
        guard let motion, time >= motion.start else { return 0 }
        if let end = motion.end, time >= end { return 0 }
        let t = time - motion.start
        switch motion.animation {
        case .spring(let spring):
            return spring.state(from: motion.from, to: target, velocity: motion.velocity, after: t).velocity
        case .easeOut(let duration):
            guard duration > 0 else { return 0 }
            return (target - motion.from) * TimingCurve.easeOut.slope(at: t / duration) / duration
        }
    }

    /// Whether an animation is still running at `time`.
    public func isAnimating(at time: Double) -> Bool {
        guard let motion else { return false }
        guard let end = motion.end else { return true }
        return time < end
    }

    /// When the running animation finishes: nil when none runs, `.infinity` when it never rests.
    public var endTime: Double? {
        guard let motion else { return nil }
        return motion.end ?? .infinity
    }

    /// The animation now running, if any (whether or not it has finished by some time).
    public var animation: Animation? { motion?.animation }

    /// Sets a new model value at `time`. With an animation, the value travels from where it is on
    /// screen, keeping its velocity (G3); with `nil`, it jumps. Setting the value it already has
    /// changes nothing, as in SwiftUI, where an unchanged value starts no animation.
    public mutating func set(_ newTarget: Double, animation: Animation?, at time: Double) {
        guard newTarget != target else { return }
        startMotion(
            from: value(at: time), velocity: velocity(at: time), to: newTarget, animation: animation, at: time
        )
    }

    /// Moves what is on screen by `delta` at once and animates it back to the model value: how a
    /// layout change appears when something else moved (N14 uses it for the cards that stay).
    public mutating func displace(by delta: Double, animation: Animation?, at time: Double) {
        guard delta != 0, animation != nil else { return }
        startMotion(
            from: value(at: time) + delta, velocity: velocity(at: time), to: target, animation: animation,
            at: time)
    }

    private mutating func startMotion(
        from: Double, velocity: Double, to newTarget: Double, animation: Animation?, at time: Double
    ) {
        target = newTarget
        guard let animation, from != newTarget || velocity != 0 else {
            motion = nil
            return
        }
        let end: Double?
        switch animation {
        case .spring(let spring):
            end = spring.finishTime(from: from, to: newTarget, velocity: velocity).map { time + $0 }
        case .easeOut(let duration):
            end = time + max(duration, 0)
        }
        motion = Motion(animation: animation, start: time, from: from, velocity: velocity, end: end)
    }
}
