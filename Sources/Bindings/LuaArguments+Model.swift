import LuaRuntime
import StackModel

/// Reading model values (points, translations, gesture options) from Lua arguments.
extension LuaArguments {
    /// A finite number: NaN and infinities are refused with the argument's number.
    func finite(at position: Int) throws -> Double {
        let value = try number(at: position)
        guard value.isFinite else {
            throw error(at: position, "number must be finite, got \(formatNumber(value))")
        }
        return value
    }

    /// A finite number not below 0: a duration, a time limit, a height.
    func nonNegative(at position: Int) throws -> Double {
        let value = try finite(at: position)
        guard value >= 0 else {
            throw error(at: position, "number must not be negative, got \(formatNumber(value))")
        }
        return value
    }

    /// A point given as two numbers `x, y` or as a table `{ x =, y = }`; returns the point and
    /// the position of the argument after it.
    func point(at position: Int) throws -> (Point, next: Int) {
        if stack.isTable(Int32(position)) {
            let options = try LuaOptions(self, at: position, known: ["x", "y"])
            return (Point(x: try options.number("x"), y: try options.number("y")), position + 1)
        }
        return (Point(x: try finite(at: position), y: try finite(at: position + 1)), position + 2)
    }

    /// A translation `{ x =, y = }` in screen points; a missing axis is 0.
    func translation(at position: Int) throws -> Point {
        guard stack.isTable(Int32(position)) else { throw typeError(at: position, expected: "table") }
        let options = try LuaOptions(self, at: position, known: ["x", "y"])
        return Point(x: try options.number("x", default: 0), y: try options.number("y", default: 0))
    }

    /// A gesture's `{ steps =, duration = }`.
    func gestureOptions(at position: Int) throws -> (steps: Int, duration: Double) {
        let options = try gestureOptions(at: position, byID: false)
        return (options.steps, options.duration)
    }

    /// A gesture's `{ steps =, duration = }`, and `force =` when it is aimed at a card by id.
    func gestureOptions(at position: Int, byID: Bool) throws -> (steps: Int, duration: Double, force: Bool) {
        let options = try LuaOptions(
            self, at: position, known: ["steps", "duration"] + (byID ? ["force"] : []))
        let steps = try options.integer("steps", default: 10)
        guard (1...Screen.maximumDragSteps).contains(steps) else {
            throw options.error("steps", "must be from 1 to \(Screen.maximumDragSteps), got \(steps)")
        }
        return (
            steps, try options.number("duration", default: 0, allowNegative: false),
            byID ? try options.boolean("force", default: false) : false
        )
    }

    /// A tap's `{ duration = }`.
    func tapDuration(at position: Int) throws -> Double {
        try tapOptions(at: position, byID: false).duration
    }

    /// A tap's `{ duration = }`, and `force =` when it is aimed at a card by id.
    func tapOptions(at position: Int, byID: Bool) throws -> (duration: Double, force: Bool) {
        let options = try LuaOptions(self, at: position, known: ["duration"] + (byID ? ["force"] : []))
        return (
            try options.number("duration", default: 0, allowNegative: false),
            byID ? try options.boolean("force", default: false) : false
        )
    }

    /// Runs a model call, turning its refusal into a Lua error that names this function.
    func model<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StackModelError {
            throw LuaError("\(function): \(error.message)")
        }
    }

    /// Runs a model call whose only refusal is about argument `position` (a finger id that is not
    /// down, an element that is not there), so the error names that argument.
    func model<T>(argument position: Int, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StackModelError {
            throw self.error(at: position, error.message)
        }
    }
}
