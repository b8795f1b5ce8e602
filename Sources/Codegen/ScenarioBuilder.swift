import Exploration
import StackModel
import Traces

/// The scenario writer's work: the trace's replayed frames (the reference), the components'
/// variables, and the calls chosen segment by segment, each checked against the reference.
final class ScenarioBuilder {
    let trace: Trace
    let kinds: ScenarioKinds
    private(set) var setup: ScenarioSetup
    let segments: [TraceSegment]
    /// The frame after each of the trace's events, replayed on this model, in the script's world.
    private(set) var references: [JSONValue] = []
    private(set) var replayDifference: String?
    /// Each component's Lua variable, by its name.
    private(set) var variables: [String: String] = [:]

    /// Frames within this of each other (in points, seconds) are the same frame.
    static let tolerance = 1e-9

    init(trace: Trace, kinds: ScenarioKinds) throws {
        self.trace = trace
        self.kinds = kinds
        setup = ScenarioSetup(kinds: kinds, trace: trace)
        setup.fixed = try setup.fixedSizes()
        segments = TraceSegment.split(trace)
        let replayer = try TraceReplayer(trace)
        while replayer.position < trace.steps.count {
            try replayer.step()
            if replayDifference == nil, let mismatch = replayer.check(tolerance: Self.tolerance) {
                replayDifference = mismatch.description
            }
            references.append(TraceFormat.encode(ScriptView(replayer.screen).snapshot()))
        }
        variables = try Self.variables(trace, kinds: kinds)
    }

    struct Result {
        var calls: [String]
        var final: FrameSnapshot
        var focus: (component: String, id: String)?
        var reproduces: Bool
    }

    /// Chooses the calls; `exact`: every gesture as raw touches and every wait as its own
    /// advances, which replay the trace exactly.
    func build(exact: Bool) throws -> Result {
        var state = BuildState(builder: self, simulation: try setup.makeScreen())
        if trace.settings.now > 0 {
            let now = trace.settings.now
            try state.commit(
                ScenarioCall("screen:advance(\(luaNumber(now)))") { try $0.screen.advance(by: now) })
        }
        for spec in trace.components {
            let name = try TraceFields(spec, file: trace.file, line: 1).string("name")
            try state.commit(
                setup.component(
                    spec, variable: variables[name] ?? name, line: 1,
                    screen: state.simulation.view.settings.size))
        }
        for (index, segment) in segments.enumerated() {
            let next = index + 1 < segments.count ? segments[index + 1] : nil
            try state.write(segment, next: next, exact: exact)
        }
        let final = state.simulation.view.snapshot()
        let reproduces = references.last.map { Self.close(TraceFormat.encode(final), $0) } ?? true
        var focus = state.focus
        if let card = focus,
            final.components.first(where: { $0.name == card.component })?.card(card.id) == nil
        {
            focus = nil
        }
        return Result(calls: state.calls.map(\.lua), final: final, focus: focus, reproduces: reproduces)
    }

    /// Whether `simulation` shows what the trace shows after the event `reference` (nil: the
    /// trace shows nothing there). The clock may differ: a drag written in no time where the
    /// finger took 0.6 s ends in the same frame, and the waits after it are written as
    /// `settle()` or by how long they were, so every frame after it is the trace's too.
    func matches(_ simulation: Simulation, _ end: (reference: Int?, time: Double)) -> Bool {
        guard let reference = end.reference else { return true }
        return Self.close(simulation.frame, references[reference])
    }

    /// Two frames equal field for field, numbers within ``tolerance``.
    static func close(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || abs(x - y) <= tolerance * max(1, abs(x), abs(y))
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { close($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && close($0.1, $1.1) }
        default: return a == b
        }
    }

    /// Lua variables for the components (the header's and those added later): the kind's own
    /// (`stack`, `wallet`, `cards`) for the only one of its kind, else the name as an identifier.
    static func variables(_ trace: Trace, kinds: ScenarioKinds) throws -> [String: String] {
        var specs = trace.components
        for step in trace.steps { if case .add(let spec) = step.input { specs.append(spec) } }
        var named: [(name: String, kind: ComponentKind)] = []
        for spec in specs {
            let fields = try TraceFields(spec, file: trace.file, line: 1)
            named.append((try fields.string("name"), ComponentKind(try fields.string("kind"))))
        }
        var taken: Set<String> = [
            "screen", "stackplay", "test", "expect", "skip", "only", "before_each", "after_each", "require",
            "print", "math", "string", "table",
        ]
        var out: [String: String] = [:]
        for (name, kind) in named where out[name] == nil {
            let alone = named.filter { $0.kind == kind }.count == 1
            var base = alone ? (kinds.type(of: kind)?.scenarioVariable ?? identifier(name)) : identifier(name)
            if luaKeywords.contains(base) || base.wholeMatch(of: /f[0-9]+/) != nil { base += "_" }
            var variable = base
            var n = 2
            while taken.contains(variable) {
                variable = "\(base)_\(n)"
                n += 1
            }
            taken.insert(variable)
            out[name] = variable
        }
        return out
    }

    static let luaKeywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local",
        "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// `name` as a Lua identifier: letters, digits and `_`, not starting with a digit.
    static func identifier(_ name: String) -> String {
        var out = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    ? Character(scalar) : "_"
            })
        if out.isEmpty || out.first!.isNumber { out = "c_" + out }
        return out
    }
}
