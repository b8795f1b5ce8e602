import StackModel
import TestResults

/// What a trace line after the header feeds the screen: an input, or a component put on the
/// screen after the first input (its parameters, as in the header).
public enum TraceInput: Equatable, Sendable {
    case event(InputEvent)
    case add(JSONValue)
}

/// One event line of a trace.
public struct TraceStep: Sendable {
    /// The 1-based line in the file.
    public var line: Int
    /// The event's index, 0 for the first event.
    public var index: Int
    /// The screen's clock after the event.
    public var time: Double
    public var input: TraceInput
    /// The frame after the event; a trace from another tool may leave it out.
    public var frame: JSONValue?
    /// The line's `type`, for messages.
    public var type: String
    /// The line's input fields (`type` and its parameters; no `i`, `t` or `frame`), so that a
    /// difference in the input names its field.
    public var event: JSONValue
    /// The index in ``Trace/actions`` of the script's call that made it; nil in a version 1 trace
    /// or for an input no call made.
    public var action: Int? = nil
}

/// One call of the script that made input (version 2): the method, where the script called it,
/// and the events it made, which follow its line.
public struct TraceAction: Equatable, Sendable {
    /// The 1-based line in the trace file.
    public var line: Int
    /// Its index, 0 for the first action.
    public var index: Int
    /// The method called (`drag`, `tap`, `settle`).
    public var method: String
    /// The script's file (as given to stackplay) and line, and that line's text, trimmed.
    public var file: String
    public var sourceLine: Int
    public var source: String
    /// The index of its first event and how many it made.
    public var firstEvent: Int
    public var events: Int

    /// `the drag at x.lua:12 (stack:drag("calendar", { x = 111 }))`, for messages.
    public var description: String {
        "the \(method) at \(file):\(sourceLine)" + (source.isEmpty ? "" : " (\(source))")
    }
}

/// A trace read from a file: its header and its events, checked field by field.
public struct Trace: Sendable {
    /// The file it came from, as given (messages name it).
    public var file: String
    public var stackplay: String
    public var settings: ScreenSettings
    /// The header's `"mirror": true`: the trace is the script's world of a mirrored screen, which
    /// ran the other layout direction with every x mirrored (a replay does the same).
    public var isMirrored: Bool
    /// The components on the screen before the first event, as the header lists them.
    public var components: [JSONValue]
    public var steps: [TraceStep]
    /// The script's calls that made the events (version 2; empty for version 1).
    public var actions: [TraceAction]
    /// The version the header gives (1 or 2).
    public var version: Int
    /// The component kinds it may hold: what its replay builds them from.
    public var kinds: ComponentKinds
    /// The run's verdict on the test that recorded it: a `--trace` file's last line
    /// (`{"result": {...}}`, a test as the `--json` report writes it, without its traces); nil
    /// for a trace from elsewhere (a script's `screen:trace()`, a golden trace, explore).
    public var result: TestResult?
    /// Which of its test's screens this trace is, from 1 (the result line's `screen`).
    public var resultScreen = 1

    /// Reads the text of a trace; `file` is the name messages use. A UTF-8 byte order mark and
    /// Windows line ends (`\r\n`) are accepted.
    public init(text: String, file: String, kinds: ComponentKinds = .standard) throws(TraceError) {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self)
        }
        if lines.first?.unicodeScalars.first == "\u{FEFF}" { lines[0].unicodeScalars.removeFirst() }
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first else {
            throw TraceError(
                file: file, line: 1, message: "the file is empty: a trace starts with a header line")
        }
        try self.init(
            header: Self.parse(first, file: file, line: 1), lines: lines.count, file: file, kinds: kinds
        ) {
            line throws(TraceError) in
            let text = lines[line - 1]
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else {
                throw TraceError(
                    file: file, line: line, message: "an empty line: each line after the header is one event")
            }
            return try Self.parse(text, file: file, line: line)
        }
    }

    /// A trace from its lines already read as JSON (``TraceRecorder/values``: the header first),
    /// checked as ``init(text:file:kinds:)`` checks the same lines' text: what a recording reads
    /// back as without writing and parsing its text (the writer's numbers read back as the same
    /// bits, ``JSONValue/format(_:)``).
    public init(values: [JSONValue], file: String, kinds: ComponentKinds = .standard) throws(TraceError) {
        try self.init(values: values, file: file, kinds: kinds) { _ in false }
    }

    /// ``init(values:file:kinds:)``, but the lines `vetted(n)` names are not checked for what their
    /// text would not read back as: a recorder's events (``TraceRecorder/trace(file:kinds:)``).
    init(values: [JSONValue], file: String, kinds: ComponentKinds, vetted: (Int) -> Bool) throws(TraceError) {
        guard !values.isEmpty else {
            throw TraceError(
                file: file, line: 1, message: "the file is empty: a trace starts with a header line")
        }
        // What the text of a value does not read back as: a key given twice (the parser refuses
        // it), a NaN or an infinity (written as null).
        func read(_ line: Int) throws(TraceError) -> JSONValue {
            let value = values[line - 1]
            if vetted(line) {
                assert(value.repeatedKey == nil && value.isFinite, "a vetted line \(line) of \(file)")
                return value
            }
            if let key = value.repeatedKey {
                throw TraceError(
                    file: file, line: line, message: "malformed JSON: key '\(key)' is given twice")
            }
            guard value.isFinite else {
                throw TraceError(
                    file: file, line: line, message: "a number is not finite, which JSON cannot hold")
            }
            return value
        }
        try self.init(header: read(1), lines: values.count, file: file, kinds: kinds, line: read)
    }

    /// The checks of both readers: `header` is line 1, `line(n)` reads line n (2...`lines`).
    private init(
        header first: JSONValue, lines count: Int, file: String, kinds: ComponentKinds,
        line read: (Int) throws(TraceError) -> JSONValue
    ) throws(TraceError) {
        self.file = file
        self.kinds = kinds
        let header = try TraceFields(first, file: file, line: 1)
        let format = try header.string("format")
        guard format == TraceFormat.name else {
            throw header.error("format", "'\(TraceFormat.name)' expected, got '\(format)'")
        }
        version = try header.integer("version")
        guard TraceFormat.readableVersions.contains(version) else {
            throw header.error(
                "version",
                "unknown trace version \(version) (this stackplay reads versions "
                    + "\(TraceFormat.readableVersions.map(String.init).joined(separator: " and ")))")
        }
        stackplay = try header.string("stackplay")
        let screen = try header.object("screen")
        settings = try TraceFormat.decodeSettings(screen)
        isMirrored = screen.has("mirror") ? try screen.bool("mirror") : false
        components = []
        result = nil
        for spec in try header.objects("components") {
            _ = try TraceFormat.makeComponent(spec, kinds: kinds)
            components.append(.object(spec.fields))
        }
        steps = []
        actions = []
        var time = settings.now
        // The action whose events are being read, and how many of them are still to come.
        var open: (action: Int, left: Int)?
        for line in stride(from: 2, through: count, by: 1) {
            let o = try TraceFields(read(line), file: file, line: line)
            if !o.has("type"), !o.has("action"), o.has("result") {
                guard line == count else { throw o.error("result", "the result line is a trace's last line") }
                guard version >= 2 else { throw o.error("result", "a result line needs trace version 2") }
                do {
                    result = try JSONValueDecoder().decode(
                        TestResult.self, from: o.value("result"), at: [JSONKey("result")])
                    if o.has("screen") {
                        resultScreen = try o.integer("screen")
                        guard resultScreen >= 1 else {
                            throw o.error("screen", "a screen's number starts at 1")
                        }
                    }
                } catch let error as TraceError {
                    throw error
                } catch {
                    let problem = JSONDecodingProblem(error)
                    throw o.error(problem.path.isEmpty ? "result" : problem.path, problem.message)
                }
                continue
            }
            if !o.has("type"), o.has("action") {
                if let open {
                    throw o.error(
                        "action",
                        "action \(open.action) at line \(actions[open.action].line) still has \(open.left) "
                            + "event\(open.left == 1 ? "" : "s") to come")
                }
                let action = try TraceFormat.decodeAction(o, index: actions.count, firstEvent: steps.count)
                guard version >= 2 else { throw o.error("action", "action lines need trace version 2") }
                actions.append(action)
                open = (action.index, action.events)
                continue
            }
            let index = steps.count
            if o.has("i") {
                let given = try o.integer("i")
                guard given == index else { throw o.error("i", "event \(index) expected here, got \(given)") }
            }
            let t = try o.nonNegative("t")
            guard t >= time else {
                throw o.error("t", "time goes back, from \(JSONValue.format(time)) to \(JSONValue.format(t))")
            }
            time = t
            let input = try TraceFormat.decodeInput(o, kinds: kinds)
            var frame: JSONValue?
            if o.has("frame") {
                let fields = try o.object("frame")
                _ = try TraceFormat.decodeFrame(fields, settings: settings, kinds: kinds)
                frame = try o.value("frame")
            }
            let event = JSONValue.object(o.fields.filter { !["i", "t", "frame"].contains($0.0) })
            steps.append(
                TraceStep(
                    line: line, index: index, time: t, input: input, frame: frame, type: try o.string("type"),
                    event: event, action: open?.action))
            if let current = open { open = current.left > 1 ? (current.action, current.left - 1) : nil }
        }
        if let open {
            let action = actions[open.action]
            throw TraceError(
                file: file, line: action.line, field: "events",
                message:
                    "the action groups \(action.events) events, the trace ends after \(action.events - open.left)"
            )
        }
    }

    /// The action that made event `index`, if any.
    public func action(of index: Int) -> TraceAction? {
        guard steps.indices.contains(index), let action = steps[index].action else { return nil }
        return actions[action]
    }

    /// Reads the trace at `path` (a regular file of at most ``TraceFile/sizeLimit`` bytes).
    public init(contentsOf path: String, kinds: ComponentKinds = .standard) throws(TraceError) {
        let text: String
        do { text = try TraceFile.read(path) } catch {
            throw TraceError(file: path, line: 0, message: error.message)
        }
        try self.init(text: text, file: path, kinds: kinds)
    }

    /// Reads the trace a script named, confined to its folder.
    public init(contentsOf path: ConfinedPath, kinds: ComponentKinds = .standard) throws(TraceError) {
        let text: String
        do { text = try path.read() } catch {
            throw TraceError(file: path.path, line: 0, message: error.message)
        }
        try self.init(text: text, file: path.path, kinds: kinds)
    }

    static func parse(_ text: String, file: String, line: Int) throws(TraceError) -> JSONValue {
        do { return try JSONParser.parse(text) } catch {
            throw TraceError(
                file: file, line: line, message: "malformed JSON at column \(error.column): \(error.message)")
        }
    }

    /// The screen's settings after the events before `index` (its size and direction for a
    /// picture), at that event's time.
    public func settings(at index: Int) -> ScreenSettings {
        var settings = self.settings
        for step in steps.prefix(index + 1) {
            settings.now = step.time
            guard case .event(let event) = step.input else { continue }
            switch event {
            case .setSize(let size): settings.size = size
            case .setLayoutDirection(let direction): settings.layoutDirection = direction
            case .setReduceMotion(let on): settings.reduceMotion = on
            case .setDynamicTypeSize(let size): settings.dynamicTypeSize = size
            default: break
            }
        }
        return settings
    }

    /// The recorded frame after event `index`, read back as snapshots.
    public func frame(at index: Int) throws(TraceError) -> FrameSnapshot? {
        let step = steps[index]
        guard let frame = step.frame else { return nil }
        return try TraceFormat.decodeFrame(
            TraceFields(frame, file: file, line: step.line, path: "frame."), settings: settings(at: index),
            kinds: kinds)
    }
}
