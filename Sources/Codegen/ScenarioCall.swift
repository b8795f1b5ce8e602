import Exploration
import StackModel
import Traces

/// One call (or a few lines) of a written scenario, with what it does to the model: the Lua text
/// and a closure that does the same through the Swift API the Lua methods call, so the writer
/// checks each call against the trace before it keeps it.
public struct ScenarioCall {
    /// The Lua text, one or more lines without indentation.
    public var lua: String
    let run: (Simulation) throws -> Void

    public init(_ lua: String, run: @escaping (Simulation) throws -> Void) {
        self.lua = lua
        self.run = run
    }
}

/// The screen a written scenario drives, as the writer runs it: the model the Lua API drives,
/// reached as the Lua methods reach it (``ScriptView`` for points in the script's world).
public final class Simulation {
    public let screen: Screen
    public var view: ScriptView { ScriptView(screen) }
    /// Raw fingers: the scenario's variable to the screen's touch id.
    var fingers: [String: Int] = [:]

    init(screen: Screen) { self.screen = screen }

    /// The component called `name`, or an error naming it.
    public func component(_ name: String) throws -> any Component {
        guard let component = screen.component(named: name) else {
            throw StackModelError("no component called '\(name)' is on the screen")
        }
        return component
    }

    /// The screen now in the script's world, as a trace writes a frame.
    var frame: JSONValue { TraceFormat.encode(view.snapshot()) }
}

/// One gesture of a single finger as the trace recorded it: where it went down and up (in the
/// script's world), how many moves it made and how long it took, and what it landed on.
public struct RecordedGesture: Sendable {
    public var start: Point
    public var end: Point
    public var moves: Int
    public var duration: Double
    /// What the finger landed on at touch-down, on the scenario's screen (nil: nothing).
    public var hit: Hit?

    public var translation: Point { Point(x: end.x - start.x, y: end.y - start.y) }

    /// `value` as a scenario writes it, plainest first: whole, one decimal, exact.
    public func roundings(of value: Double) -> [Double] {
        var out: [Double] = []
        for candidate in [value.rounded(), (value * 10).rounded() / 10, value] where !out.contains(candidate)
        {
            out.append(candidate)
        }
        return out
    }

    /// The gesture's duration as a scenario writes it, plainest first: to 0.01 s, to 0.001 s, exact.
    public var durations: [Double] {
        var out: [Double] = []
        for candidate in [(duration * 100).rounded() / 100, (duration * 1000).rounded() / 1000, duration]
        where !out.contains(candidate) && (candidate > 0) == (duration > 0) {
            out.append(candidate)
        }
        return out
    }

    /// A tap's durations to try: none first (a click's press time seldom matters), then the
    /// recorded one.
    public var tapDurations: [Double] { [0] + durations.filter { $0 != 0 } }

    /// A drag's steps and durations to try: `drag`'s own (10 steps in no time) first, then the
    /// recorded moves over the recorded time.
    public var dragTimings: [(steps: Int, duration: Double)] {
        [(10, 0)] + durations.map { (max(moves, 1), $0) }.filter { !($0.0 == 10 && $0.1 == 0) }
    }

    /// A drag's `{ steps =, duration = }` (what differs from 10 steps in no time), and the values.
    public func dragOptions(steps: Int, duration: Double) -> (text: String, steps: Int, duration: Double) {
        var fields: [String] = []
        if steps != 10 { fields.append("steps = \(steps)") }
        if duration > 0 { fields.append("duration = \(luaNumber(duration))") }
        return (fields.isEmpty ? "" : ", { " + fields.joined(separator: ", ") + " }", steps, duration)
    }
}

/// What stops a trace from being written as a scenario: a trace that does not replay, or an
/// event no Lua call makes.
public struct CodegenError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
