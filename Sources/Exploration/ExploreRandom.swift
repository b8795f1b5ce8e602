/// The explorer's random numbers: SplitMix64, so that a seed gives the same numbers on every
/// machine and every run (Swift's `SystemRandomNumberGenerator` is not seedable).
public struct ExploreRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The generator of run `run` of the exploration `name` under `seed`: each run draws its own
    /// numbers whatever ran before it, so a run can be replayed alone.
    public init(seed: Int, name: String, run: Int) {
        var mixer = ExploreRandom(seed: UInt64(truncatingIfNeeded: seed) ^ Self.hash(name))
        for _ in 0...(run % 7) { _ = mixer.next() }
        self.init(seed: mixer.next() &+ UInt64(truncatingIfNeeded: run) &* 0x9E37_79B9_7F4A_7C15)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// FNV-1a over the UTF-8 bytes: a stable hash (Swift's `Hasher` is seeded per process).
    public static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// A number in `range`.
    public mutating func number(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// An index below `count` (> 0).
    public mutating func index(_ count: Int) -> Int { Int.random(in: 0..<count, using: &self) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { number(0...1) < p }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[index(items.count)] }

    /// An index of `weights` drawn in proportion to them (at least one is positive). Weights
    /// whose sum is past the largest Double (two of 1e308) are scaled down by the largest first:
    /// the same proportions, and never a draw from an infinite range (a trap).
    public mutating func weighted(_ weights: [Double]) -> Int {
        var weights = weights
        if !weights.reduce(0, +).isFinite, let top = weights.filter({ $0.isFinite }).max(), top > 0 {
            weights = weights.map { $0.isFinite ? $0 / top : 0 }
        }
        let total = weights.reduce(0, +)
        guard total.isFinite, total > 0 else { return weights.firstIndex { $0 > 0 } ?? 0 }
        var draw = number(0...total)
        for (index, weight) in weights.enumerated() where weight > 0 {
            if draw < weight { return index }
            draw -= weight
        }
        return weights.lastIndex { $0 > 0 } ?? 0
    }
}
