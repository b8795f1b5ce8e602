import StackModel

/// Shrinking a failing run to a local minimum: no step can be dropped, and no number made
/// simpler, without the run passing or failing another way (another invariant).
extension Explorer {
    public struct Shrunk: Sendable {
        public var actions: [ExploreAction]
        public var failure: ExploreFailure
        public var attempts: Int
    }

    /// Shrinks `actions`, which fail with `failure`, until `outOfTime()` says the search's time
    /// (`--time`) is up: then the smallest found so far is the answer.
    func shrink(
        _ actions: [ExploreAction], failure: ExploreFailure, replay: Bool, outOfTime: () -> Bool = { false }
    ) -> Shrunk {
        var best = actions
        var bestFailure = failure
        var attempts = 0
        /// Runs `candidate`; keeps it (cut after its failure) when it fails the same way.
        func tryCandidate(_ candidate: [ExploreAction]) -> Bool {
            guard attempts < maximumShrinkAttempts, candidate != best, !outOfTime() else { return false }
            attempts += 1
            guard let execution = try? run(candidate, replay: replay),
                let found = execution.failure, found.invariant == failure.invariant
            else { return false }
            best = execution.performed
            bestFailure = found
            return true
        }
        var improved = true
        while improved && attempts < maximumShrinkAttempts {
            improved = false
            // Drop steps: halves, quarters, ..., single steps.
            var chunk = max(best.count / 2, 1)
            while chunk >= 1 {
                var start = 0
                while start < best.count {
                    var candidate = best
                    candidate.removeSubrange(start..<min(start + chunk, best.count))
                    if tryCandidate(candidate) { improved = true } else { start += chunk }
                }
                chunk /= 2
            }
            // Simplify each step.
            var index = 0
            while index < best.count {
                for simpler in Self.simplifications(of: best[index]) {
                    var candidate = best
                    candidate[index] = simpler
                    if tryCandidate(candidate) {
                        improved = true
                        break
                    }
                }
                index += 1
            }
        }
        return Shrunk(actions: best, failure: bestFailure, attempts: attempts)
    }

    /// Simpler versions of a step, simplest first: fewer drag steps, no duration, numbers toward
    /// 0, whole numbers and the nearest threshold, shorter advances.
    static func simplifications(of action: ExploreAction) -> [ExploreAction] {
        // A gesture may only have been a wait: the clock moving to rest is simpler.
        (action.isGesture ? [.settle] : []) + simpler(action)
    }

    private static func simpler(_ action: ExploreAction) -> [ExploreAction] {
        switch action {
        case .tap(let p, let duration):
            return simpler(duration).map { .tap(p, duration: $0) }
                + rounder(p).map { .tap($0, duration: duration) }
        case .drag(let p, let by, let steps, let duration):
            var out: [ExploreAction] = []
            for fewer in [1, steps / 2] where fewer >= 1 && fewer < steps {
                out.append(.drag(p, by: by, steps: fewer, duration: duration))
            }
            out += simpler(duration).map { .drag(p, by: by, steps: steps, duration: $0) }
            out += simpler(by.x).map { .drag(p, by: Point(x: $0, y: by.y), steps: steps, duration: duration) }
            out += simpler(by.y).map { .drag(p, by: Point(x: by.x, y: $0), steps: steps, duration: duration) }
            out += rounder(p).map { .drag($0, by: by, steps: steps, duration: duration) }
            return out
        case .touchDown(let finger, let p): return rounder(p).map { .touchDown(finger: finger, $0) }
        case .touchMove(let finger, let p): return rounder(p).map { .touchMove(finger: finger, $0) }
        case .advance(let seconds):
            return simpler(seconds).filter { $0 > 0 }.map { .advance($0) } + [.settle]
        case .setSize(let size):
            let standard = Size(width: 390, height: 844)
            return size == standard ? [] : [.setSize(standard)]
        case .change(let component, let change):
            var out: [ExploreAction] = []
            for (index, field) in change.fields.enumerated() {
                guard case .number(let number) = field.value else { continue }
                for value in simpler(number) {
                    var changed = change
                    changed.fields[index].value = .number(value)
                    out.append(.change(component: component, changed))
                }
            }
            return out
        default: return []
        }
    }

    /// How simple a number is: 0, then whole numbers and thresholds, then the rest; then by size.
    static func complexity(_ value: Double) -> (Int, Double) {
        if value == 0 { return (0, 0) }
        let special = value == value.rounded() || ExploreGenerator.thresholds.contains(abs(value))
        return (special ? 1 : 2, abs(value))
    }

    /// Simpler numbers than `value`, simplest first.
    static func simpler(_ value: Double) -> [Double] {
        guard value != 0, value.isFinite else { return [] }
        let sign: Double = value < 0 ? -1 : 1
        let nearest = ExploreGenerator.thresholds.min { abs($0 - abs(value)) < abs($1 - abs(value)) }
        var candidates: [Double] = [0]
        if let nearest { candidates.append(sign * nearest) }
        candidates += [value.rounded(.towardZero), value.rounded(), (value * 100).rounded() / 100, value / 2]
        var seen = Set<Double>()
        return candidates.filter { seen.insert($0).inserted && complexity($0) < complexity(value) }
    }

    /// `p` with whole coordinates, when it has others.
    static func rounder(_ p: Point) -> [Point] {
        let rounded = Point(x: p.x.rounded(), y: p.y.rounded())
        return rounded == p ? [] : [rounded]
    }
}
