/// The animations the seeds use: springs everywhere (G2), and the wallet's press ease-out (W7).
public enum Animation: Hashable, Sendable, CustomStringConvertible {
    case spring(Spring)
    /// `.easeOut(duration:)`: the cubic Bézier (0, 0, 0.58, 1) over `duration` seconds.
    case easeOut(duration: Double)

    public var description: String {
        switch self {
        case .spring(let spring): spring.description
        case .easeOut(let duration): "easeOut(duration: \(duration))"
        }
    }
}

/// The unit cubic Bézier timing curve through (0, 0), (x1, y1), (x2, y2), (1, 1).
struct TimingCurve: Sendable {
    let x1: Double, y1: Double, x2: Double, y2: Double

    /// SwiftUI's `.easeOut`.
    static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)

    private func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private func bezierSlope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// The Bézier parameter whose x is `x` (0 < x < 1), found by bisection to 1e-12.
    private func parameter(at x: Double) -> Double {
        var low = 0.0
        var high = 1.0
        var t = x
        for _ in 0..<60 {
            let value = bezier(t, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// The curve's progress at the fraction `x` of its duration (0...1), exact to 1e-12.
    func progress(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return bezier(parameter(at: x), y1, y2)
    }

    /// d(progress)/d(fraction) at the fraction `x`.
    func slope(at x: Double) -> Double {
        if x <= 0 || x >= 1 { return x <= 0 ? (x1 == 0 ? 0 : y1 / x1) : 0 }
        let t = parameter(at: x)
        let dx = bezierSlope(t, x1, x2)
        return dx == 0 ? 0 : bezierSlope(t, y1, y2) / dx
    }
}
