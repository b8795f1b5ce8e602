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

    /// Starts recording `screen`; `stackplay` is the version the header names.
    public init(screen: Screen, stackplay: String, calls: (() -> TraceCall?)? = nil) {
        self.stackplay = stackplay
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
            if let last = actions.last, last.call == call, last.at + last.events == lines.count {
                actions[actions.count - 1].events += 1
            } else {
                actions.append((lines.count, call, 1))
            }
        }
        var fields: [(String, JSONValue)] = [("i", .number(Double(lines.count))), ("t", .number(screen.now))]
        let mirror = screen.mirror
        fields += TraceFormat.encode(mirror.event(event), on: screen)
        fields.append(("frame", TraceFormat.encode(mirror.frame(screen.snapshot()))))
        let event = JSONValue.object(fields)
        if let field = Self.nonFinite(event, path: "") {
            refusal =
                "the trace stops before event \(lines.count + 1) (t = \(formatNumber(screen.now)) s): its '\(field)' "
                + "is not a finite number, which a trace cannot hold"
            return
        }
        let line = event.text
        // The header comes on top: leave it room (a component's header holds its cards).
        guard byteCount + line.utf8.count + 1 <= TraceFile.sizeLimit - headerAllowance else {
            refusal =
                "the trace stops before event \(lines.count + 1): it would pass \(TraceFile.sizeLimit >> 20) MiB, "
                + "the most `stackplay replay` reads"
            return
        }
        byteCount += line.utf8.count + 1
        lines.append(line)
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
    public var eventCount: Int { lines.count }

    /// The trace as JSON Lines, each line ending in a newline: each action's line before its events.
    public var text: String {
        let first = TraceFormat.header(
            stackplay: stackplay, settings: settings, components: header, mirrored: isMirrored)
        var out = first.text + "\n"
        var next = 0
        for (index, line) in lines.enumerated() {
            if next < actions.count, actions[next].at == index {
                out +=
                    TraceFormat.encode(action: next, actions[next].call, events: actions[next].events).text
                    + "\n"
                next += 1
            }
            out += line + "\n"
        }
        return out
    }
}
