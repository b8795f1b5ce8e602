import Testing

@testable import StackModel

@Suite("G2 springs")
struct SpringTests {
    @Test("G2 duration 0.5 bounce 0.3 gives Apple's stiffness 157.9 and damping 17.6")
    func appleReference() {
        let spring = Spring(duration: 0.5, bounce: 0.3)
        // ω0 = 2π / 0.5 = 12.566; k = ω0² = 157.91; c = 4π(1 − 0.3) / 0.5 = 17.59.
        #expect(abs(spring.stiffness - 157.9137) < 0.001)
        #expect(abs(spring.damping - 17.5929) < 0.001)
        #expect(spring.dampingRatio == 0.7)
    }

    @Test("G2 negative bounce is overdamped: ζ = 1 / (1 + bounce)")
    func overdamped() {
        let spring = Spring(duration: 1, bounce: -0.5)
        #expect(spring.dampingRatio == 2)
        let s = spring.state(from: 0, to: 1, velocity: 0, after: 0)
        #expect(s.value == 0)
        #expect(abs(s.velocity) < 1e-12)
        // Overdamped: it never passes the target.
        for step in 1...300 {
            #expect(spring.state(from: 0, to: 1, velocity: 0, after: Double(step) / 100).value <= 1)
        }
    }

    /// SwiftUI's own integration: half-step velocity, then position, then acceleration, 1/300 s.
    func integrate(_ spring: Spring, to target: Double, until time: Double) -> Double {
        var x = 0.0
        var v = 0.0
        var a = spring.acceleration(value: x, velocity: v, target: target)
        let dt = 1.0 / 300
        var t = 0.0
        while t < time - 1e-12 {
            v += a * dt / 2
            x += v * dt
            a = spring.stiffness * (target - x) - spring.damping * v
            v += a * dt / 2
            t += dt
        }
        return x
    }

    @Test(
        "G2 the closed form stays within 0.85% of SwiftUI's 1/300 s integration for the seeds' springs",
        arguments: [
            Spring.notificationExpand, Spring.notificationSpringBack, Spring.notificationCountChange,
            Spring.walletSelection,
        ])
    func closedFormMatchesIntegration(spring: Spring) {
        for step in 1...60 {
            let t = Double(step) / 60
            let exact = spring.state(from: 0, to: 1, velocity: 0, after: t).value
            #expect(abs(exact - integrate(spring, to: 1, until: t)) <= 0.0085, "t = \(t)")
        }
    }

    @Test("G2 the seeds' springs overshoot and come back")
    func overshoot() {
        let spring = Spring.walletSelection
        let samples = (1...120).map {
            spring.state(from: 0, to: 100, velocity: 0, after: Double($0) / 120).value
        }
        let peak = samples.max()!
        #expect(peak > 100)
        #expect(samples.last! < peak)
    }

    @Test("G2 finished means |v| ≤ 0.06, |a| ≤ 0.06 and at most 1% of the change left")
    func finishedRule() throws {
        let spring = Spring.notificationExpand
        let end = try #require(spring.finishTime(from: 0, to: 1, velocity: 0))
        let at = spring.state(from: 0, to: 1, velocity: 0, after: end)
        #expect(spring.isFinished(value: at.value, velocity: at.velocity, target: 1, change: 1))
        let before = spring.state(from: 0, to: 1, velocity: 0, after: end - Spring.tick)
        #expect(!spring.isFinished(value: before.value, velocity: before.velocity, target: 1, change: 1))
        // Longer than the perceptual duration: "duration" is not the time to rest.
        #expect(end > spring.duration)
    }

    @Test("G2 a spring with bounce 1 never rests")
    func undampedNeverRests() {
        #expect(Spring(duration: 0.5, bounce: 1).finishTime(from: 0, to: 1, velocity: 0, limit: 5) == nil)
    }
}

@Suite("G3 animated values")
struct AnimatedValueTests {
    @Test("G3 an interrupting animation starts from the value and velocity on screen")
    func interruption() {
        var value = AnimatedValue(0)
        value.set(1, animation: .spring(.notificationExpand), at: 0)
        let midValue = value.value(at: 0.1)
        let midVelocity = value.velocity(at: 0.1)
        #expect(midValue > 0 && midValue < 1)
        #expect(midVelocity > 0)
        value.set(0, animation: .spring(.notificationExpand), at: 0.1)
        #expect(value.value(at: 0.1) == midValue)
        #expect(abs(value.velocity(at: 0.1) - midVelocity) < 1e-9)
        // Still moving up a moment later, because it kept its velocity.
        #expect(value.value(at: 0.101) > midValue)
    }

    @Test("G2 without an animation the new value shows at once")
    func noAnimation() {
        var value = AnimatedValue(0)
        value.set(1, animation: nil, at: 3)
        #expect(value.value(at: 3) == 1)
        #expect(!value.isAnimating(at: 3))
        #expect(value.endTime == nil)
    }

    @Test("G2 once finished the value is exactly its target")
    func exactAtEnd() throws {
        var value = AnimatedValue(10)
        value.set(20, animation: .spring(.walletSelection), at: 1)
        let end = try #require(value.endTime)
        #expect(value.value(at: end) == 20)
        #expect(value.value(at: end + 5) == 20)
        #expect(value.value(at: end - 0.01) != 20)
    }

    @Test("W7 ease-out moves fast first and lands on time")
    func easeOut() {
        var value = AnimatedValue(1)
        value.set(0.98, animation: .easeOut(duration: 0.15), at: 0)
        #expect(value.value(at: 0.15) == 0.98)
        let half = value.value(at: 0.075)
        // Ease-out: past half-way at half the time.
        #expect(half < 0.99 && half > 0.98)
    }
}
