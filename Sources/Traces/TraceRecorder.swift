import StackModel

/// The script's call that made an input, as a recorder's ``TraceRecorder/calls`` source tells it.
public struct TraceCall: Equatable, Sendable {
    /// The same for the inputs of one call, different for the next call.
    public var serial: UInt64
    public var method: String
    public var file: String
    public var line: Int
    /// The source line's text, trimmed ("" when the file cannot be read).
    public var source: String

    public init(serial: UInt64, method: String, file: String, line: Int, source: String) {
        self.serial = serial
        self.method = method
        self.file = file
        self.line = line
        self.source = source
    }
}

/// Records what a screen receives as a trace: attach it to a screen before anything happens on
/// it. Components added before the first input go in the header; those added later are `add`
/// events. After each event it stores the frame the screen shows. The header is written at the
/// first event, so it holds the screen's settings as they were before any input. With a
/// ``calls`` source, the events one script call made are grouped under an action line.
///
/// A screen without a recorder pays nothing: `Screen.onEvent` stays nil.
public final class TraceRecorder {
    public let stackplay: String
    private let settings: ScreenSettings
    /// Whether the screen is mirrored: then the trace holds the script's world (its direction,
    /// its x), and the header says `"mirror": true` (docs/traces.md).
    private let isMirrored: Bool
    private var header: [JSONValue] = []
    private var lines: [String] = []
    /// The events as values too, when asked for (``values``).
    private let keepsValues: Bool
    private var events: [JSONValue] = []
    /// Each action: the event it starts at, the call, and how many events it made.
    private var actions: [(at: Int, call: TraceCall, events: Int)] = []
    private var started = false
    /// Which call of the script is running when an event comes (nil: none); asked once an event.
    public var calls: (() -> TraceCall?)?
    /// The bytes of the lines so far (with their newlines): what the recording holds.
    public private(set) var byteCount = 0
    /// Why the recording stopped: a frame with a number a trace cannot hold (`y = inf` from
    /// `spacing = 1e308`), or the trace past ``TraceFile/sizeLimit``, the most `replay` reads.
    /// What was recorded before it is a trace that reads back; nil while recording.
    public private(set) var refusal: String?

    /// Starts recording `screen`; `stackplay` is the version the header names. With `keepsValues`
    /// the recording also keeps its lines as values (``values``), to read back without parsing.
    public init(
        screen: Screen, stackplay: String, calls: (() -> TraceCall?)? = nil, keepsValues: Bool = false
    ) {
        self.stackplay = stackplay
        self.keepsValues = keepsValues
        self.calls = calls
        isMirrored = screen.isMirrored
        settings = screen.mirror.settings(screen.settings)
        header = screen.components.map(TraceFormat.encode)
        // Weak both ways: the screen keeps this closure, and a caller may drop the recorder (the
        // screen then records nothing) or the screen (the recorder keeps what it has).
        screen.onEvent = { [weak self, weak screen] event in
            guard let self, let screen else { return }
            self.record(event, on: screen)
        }
    }

    private func record(_ event: InputEvent, on screen: Screen) {
        if !started, case .add(let name) = event, let component = screen.component(named: name) {
            header.append(TraceFormat.encode(component))
            return
        }
        guard refusal == nil else { return }
        started = true
        if let call = calls?() {
            // The same call as the last event's, and nothing between them: one more of its events.
            if let last = actions.last, last.call == call, last.at + last.events == eventCount {
                actions[actions.count - 1].events += 1
            } else {
                actions.append((eventCount, call, 1))
            }
        }
        var fields: [(String, JSONValue)] = [("i", .number(Double(eventCount))), ("t", .number(screen.now))]
        let mirror = screen.mirror
        fields += TraceFormat.encode(mirror.event(event), on: screen)
        fields.append(("frame", TraceFormat.encode(mirror.frame(screen.snapshot()))))
        let event = JSONValue.object(fields)
        if !event.isFinite, let field = Self.nonFinite(event, path: "") {
            refusal =
                "the trace stops before event \(eventCount + 1) (t = \(formatNumber(screen.now)) s): its '\(field)' "
                + "is not a finite number, which a trace cannot hold"
            return
        }
        // Kept as a value, the line's text is only counted (``JSONValue/textByteCount``).
        let line = keepsValues ? "" : event.text
        let size = keepsValues ? event.textByteCount : line.utf8.count
        // The header comes on top: leave it room (a component's header holds its cards).
        guard byteCount + size + 1 <= TraceFile.sizeLimit - headerAllowance else {
            refusal =
                "the trace stops before event \(eventCount + 1): it would pass \(TraceFile.sizeLimit >> 20) MiB, "
                + "the most `stackplay replay` reads"
            return
        }
        byteCount += size + 1
        if keepsValues { events.append(event) } else { lines.append(line) }
    }

    /// Room kept for the header under ``TraceFile/sizeLimit``: its size when the recording began.
    private lazy var headerAllowance: Int =
        TraceFormat.header(stackplay: stackplay, settings: settings, components: header, mirrored: isMirrored)
        .text.utf8.count + 1

    /// The path of the first number in `value` that is NaN or infinite (`frame.components[1].cards[2].y`).
    private static func nonFinite(_ value: JSONValue, path: String) -> String? {
        switch value {
        case .number(let number): return number.isFinite ? nil : path
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = nonFinite(item, path: "\(path)[\(index + 1)]") { return found }
            }
        case .object(let fields):
            for (key, item) in fields {
                if let found = nonFinite(item, path: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
        case .null, .bool, .string: break
        }
        return nil
    }

    /// The number of events recorded.
    public var eventCount: Int { keepsValues ? events.count : lines.count }

    /// The trace as JSON Lines, each line ending in a newline: each action's line before its events.
    public var text: String {
        var out = ""
        lineValues { value, index in
            if let index {
                if keepsValues { events[index].write(to: &out) } else { out += lines[index] }
            } else {
                value?.write(to: &out)
            }
            out += "\n"
        }
        return out
    }

    /// The lines of ``text`` as the values they are written from (a recorder made with
    /// `keepsValues`; otherwise the header and action lines only): `Trace(values:)` reads them as
    /// `Trace(text:)` reads the text, without writing and parsing it.
    public var values: [JSONValue] { lineValuesAndKinds().values }

    /// The recording as a trace, as `Trace(values: values)` reads it, without checking its events
    /// again: ``record(_:on:)`` kept only finite ones, and ``TraceFormat`` writes each key once.
    public func trace(file: String, kinds: ComponentKinds = .standard) throws(TraceError) -> Trace {
        let (values, isEvent) = lineValuesAndKinds()
        return try Trace(values: values, file: file, kinds: kinds) { isEvent[$0 - 1] }
    }

    /// ``values``, and whether each is an event's.
    private func lineValuesAndKinds() -> (values: [JSONValue], isEvent: [Bool]) {
        var values: [JSONValue] = []
        var isEvent: [Bool] = []
        lineValues { value, index in
            values.append(value ?? events[index!])
            isEvent.append(value == nil)
        }
        return (values, isEvent)
    }

    /// Each line in order: the header's or an action's value (the index nil), or event `index`.
    private func lineValues(_ body: (JSONValue?, Int?) -> Void) {
        let count = eventCount
        body(
            TraceFormat.header(
                stackplay: stackplay, settings: settings, components: header, mirrored: isMirrored),
            nil)
        var next = 0
        for index in 0..<count {
            if next < actions.count, actions[next].at == index {
                body(TraceFormat.encode(action: next, actions[next].call, events: actions[next].events), nil)
                next += 1
            }
            body(nil, index)
        }
    }
}
