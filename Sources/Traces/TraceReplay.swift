import StackModel

/// The first place where a replay and a trace part: the event, the component, the card, the
/// field, and both values.
public struct TraceMismatch: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var index: Int
    public var time: Double
    public var type: String
    /// Where in the frame: `component 'wallet', card 'amex', field 'y'`.
    public var place: String
    /// The field's own name (`y`, `opacity`, `state.expanded`, `cards`).
    public var field: String
    public var expected: String
    public var actual: String
    /// The script's call that made the event (`the drag at x.lua:12 (stack:drag(...))`), when the
    /// trace says (version 2).
    public var action: String? = nil

    /// An index of -1 is the header (the screen and its components before the first event).
    public var description: String {
        if index < 0 {
            return "\(file):\(line): the header: \(place) differs\n"
                + "  expected: \(expected)\n    actual: \(actual)"
        }
        return
            "\(file):\(line): event \(index) (\(type) at t = \(JSONValue.format(time)) s)"
            + (action.map { " of \($0)" } ?? "") + ": \(place) differs\n"
            + "  expected: \(expected)\n    actual: \(actual)"
    }
}

/// Where two frames part, as a path of keys with the cards and components named by id.
struct FrameDifference {
    var path: [String]
    var expected: String
    var actual: String

    /// Two texts that differ in their bytes but read the same (NFC and NFD "café") are shown
    /// spelled out (`caf\u{E9}`, `cafe\u{301}`), so the report shows the difference it found.
    init(path: [String], expected: String, actual: String) {
        let same = expected == actual && !expected.isSameBytes(actual)
        (self.path, self.expected, self.actual) =
            (path, same ? expected.spelledOut : expected, same ? actual.spelledOut : actual)
    }
}

/// Builds a screen from a trace's header and feeds it the trace's events, checking every
/// recorded frame.
public final class TraceReplayer {
    public let trace: Trace
    public let screen: Screen
    /// Recorded touch ids to the replayed screen's (a trace from another tool may number its
    /// fingers as it likes).
    private var touches: [Int: Int] = [:]
    /// How many events have been fed.
    public private(set) var position = 0

    /// A screen as the header describes it; `prepare` runs before its components are added (to
    /// attach a recorder, say). A mirrored trace (or `mirrored`: a replay in a mirrored world)
    /// builds a mirrored screen: the other direction, fed the trace's inputs mirrored, its frames
    /// compared mirrored back.
    public init(_ trace: Trace, mirrored: Bool = false, prepare: (Screen) -> Void = { _ in })
        throws(TraceError)
    {
        self.trace = trace
        do { screen = try Screen(world: trace.settings, mirrored: trace.isMirrored || mirrored) } catch {
            throw TraceError(file: trace.file, line: 1, field: "screen", message: "\(error)")
        }
        prepare(screen)
        for (index, spec) in trace.components.enumerated() {
            let fields = try TraceFields(spec, file: trace.file, line: 1, path: "components[\(index)].")
            let component = try TraceFormat.makeComponent(fields, kinds: trace.kinds)
            do { try screen.add(component) } catch {
                throw TraceError(
                    file: trace.file, line: 1, field: "components[\(index)].name", message: "\(error)")
            }
        }
    }

    /// Feeds the next event; throws when the screen refuses it (a finger that is not down, a
    /// component that is not there).
    public func step() throws(TraceError) {
        let step = trace.steps[position]
        position += 1
        do {
            try apply(step)
        } catch let error as TraceError {
            throw error
        } catch {
            let by = trace.action(of: step.index).map { " of \($0)" } ?? ""
            throw TraceError(
                file: trace.file, line: step.line,
                message: "event \(step.index) (\(step.type))\(by) cannot be replayed: \(error)")
        }
    }

    private func touch(_ recorded: Int, _ step: TraceStep) throws -> Int {
        guard let id = touches[recorded] else {
            throw TraceError(
                file: trace.file, line: step.line, field: "touch", message: "no finger \(recorded) is down")
        }
        return id
    }

    private func apply(_ step: TraceStep) throws {
        guard case .event(let input) = step.input else {
            if case .add(let spec) = step.input {
                try screen.add(
                    TraceFormat.makeComponent(
                        TraceFields(spec, file: trace.file, line: step.line, path: "component."),
                        kinds: trace.kinds))
            }
            return
        }
        // A trace from another tool may leave the clock's moves out: its events' times say them.
        if case .advance = input {
        } else if step.time > screen.now {
            try screen.advance(by: step.time - screen.now)
        }
        let event = screen.mirror.event(input)
        switch event {
        case .touchDown(let recorded, let point): touches[recorded] = try screen.touchDown(at: point).touch
        case .touchMove(let recorded, let point): try screen.touchMove(try touch(recorded, step), to: point)
        case .touchUp(let recorded):
            try screen.touchUp(try touch(recorded, step))
            touches[recorded] = nil
        case .advance(let seconds): try screen.advance(by: seconds)
        case .setReduceMotion(let on): screen.setReduceMotion(on)
        case .setLayoutDirection(let direction): screen.setLayoutDirection(direction)
        case .setDynamicTypeSize(let size): screen.setDynamicTypeSize(size)
        case .setSize(let size): try screen.setSize(size)
        case .action(let component, let element, let name):
            try screen.performAction(name, on: element, of: component)
        case .escape(let component): try screen.escape(component)
        case .add(let name):
            throw StackModelError("an add event must carry the component's parameters, not only '\(name)'")
        case .change(let component, let change): try screen.change(change, of: component)
        }
    }

    /// The first difference between the recorded frame of the event just fed and the screen.
    public func check(tolerance: Double) -> TraceMismatch? {
        let step = trace.steps[position - 1]
        guard let expected = step.frame else { return nil }
        if abs(step.time - screen.now) > tolerance {
            return mismatch(
                step,
                FrameDifference(
                    path: ["t"], expected: JSONValue.format(step.time), actual: JSONValue.format(screen.now)))
        }
        let actual = TraceFormat.encode(screen.mirror.frame(screen.snapshot()))
        // The same frame, field for field (the usual case), has no difference to find.
        if Self.same(expected, actual) { return nil }
        return Self.difference(expected, actual, tolerance: tolerance).map { mismatch(step, $0) }
    }

    /// Whether two values are the same, keys in the same order, numbers equal (not NaN): then
    /// ``difference(_:_:tolerance:roundingScale:path:)`` finds nothing, at any tolerance.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameBytes($0.0, $1.0) && same($0.1, $1.1) }
        case (.string(let x), .string(let y)): return sameBytes(x, y)
        case (.number, _), (.array, _), (.object, _), (.string, _): return false
        default: return a == b
        }
    }

    /// `a.isSameBytes(b)`, comparing the two strings' UTF-8 storage directly when both have it.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let direct = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.count == y.count && x.elementsEqual(y) }
        }
        return (direct ?? nil) ?? a.isSameBytes(b)
    }

    func mismatch(_ step: TraceStep, _ difference: FrameDifference) -> TraceMismatch {
        TraceMismatch(
            file: trace.file, line: step.line, index: step.index, time: step.time, type: step.type,
            place: Self.place(difference.path), field: difference.path.last ?? "frame",
            expected: difference.expected, actual: difference.actual,
            action: trace.action(of: step.index)?.description)
    }

    /// Replays the whole trace (or its first `until` events), checking each frame: the first
    /// mismatch, or nil when every frame matched.
    public func run(until: Int? = nil, tolerance: Double) throws(TraceError) -> TraceMismatch? {
        let end = min(until ?? trace.steps.count, trace.steps.count)
        while position < end {
            try step()
            if let mismatch = check(tolerance: tolerance) { return mismatch }
        }
        return nil
    }

    // MARK: Comparing frames

    /// `components[notifications].cards[calendar].y` → `component 'notifications', card
    /// 'calendar', field 'y'`.
    static func place(_ path: [String]) -> String {
        var words: [String] = []
        var index = 0
        while index < path.count {
            let key = path[index]
            if key == "components" || key == "cards" || key == "parts", index + 1 < path.count,
                path[index + 1].hasPrefix("#")
            {
                words.append("\(key.dropLast()) '\(path[index + 1].dropFirst())'")
                index += 2
                continue
            }
            words.append("field '\(path[index...].joined(separator: "."))'")
            break
        }
        return words.joined(separator: ", ")
    }

    /// The first difference between two frames, numbers within `tolerance` counting as equal.
    /// Cards, parts and components are matched by id or name, so a path names them. With a
    /// `roundingScale` (a mirrored run's screen width), numbers also count as equal within
    /// ``mirrorRoundingUlps`` units in the last place of the largest of the two and the scale: what
    /// mirroring a coordinate there and back (`width − x`, `width − x − w`) can round away.
    static func difference(
        _ expected: JSONValue, _ actual: JSONValue, tolerance: Double, roundingScale: Double = 0,
        path: [String] = []
    ) -> FrameDifference? {
        switch (expected, actual) {
        case (.number(let a), .number(let b)):
            return abs(a - b) <= tolerance || a == b || withinRounding(a, b, scale: roundingScale)
                ? nil
                : FrameDifference(path: path, expected: JSONValue.format(a), actual: JSONValue.format(b))
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                guard let other = b.first(where: { $0.0.isSameBytes(key) })?.1 else {
                    return FrameDifference(path: path + [key], expected: value.text, actual: "(missing)")
                }
                if let found = difference(
                    value, other, tolerance: tolerance, roundingScale: roundingScale, path: path + [key])
                {
                    return found
                }
            }
            for (key, value) in b where !a.contains(where: { $0.0.isSameBytes(key) }) {
                return FrameDifference(path: path + [key], expected: "(missing)", actual: value.text)
            }
            return nil
        case (.array(let a), .array(let b)):
            let labels = (a.map(label), b.map(label))
            if a.count != b.count
                || (labels.0.allSatisfy { $0 != nil }
                    && !labels.0.elementsEqual(labels.1) { $0.isSameBytes($1) })
            {
                if labels.0.allSatisfy({ $0 != nil }) {
                    let ids = (
                        spellingApart(labels.0, from: labels.1), spellingApart(labels.1, from: labels.0)
                    )
                    let show = { (l: [String?]) in "[" + l.map { $0 ?? "?" }.joined(separator: ", ") + "]" }
                    // Both lists named: how the ids changed, aligned by content (`+ x at 2`).
                    let changes =
                        ids.1.allSatisfy { $0 != nil }
                        ? idListChanges(ids.0.compactMap { $0 }, ids.1.compactMap { $0 }) : []
                    return FrameDifference(
                        path: path, expected: show(ids.0),
                        actual: show(ids.1)
                            + (changes.isEmpty ? "" : " (\(changes.joined(separator: ", ")))"))
                }
                return FrameDifference(path: path, expected: expected.text, actual: actual.text)
            }
            for (index, (x, y)) in zip(a, b).enumerated() {
                let key = labels.0[index].map { "#" + $0 } ?? "[\(index)]"
                if let found = difference(
                    x, y, tolerance: tolerance, roundingScale: roundingScale, path: path + [key])
                {
                    return found
                }
            }
            return nil
        default:
            return expected == actual
                ? nil : FrameDifference(path: path, expected: expected.text, actual: actual.text)
        }
    }

    /// How many units in the last place a mirrored coordinate may move: each of the few
    /// subtractions of a mirror there and back rounds by at most half a unit of the screen width's
    /// magnitude; 8 leaves room and is still a billionth of a billionth of a point at 390 pt.
    public static let mirrorRoundingUlps = 8.0

    /// Whether `a` and `b` differ by no more than mirroring rounds: ``mirrorRoundingUlps`` units in
    /// the last place of the largest of `|a|`, `|b|` and `scale` (0: never).
    static func withinRounding(_ a: Double, _ b: Double, scale: Double) -> Bool {
        guard scale > 0, a.isFinite, b.isFinite else { return false }
        return abs(a - b) <= mirrorRoundingUlps * max(abs(a), abs(b), scale).ulp
    }

    /// An object's `id` or `name`, which names it in a path.
    private static func label(_ value: JSONValue) -> String? {
        if case .string(let id)? = value["id"] { return id }
        if case .string(let name)? = value["name"] { return name }
        return nil
    }
}

/// Comparing two recorded runs event by event (golden traces).
public enum TraceComparison {
    /// The first place where `actual` parts from `expected`: the header, an input, a frame
    /// (numbers within `tolerance` are equal), or a missing or extra event. Messages name
    /// `expected`'s file and line, as `stackplay replay` does. Inputs are compared exactly unless
    /// `inputTolerance` says (`--mirror` compares a run with its mirror image, whose touch points
    /// went through `width − x` twice).
    public static func firstDifference(
        expected: Trace, actual: Trace, tolerance: Double, inputTolerance: Double = 0
    ) -> TraceMismatch? {
        // The run's call names the event (its script is the one being run), else the golden's.
        func action(_ index: Int) -> String? {
            (actual.action(of: index) ?? expected.action(of: index))?.description
        }
        func mismatch(_ step: TraceStep, _ difference: FrameDifference, prefix: String = "") -> TraceMismatch
        {
            TraceMismatch(
                file: expected.file, line: step.line, index: step.index, time: step.time, type: step.type,
                place: prefix + TraceReplayer.place(difference.path), field: difference.path.last ?? "frame",
                expected: difference.expected, actual: difference.actual, action: action(step.index))
        }
        // A mirrored run's numbers went through the mirror: they are compared to its rounding too.
        let scale =
            expected.isMirrored || actual.isMirrored
            ? max(expected.settings.size.width, actual.settings.size.width) : 0
        let headers = (header(expected), header(actual))
        if let difference = TraceReplayer.difference(
            headers.0, headers.1, tolerance: tolerance, roundingScale: scale)
        {
            return TraceMismatch(
                file: expected.file, line: 1, index: -1, time: expected.settings.now, type: "header",
                place: TraceReplayer.place(difference.path), field: difference.path.last ?? "header",
                expected: difference.expected, actual: difference.actual)
        }
        for (e, a) in zip(expected.steps, actual.steps) {
            if e.input != a.input || e.event != a.event {
                if let difference = TraceReplayer.difference(
                    e.event, a.event, tolerance: inputTolerance, roundingScale: scale)
                {
                    return mismatch(e, difference, prefix: "the input, ")
                } else if inputTolerance == 0 && scale == 0 {
                    let difference = FrameDifference(
                        path: ["type"], expected: e.event.text, actual: a.event.text)
                    return mismatch(e, difference, prefix: "the input, ")
                }
            }
            if abs(e.time - a.time) > tolerance {
                return mismatch(
                    e,
                    FrameDifference(
                        path: ["t"], expected: JSONValue.format(e.time), actual: JSONValue.format(a.time)))
            }
            switch (e.frame, a.frame) {
            case (let frame?, let other?):
                if !TraceReplayer.same(frame, other),
                    let difference = TraceReplayer.difference(
                        frame, other, tolerance: tolerance, roundingScale: scale)
                {
                    return mismatch(e, difference)
                }
            case (.some, nil), (nil, .some):
                return mismatch(
                    e,
                    FrameDifference(
                        path: ["frame"], expected: e.frame == nil ? "(none)" : "a frame",
                        actual: a.frame == nil ? "(none)" : "a frame"))
            case (nil, nil): break
            }
        }
        let (e, a) = (expected.steps.count, actual.steps.count)
        guard e != a else { return nil }
        let extra = e > a ? expected.steps[a] : actual.steps[e]
        return TraceMismatch(
            file: expected.file, line: e > a ? extra.line : (expected.steps.last?.line ?? 1) + 1,
            index: extra.index,
            time: extra.time, type: extra.type,
            place: e > a
                ? "the run ends before this event: the number of events"
                : "the run has more events: the number of events",
            field: "events", expected: "\(e) events", actual: "\(a) events", action: action(extra.index))
    }

    /// The header's screen and components, as one value to compare.
    static func header(_ trace: Trace) -> JSONValue {
        .object([("screen", TraceFormat.encode(trace.settings)), ("components", .array(trace.components))])
    }
}

/// `ids` with each id that reads the same as one of `other` but differs in its bytes (NFC and NFD
/// "café") spelled out (``Swift/String/spelledOut``), so a list difference shows what differs.
private func spellingApart(_ ids: [String?], from other: [String?]) -> [String?] {
    let readings = Set(other.compactMap { $0 })
    let spellings = Set(other.compactMap { $0.map(ByteKey.init) })
    return ids.map { id in
        id.map { readings.contains($0) && !spellings.contains(ByteKey($0)) ? $0.spelledOut : $0 }
    }
}
