import Testing

@testable import StackModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Spring.finishTime` (the fast search) against `scannedFinishTime` (the closed form at every tick):
/// the same tick, or both nil, for every input.
@Suite("G2 finish time: the search finds the scan's tick")
struct SpringFinishTimeTests {
    /// The seeds' springs, then critical, overdamped, nearly critical, barely damped, undamped,
    /// fast and slow ones.
    static let springs: [Spring] = [
        .notificationExpand, .notificationSpringBack, .notificationCountChange, .walletSelection,
        Spring(duration: 0.5, bounce: 0), Spring(duration: 0.3, bounce: 0),
        Spring(duration: 0.5, bounce: -0.2), Spring(duration: 1, bounce: -0.5),
        Spring(duration: 0.4, bounce: -0.9),
        Spring(duration: 0.5, bounce: 1e-9), Spring(duration: 0.5, bounce: -1e-9),
        Spring(duration: 0.5, bounce: 0.001),
        Spring(duration: 0.45, bounce: 0.7), Spring(duration: 0.5, bounce: 0.95),
        Spring(duration: 0.02, bounce: 0.3), Spring(duration: 3, bounce: 0.1),
        Spring(duration: 0.35, bounce: 0.5),
    ]

    /// 0, tiny, ordinary, layout-sized, huge, each both signs.
    static let edgeValues: [Double] = [
        0, 1e-300, -1e-300, 1e-12, -1e-9, 0.01, -0.5, 1, -1, 70, -120, 358, 1e4, -1e9, 1e15, -1e15,
    ]

    /// A case the search and the scan disagree on, as a line of the failure message.
    static func mismatches(
        _ spring: Spring, _ cases: [(from: Double, to: Double, velocity: Double)], limit: Double = 60
    ) -> [String] {
        cases.compactMap { c in
            let fast = spring.finishTime(from: c.from, to: c.to, velocity: c.velocity, limit: limit)
            let scanned = spring.scannedFinishTime(from: c.from, to: c.to, velocity: c.velocity, limit: limit)
            guard fast != scanned else { return nil }
            return "\(spring) from \(c.from) to \(c.to) velocity \(c.velocity) limit \(limit): "
                + "search \(fast.map { "\($0)" } ?? "nil"), scan \(scanned.map { "\($0)" } ?? "nil")"
        }
    }

    @Test(
        "G2 the search's tick is the scan's for every pair of edge values and velocities", arguments: springs)
    func edgeCases(spring: Spring) {
        var cases: [(from: Double, to: Double, velocity: Double)] = []
        let velocities: [Double] = [0, 1e-6, -0.05, 3, -2_000, 1e7]
        for (i, from) in Self.edgeValues.enumerated() {
            for (j, to) in Self.edgeValues.enumerated() {
                // Rest, and two of the other velocities in turn.
                for velocity in [0, velocities[1 + (i + j) % 5], velocities[1 + (i + 2 * j + 2) % 5]] {
                    cases.append((from, to, velocity))
                }
            }
        }
        // A spring with little damping is slow to rest: a shorter limit keeps the scan quick.
        let limit = spring.dampingRatio < 0.2 ? 3.0 : 60
        let wrong = Self.mismatches(spring, cases, limit: limit)
        #expect(
            wrong.isEmpty,
            "\(wrong.count) of \(cases.count) differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    @Test("G2 the search's tick is the scan's for random moves, velocities and limits", arguments: springs)
    func randomMoves(spring: Spring) {
        var random = SplitMix(seed: spring.duration.bitPattern ^ spring.bounce.bitPattern)
        var wrong: [String] = []
        var searched = 0
        for round in 0..<400 {
            let from = random.value()
            let to = round % 5 == 0 ? from : random.value()
            let velocity = round % 3 == 0 ? 0 : random.value() * random.unit() * 50
            let limits: [Double] = [60, 0.4, 1.0 / 300, 0]
            let limit = spring.dampingRatio < 0.2 ? 3.0 : limits[round % limits.count]
            let steps = Int((limit / Spring.tick).rounded(.up))
            if FinishSearch(spring: spring, from: from, to: to, velocity: velocity, steps: steps) != nil {
                searched += 1
            }
            wrong += Self.mismatches(spring, [(from, to, velocity)], limit: limit)
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
        // The comparison is about the search: nearly every random move must go through it.
        #expect(searched >= 370, "only \(searched) of 400 moves were searched")
    }

    @Test("G3 the search's tick is the scan's for moves interrupted mid-flight, as retargeting makes them")
    func interruptedMoves() {
        var random = SplitMix(seed: 42)
        var wrong: [String] = []
        for spring in Self.springs.prefix(9) {
            for _ in 0..<200 {
                let target = random.unit() * 400
                let start = spring.state(from: 0, to: target, velocity: 0, after: random.unit() * 0.8)
                let next = random.unit() < 0.5 ? 0 : random.unit() * 400
                wrong += Self.mismatches(spring, [(start.value, next, start.velocity)])
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    @Test("G2 NaN, infinite and huge inputs, negative and odd limits give the scan's answer")
    func degenerateInputs() {
        let odd: [(from: Double, to: Double, velocity: Double)] = [
            (.nan, 1, 0), (0, .nan, 0), (0, 1, .nan), (0, .infinity, 0), (-.infinity, 0, 0),
            (0, 1, .infinity),
            (0, 1e300, 0), (-1e300, 1e300, 0), (0, 1, 1e300), (0, 0, 0), (5, 5, 0), (5, 5, -1e-3),
            (1e15, 1e15 + 1, 0),
            (1e15 + 1, 1e15, 0.5), (0, 5e-324, 0), (0, 1, -0.0),
        ]
        var wrong: [String] = []
        for spring in [
            Spring.notificationExpand, Spring(duration: 0.5, bounce: 0), Spring(duration: 1, bounce: -0.5),
        ] {
            for limit in [60, -1, 0, 1e-9, 0.5, 10] { wrong += Self.mismatches(spring, odd, limit: limit) }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    @Test(
        "G2 degenerate springs (bounce 1, above 1, at or below −1, duration 0 or negative) give the scan's answer"
    )
    func degenerateSprings() {
        let springs = [
            Spring(duration: 0.5, bounce: 1), Spring(duration: 0.5, bounce: 1.5),
            Spring(duration: 0.5, bounce: -1),
            Spring(duration: 0.5, bounce: -1.5), Spring(duration: 0, bounce: 0.2),
            Spring(duration: -0.5, bounce: 0.2),
            Spring(duration: .nan, bounce: 0), Spring(duration: 1e-7, bounce: 0.2),
            Spring(duration: 1e6, bounce: 0.2),
        ]
        let cases: [(from: Double, to: Double, velocity: Double)] = [
            (0, 1, 0), (0, 0, 2), (10, -3, 40), (0, 0, 0),
        ]
        var wrong: [String] = []
        for spring in springs { wrong += Self.mismatches(spring, cases, limit: 5) }
        // Bounce 1 over the full minute: never at rest, ruled out without the scan's 18,001 ticks.
        wrong += Self.mismatches(Spring(duration: 0.5, bounce: 1), [(0, 1, 0), (0, 0, 1e-3)])
        #expect(wrong.isEmpty, "\(wrong.count) differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    @Test("G2 a Spring equals itself and hashes alike, even when degenerate")
    func equality() {
        for spring in [
            Spring.notificationExpand, Spring(duration: 0, bounce: 0.2), Spring(duration: 0.5, bounce: 0),
        ] {
            #expect(spring == Spring(duration: spring.duration, bounce: spring.bounce))
            #expect(spring.hashValue == Spring(duration: spring.duration, bounce: spring.bounce).hashValue)
        }
    }
}

/// A small seeded generator (SplitMix64), so that a failing case can be run again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A signed value whose magnitude is spread over 1e-12...1e12 (log-uniform), or a round one.
    mutating func value() -> Double {
        let sign: Double = next() & 1 == 0 ? 1 : -1
        switch next() % 4 {
        case 0: return sign * Double(next() % 500)
        default:
            return sign * pow(10, unit() * 24 - 12)
        }
    }
}
