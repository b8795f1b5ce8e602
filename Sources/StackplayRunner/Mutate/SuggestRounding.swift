import Exploration
import StackModel

/// The numbers of a step and rounder ones to try in their place (`mutate --suggest`: once the
/// steps are as few as they go, each number is replaced by the roundest that still tells the
/// mutant apart: 181.02265842037724 becomes 180 or 181).
enum SuggestRounding {
    /// What a number is: a place in points, a translation in points (0 is one: a drag by (0, 40)
    /// is a drag down), a time in seconds (`zero`: 0 is a value the step takes, a tap or drag
    /// with no duration), or a drag's number of moves.
    enum Slot: Equatable {
        case points
        case translation
        case seconds(zero: Bool)
        case moves
    }

    /// The step's numbers, in order, with what each is.
    static func numbers(of action: ExploreAction) -> [(slot: Slot, value: Double)] {
        switch action {
        case .tap(let p, let duration):
            return [(.points, p.x), (.points, p.y), (.seconds(zero: true), duration)]
        case .drag(let p, let by, let steps, let duration):
            return [
                (.points, p.x), (.points, p.y), (.translation, by.x), (.translation, by.y),
                (.moves, Double(steps)),
                (.seconds(zero: true), duration),
            ]
        case .touchDown(_, let p), .touchMove(_, let p): return [(.points, p.x), (.points, p.y)]
        case .advance(let seconds): return [(.seconds(zero: false), seconds)]
        case .change(_, let change):
            return change.fields.compactMap { field in
                if case .number(let value) = field.value { return (.points, value) }
                return nil
            }
        default: return []
        }
    }

    /// The step with its numbers replaced by `values` (as many as ``numbers(of:)`` gave).
    static func replacing(_ action: ExploreAction, with values: [Double]) -> ExploreAction {
        switch action {
        case .tap: return .tap(Point(x: values[0], y: values[1]), duration: values[2])
        case .drag:
            return .drag(
                Point(x: values[0], y: values[1]), by: Point(x: values[2], y: values[3]),
                steps: Int(values[4]),
                duration: values[5])
        case .touchDown(let finger, _): return .touchDown(finger: finger, Point(x: values[0], y: values[1]))
        case .touchMove(let finger, _): return .touchMove(finger: finger, Point(x: values[0], y: values[1]))
        case .advance: return .advance(values[0])
        case .change(let component, let change):
            var fields = change.fields
            var next = 0
            for index in fields.indices {
                if case .number = fields[index].value {
                    fields[index].value = .number(values[next])
                    next += 1
                }
            }
            return .change(component: component, OwnerChange(change.name, fields))
        default: return action
        }
    }

    /// Rounder values than `value`, the roundest first: for points multiples of 10, 5, 1, 0.5
    /// and 0.1 (0 first for a translation); for seconds none at all (where the step takes it), then multiples of 1, 0.5,
    /// 0.1, 0.05, 0.01 and 0.001; for a drag's moves a drag's default 10, then 1.
    static func candidates(for value: Double, _ slot: Slot) -> [Double] {
        var out: [Double] = []
        func add(_ candidate: Double) {
            let plain = candidate == 0 ? 0 : candidate
            if plain != value, !out.contains(plain) { out.append(plain) }
        }
        switch slot {
        case .points, .translation:
            if slot == .translation { add(0) }
            for unit in [10.0, 5, 1, 0.5, 0.1] { add(round(value, unit)) }
        case .seconds(let zero):
            if zero { add(0) }
            for unit in [1.0, 0.5, 0.1, 0.05, 0.01, 0.001] {
                let rounded = round(value, unit)
                if rounded > 0 { add(rounded) }
            }
        case .moves:
            add(10)
            add(1)
        }
        return out
    }

    /// `value` to the nearest multiple of `unit`; under 1, as the double nearest that multiple
    /// (0.3, not 3 × 0.1 = 0.30000000000000004).
    static func round(_ value: Double, _ unit: Double) -> Double {
        guard unit < 1 else { return (value / unit).rounded() * unit }
        let parts = (1 / unit).rounded()
        return (value * parts).rounded() / parts
    }
}

extension ExploreAction {
    /// How long a tap or a drag takes (nil for another step).
    var seconds: Double? {
        switch self {
        case .tap(_, let duration), .drag(_, _, _, let duration): duration
        default: nil
        }
    }
}
