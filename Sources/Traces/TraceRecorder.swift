import StackModel

/// Records what a screen receives as a trace: attach it to a screen before anything happens on
/// it. Components added before the first input go in the header; those added later are `add`
/// events. After each event it stores the frame the screen shows. The header is written at the
/// first event, so it holds the screen's settings as they were before any input.
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
    private var started = false

    /// Starts recording `screen`; `stackplay` is the version the header names.
    public init(screen: Screen, stackplay: String) {
        self.stackplay = stackplay
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
        started = true
        var fields: [(String, JSONValue)] = [("i", .number(Double(lines.count))), ("t", .number(screen.now))]
        let mirror = screen.mirror
        fields += TraceFormat.encode(mirror.event(event), on: screen)
        fields.append(("frame", TraceFormat.encode(mirror.frame(screen.snapshot()))))
        lines.append(JSONValue.object(fields).text)
    }

    /// The number of events recorded.
    public var eventCount: Int { lines.count }

    /// The trace as JSON Lines, each line ending in a newline.
    public var text: String {
        let first = TraceFormat.header(
            stackplay: stackplay, settings: settings, components: header, mirrored: isMirrored)
        var out = first.text + "\n"
        for line in lines { out += line + "\n" }
        return out
    }
}
