#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Spring.finishTime` without the closed form at every tick: the same first tick, found cheaply.
///
/// The closed form's state is linear in a 2-vector `q(t)` whose motion is known: `u = T − x` and
/// the velocity `v` are `A·q` for a matrix `A` of the move's constants, with
/// - underdamped: `q = e^{−λt}(cos ωd t, sin ωd t)`, which turns and shrinks by a fixed factor a tick;
/// - critically damped: `q = e^{−λt}(1, t)`;
/// - overdamped: `q = (e^{−λt} cosh ωd t, e^{−λt} sinh ωd t)`, two decaying modes `e^{−(λ∓ωd)t}`.
///
/// The search proves ticks unfinished and evaluates the closed form (`Spring.isFinished(atStep:)`,
/// what the scan evaluates) only at the ticks it cannot rule out, so the first tick at which that
/// holds is the scan's, bit for bit:
/// 1. Every tick before `firstCandidate`: there `|q|` is too large for any state meeting the three
///    thresholds (the largest `|A⁻¹(u, v)|` over the polygon `|u| ≤ tol`, `|v| ≤ 0.06`,
///    `|k·u − c·v| ≤ 0.06` is at one of its corners), so none can be finished.
/// 2. From there, `q` advances by one 2×2 multiplication a tick (no exp, sin or cos); a tick whose
///    `u`, `v` or acceleration misses its threshold by more than both evaluations' rounding can
///    err (`slack` of the magnitudes, far above the ~1e-9 they reach here) is not finished.
/// Inputs outside the range where those error bounds hold (non-finite, huge, a spring that grows
/// or turns too fast, an exponent past 700 where values go subnormal) take the scan instead.
struct FinishSearch {
    private enum Motion { case underdamped, critical, overdamped }
    // Why the widened thresholds are safe: q's error after n ticks of the recurrence is below
    // ~(n·10 + (λ + ωd)·t)·ε·(|q1| + |q2|) and the closed form's below ~((λ + ωd)·t + 20)·ε of the
    // same magnitudes (exp, sin, cos and cosh are within 2 ulps; their arguments' rounding is a
    // shift of t), plus an ulp of T from `T − (T − e)`; `init` bounds n, (λ + ωd)·t and every
    // coefficient so that both stay below 1e-7 ≪ `slack`. So |u_closed − u_recurrence| ≤
    // slack·((|a11| + |a12|)·(|q1| + |q2|) + tolerance) + 4ε|T|, likewise for v, and the
    // acceleration `k·u − c·v` inherits k and c times those, plus its own rounding.

    private let spring: Spring
    private let from: Double, target: Double, velocity: Double, change: Double
    private let steps: Int
    private let motion: Motion
    /// `u = a11·q1 + a12·q2`, `v = a21·q1 + a22·q2`.
    private let a11: Double, a12: Double, a21: Double, a22: Double
    /// The finished rule's distance: `Spring.isFinished`'s tolerance for this change.
    private let tolerance: Double
    /// Absolute rounding of `u` in the closed form (`T − (T − e)` loses up to an ulp of `T`).
    private let absoluteError: Double
    /// The last tick at which every exponent stays within 700 (the error bounds need normal numbers).
    private let lastBounded: Int
    /// No tick before this one can be finished.
    private var firstCandidate = 0

    /// Relative error allowed for either evaluation against the exact closed form, as a fraction
    /// of the magnitudes involved: both stay below ~1e-9 in the domain `init` accepts.
    private static let slack = 1e-6
    /// Covers underflow in products of tiny coefficients (exponents stay within 700 here).
    private static let floor = 1e-290
    private static let maximumExponent = 700.0

    /// nil when the inputs are outside the range the error bounds cover: the caller scans.
    init?(spring: Spring, from: Double, to target: Double, velocity: Double, steps: Int) {
        let d = target - from
        let lambda = spring.decay
        let w = spring.dampedFrequency
        let b = lambda * d - velocity
        let zeta = spring.dampingRatio
        guard from.isFinite, target.isFinite, velocity.isFinite, d.isFinite, b.isFinite,
            (0...10_000_000).contains(steps), zeta.isFinite, zeta >= 0, spring.omega0.isFinite,
            spring.omega0 > 0, lambda.isFinite, w.isFinite, spring.stiffness.isFinite,
            spring.damping.isFinite,
            (lambda + w) * Double(steps + 1) * Spring.tick <= 1e7
        else { return nil }
        let motion: Motion
        let exponentRate: Double
        if zeta < 1 {
            guard w > 0 else { return nil }
            motion = .underdamped
            (a11, a12, a21, a22) = (d, b / w, lambda * d - b, lambda * b / w + d * w)
            exponentRate = lambda
        } else if zeta == 1 {
            motion = .critical
            (a11, a12, a21, a22) = (d, b, velocity, lambda * b)
            exponentRate = lambda
        } else {
            guard w > 0, lambda - w >= 0 else { return nil }
            motion = .overdamped
            (a11, a12, a21, a22) = (d, b / w, lambda * d - b, lambda * b / w - d * w)
            exponentRate = lambda + w
        }
        guard max(max(max(abs(a11), abs(a12)), max(abs(a21), abs(a22))), abs(target)) <= 1e100 else {
            return nil
        }
        self.spring = spring
        self.from = from
        self.target = target
        self.velocity = velocity
        self.change = d
        self.steps = steps
        self.motion = motion
        tolerance = d == 0 ? Spring.restingEpsilon : abs(d) * Spring.restingFraction
        absoluteError = 4 * Double.ulpOfOne * abs(target) + Self.floor
        lastBounded =
            exponentRate == 0
            ? steps
            : max(Int(min(Self.maximumExponent / (exponentRate * Spring.tick), Double(steps))) - 1, -1)
        firstCandidate = min(boundedSkip(), lastBounded + 1)
    }

    /// The first tick in `0...steps` at which the closed form is finished, as the scan finds it.
    func firstStep() -> Int? {
        var step = firstCandidate
        let last = min(steps, lastBounded)
        if step <= last {
            var (q1, q2) = start(at: step)
            let grid = spring.grid
            let (k, c) = (spring.stiffness, spring.damping)
            let slack = Self.slack
            // The thresholds widened by the error bounds, split into a constant part and a part
            // proportional to |q1| + |q2| (the bounds in the note at the top of the type).
            let uPerSize = slack * (abs(a11) + abs(a12))
            let uFixed = slack * tolerance + absoluteError
            let vPerSize = slack * (abs(a21) + abs(a22))
            let vFixed = slack * Spring.restingSpeed + Self.floor
            let aPerSize = (k * uPerSize + c * vPerSize) * (1 + slack)
            let aFixed =
                (k * uFixed + c * vFixed) * (1 + slack) + slack * Spring.restingAcceleration + Self.floor
            while true {
                let u = a11 * q1 + a12 * q2
                let v = a21 * q1 + a22 * q2
                let size = abs(q1) + abs(q2)
                let ruledOut =
                    abs(u) > tolerance + (uFixed + uPerSize * size)
                    || abs(v) > Spring.restingSpeed + (vFixed + vPerSize * size)
                    || abs(k * u - c * v)
                        > Spring.restingAcceleration
                        + (aFixed + aPerSize * size + slack * (k * abs(u) + c * abs(v)))
                if !ruledOut,
                    spring.isFinished(
                        atStep: step, from: from, to: target, velocity: velocity, change: change)
                {
                    return step
                }
                if step == last { break }
                step += 1
                (q1, q2) = (grid.m11 * q1 + grid.m12 * q2, grid.m21 * q1 + grid.m22 * q2)
            }
            step += 1
        }
        guard step <= steps else { return nil }
        return spring.firstFinishedStep(from: from, to: target, velocity: velocity, in: step...steps)
    }

    /// `q` at `step` from exp, cos and sin once.
    private func start(at step: Int) -> (Double, Double) {
        let t = Double(step) * Spring.tick
        let lambda = spring.decay
        let w = spring.dampedFrequency
        switch motion {
        case .underdamped:
            let envelope = exp(-lambda * t)
            return (envelope * cos(w * t), envelope * sin(w * t))
        case .critical:
            let envelope = exp(-lambda * t)
            return (envelope, envelope * t)
        case .overdamped:
            // e^{−λt}(cosh, sinh)(ωd t) from the two modes e^{−(λ∓ωd)t}.
            let slow = exp(-(lambda - w) * t)
            let fast = exp(-(lambda + w) * t)
            return ((slow + fast) / 2, (slow - fast) / 2)
        }
    }

    /// The first tick the bound on `|q|` cannot rule out (0 when it rules out none).
    private func boundedSkip() -> Int {
        // Every finished state (u', v') of the closed form lies in the polygon below (the
        // acceleration's own rounding widened); the exact one is within (uError, vError) of it.
        let stiffness = spring.stiffness
        let damping = spring.damping
        let speed = Spring.restingSpeed
        let accelerationLimit =
            Spring.restingAcceleration
            + 2 * Double.ulpOfOne * (stiffness * tolerance + damping * speed + Spring.restingAcceleration)
        let determinant = a11 * a22 - a12 * a21
        guard determinant != 0, determinant.isFinite else { return 0 }
        let inverse = (a22 / determinant, -a12 / determinant, -a21 / determinant, a11 / determinant)
        let inverseNorm =
            (inverse.0 * inverse.0 + inverse.1 * inverse.1 + inverse.2 * inverse.2 + inverse.3 * inverse.3)
            .squareRoot()
        let coefficientSum = abs(a11) + abs(a12) + abs(a21) + abs(a22)
        let growth = inverseNorm * Self.slack * coefficientSum
        guard growth.isFinite, growth < 0.5 else { return 0 }
        // The polygon's corners are among the pairwise crossings of its sides; a crossing that
        // meets every side within a hair is counted (one just outside only makes the bound larger).
        var largest = 0.0
        let hair = 1 + 1e-9
        func corner(_ u: Double, _ v: Double) {
            guard abs(u) <= tolerance * hair, abs(v) <= speed * hair,
                abs(stiffness * u - damping * v) <= accelerationLimit * hair
            else { return }
            let q1 = inverse.0 * u + inverse.1 * v
            let q2 = inverse.2 * u + inverse.3 * v
            largest = max(largest, (q1 * q1 + q2 * q2).squareRoot())
        }
        func side(_ u: Double) {
            corner(u, speed)
            corner(u, -speed)
            guard damping > 0 else { return }
            corner(u, (stiffness * u - accelerationLimit) / damping)
            corner(u, (stiffness * u + accelerationLimit) / damping)
        }
        func end(_ v: Double) {
            corner((accelerationLimit + damping * v) / stiffness, v)
            corner((-accelerationLimit + damping * v) / stiffness, v)
        }
        side(tolerance)
        side(-tolerance)
        end(speed)
        end(-speed)
        // At a finished tick the closed form's (u', v') is in the polygon and the exact (u, v) within
        // (uError, vError) of it, so |q| ≤ largest + ‖A⁻¹‖·(slack·Σ|a|·|q| + slack·(tolerance +
        // speed) + absoluteError + floor).
        let fixedError = Self.slack * (tolerance + speed) + absoluteError + Self.floor
        let bound = (largest * (1 + Self.slack) + inverseNorm * fixedError) / (1 - growth) * (1 + Self.slack)
        guard bound.isFinite else { return 0 }
        // A lower bound on |q(t)| = scale·e^{−rate·t}.
        let (scale, rate): (Double, Double) =
            switch motion {
            case .underdamped, .critical: (1, spring.decay)
            case .overdamped: (0.5.squareRoot(), spring.decay - spring.dampedFrequency)
            }
        guard bound < scale else { return 0 }
        guard rate > 0 else { return steps + 1 }
        let crossing = log(scale / bound) / rate / Spring.tick
        var first = Int(min(crossing, Double(steps + 1))) - 1
        guard first > 0 else { return 0 }
        // Checked, not trusted: the last skipped tick's |q| is above the bound (|q| only falls).
        let lastSkipped = Double(first - 1) * Spring.tick
        if scale * exp(-rate * lastSkipped) <= bound * (1 + Self.slack) { first = 0 }
        return first
    }
}

extension Spring {
    /// The per-tick factors of `FinishSearch`'s recurrence, computed once per spring. They follow
    /// from `decay` and `dampedFrequency`, which `Spring`'s equality already compares, so they
    /// take no part in it (NaN factors of a degenerate spring must not make it unequal to itself).
    struct Grid: Hashable, Sendable {
        /// q(t + h) = M·q(t): e^{−λh} times a turn by ωd·h (underdamped), a shear `q2 += h·q1`
        /// (critical) or a hyperbolic turn by ωd·h (overdamped).
        let m11: Double, m12: Double, m21: Double, m22: Double

        init(decay lambda: Double, dampedFrequency w: Double, dampingRatio zeta: Double) {
            let h = Spring.tick
            let decay = exp(-lambda * h)
            if zeta < 1 {
                (m11, m12, m21, m22) = (
                    decay * cos(w * h), -decay * sin(w * h), decay * sin(w * h), decay * cos(w * h)
                )
            } else if zeta == 1 {
                (m11, m12, m21, m22) = (decay, 0, decay * h, decay)
            } else {
                (m11, m12, m21, m22) = (
                    decay * cosh(w * h), decay * sinh(w * h), decay * sinh(w * h), decay * cosh(w * h)
                )
            }
        }

        static func == (_: Grid, _: Grid) -> Bool { true }
        func hash(into _: inout Hasher) {}
    }

    /// Whether the closed form is finished at grid tick `step`: the one evaluation the scan and
    /// `FinishSearch` share.
    func isFinished(atStep step: Int, from: Double, to target: Double, velocity: Double, change: Double)
        -> Bool
    {
        let s = state(from: from, to: target, velocity: velocity, after: Double(step) * Self.tick)
        return isFinished(value: s.value, velocity: s.velocity, target: target, change: change)
    }

    /// The first tick of `range` at which the closed form is finished, trying every one.
    func firstFinishedStep(from: Double, to target: Double, velocity: Double, in range: ClosedRange<Int>)
        -> Int?
    {
        let change = target - from
        return range.first {
            isFinished(atStep: $0, from: from, to: target, velocity: velocity, change: change)
        }
    }
}
