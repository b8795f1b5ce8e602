import StackModel
import Traces

/// The studio's live screen: one real ``Screen`` of the model, built from a trace's header (a
/// fresh screen) or by replaying a test's trace up to one of its actions, then fed the page's
/// pointer events. Every answer is the model's frame at the screen's clock; the page only draws
/// it. Not thread-safe: the studio calls it under its lock.
final class LiveScreen {
    private(set) var screen: Screen
    /// The components as a trace header describes them: what Record starts again from.
    private let components: [JSONValue]
    /// The finger the page holds down, where it went down and what it hit.
    private var finger: (id: Int, start: Point, at: Point, hit: Hit?)?
    /// The page's clock (seconds) to the screen's: set while nothing moves, so that a pause
    /// with nothing on screen moving costs the trace no time.
    private var offset: Double?
    /// The recording, while Record is on.
    private(set) var recorder: TraceRecorder?
    /// Where the screen came from (`fresh`, or the test and action it was replayed to).
    let origin: String

    /// The screen `trace` describes, replayed through its first `events` events (nil: none: the
    /// header's screen as it starts).
    init(trace: Trace, events: Int?, origin: String) throws(StudioError) {
        let replayer: TraceReplayer
        do { replayer = try TraceReplayer(trace) } catch { throw StudioError("\(error)") }
        let end = min(events ?? 0, trace.steps.count)
        while replayer.position < end {
            do { try replayer.step() } catch { throw StudioError("\(error)") }
        }
        screen = replayer.screen
        components = trace.components
        self.origin = origin
    }

    /// The screen the header of these settings and components builds.
    static func header(settings: ScreenSettings, components: [JSONValue]) throws(StudioError) -> Trace {
        let text = TraceFormat.header(stackplay: "studio", settings: settings, components: components).text
        do { return try Trace(text: text + "\n", file: "studio") } catch { throw StudioError("\(error)") }
    }

    /// Starts recording from a fresh copy of this screen's components at rest (at time 0, the
    /// current settings), or stops it.
    func record(_ on: Bool) throws(StudioError) {
        guard on else {
            recorder = nil
            screen.onEvent = nil
            return
        }
        var settings = screen.settings
        settings.now = 0
        let fresh = try LiveScreen(
            trace: Self.header(settings: settings, components: screen.components.map(TraceFormat.encode)),
            events: nil, origin: origin)
        screen = fresh.screen
        finger = nil
        offset = nil
        recorder = TraceRecorder(screen: screen, stackplay: "studio", keepsValues: true)
    }

    /// The recorded trace so far, nil when not recording.
    func recordedTrace() -> Trace? {
        guard let recorder else { return nil }
        return try? recorder.trace(file: "stackplay studio's live screen")
    }

    // MARK: Input

    /// Moves the clock to the page's time `t` (seconds on the page's clock).
    private func clock(_ page: Double?) throws {
        guard let page, page.isFinite else { return }
        // Whole milliseconds: a recorded gesture then lasts a number a person would write
        // (`duration = 0.35`, not 0.35000000000002274), and nothing on screen changes for it.
        let t = (page * 1000).rounded() / 1000
        if offset == nil || isResting { offset = screen.now - t }
        let target = t + offset!
        // Past the end of the animations, the clock stops where they end (`settle`), so that the
        // recording waits exactly that long, not until the page's next frame noticed the rest.
        if finger == nil, let end = screen.pendingAnimationEnd, target >= end {
            _ = try screen.settle()
            offset = screen.now - t
            return
        }
        if target > screen.now { try screen.advance(by: target - screen.now) }
    }

    func down(_ point: Point, at t: Double?) throws {
        if finger != nil { try up(at: t) }
        try clock(t)
        let (id, hit) = try screen.touchDown(at: point)
        finger = (id, point, point, hit)
    }

    func move(_ point: Point, at t: Double?) throws {
        try clock(t)
        guard let finger else { return }
        try screen.touchMove(finger.id, to: point)
        self.finger?.at = point
    }

    func up(at t: Double?) throws {
        try clock(t)
        guard let finger else { return }
        self.finger = nil
        try screen.touchUp(finger.id)
    }

    /// The screen at the page's time `t`, nothing else fed.
    func frame(at t: Double?) throws { try clock(t) }

    func escape(at t: Double?) throws {
        try clock(t)
        _ = try screen.escape()
    }

    /// A setting changed from the page's toggles: `layout_direction`, `reduce_motion`,
    /// `dynamic_type`, `device` (a name the matrix knows), `width` or `height` (points).
    func set(_ key: String, _ value: JSONValue, at t: Double?) throws {
        try clock(t)
        switch (key, value) {
        case ("layout_direction", .string(let text)):
            guard let direction = LayoutDirection(rawValue: text) else {
                throw StudioError("ltr or rtl, not '\(text)'")
            }
            screen.setLayoutDirection(direction)
        case ("reduce_motion", .bool(let on)): screen.setReduceMotion(on)
        case ("dynamic_type", .string(let name)):
            guard let size = DynamicTypeSize(name: name) else {
                throw StudioError("unknown Dynamic Type size '\(name)'")
            }
            screen.setDynamicTypeSize(size)
        case ("device", .string(let name)):
            guard let device = ScreenSettingsVariant.Device.all.first(where: { $0.name == name }) else {
                throw StudioError("unknown device '\(name)'")
            }
            try screen.setSize(device.size)
        case ("width", .number(let width)) where width.isFinite && width > 0:
            try screen.setSize(Size(width: width, height: screen.settings.size.height))
        case ("height", .number(let height)) where height.isFinite && height > 0:
            try screen.setSize(Size(width: screen.settings.size.width, height: height))
        case ("width", _), ("height", _):
            throw StudioError("\(key): a number of points above 0, not \(value.text)")
        default: throw StudioError("unknown setting '\(key)'")
        }
    }

    // MARK: Output

    /// Nothing moves: no finger down, no animation running.
    var isResting: Bool { screen.pendingAnimationEnd == nil && finger == nil }

    /// What the page draws: the frame, the settings, whether anything still moves, the guides.
    func message(sequence: Int) -> JSONValue {
        let resting = isResting
        var fields: [(String, JSONValue)] = [
            ("type", .string("frame")), ("seq", .number(Double(sequence))),
            ("settings", TraceFormat.encode(screen.settings)),
            ("frame", TraceFormat.encode(screen.snapshot())),
            ("resting", .bool(resting)), ("guides", .array(guides())),
            ("origin", .string(origin)), ("recording", .bool(recorder != nil)),
            (
                "device",
                ScreenSettingsVariant.Device.all.first { $0.size == screen.settings.size }.map {
                    .string($0.name)
                } ?? .null
            ),
            ("devices", .array(ScreenSettingsVariant.Device.all.map { .string($0.name) })),
        ]
        if let finger {
            fields.append(("finger", .object([("x", .number(finger.at.x)), ("y", .number(finger.at.y))])))
        }
        return .object(fields)
    }

    /// Lines that help a person: the swipe threshold while a finger drags a notification card
    /// (N13, ``NotificationStack/swipeThreshold`` from where the finger went down, toward the
    /// side a swipe clears), and each sticky card's pin line (S1, S2,
    /// ``StickyStackedCardsMath/pinY(index:top:peek:maxPeeking:)``).
    func guides() -> [JSONValue] {
        var out: [JSONValue] = []
        for (index, component) in screen.components.enumerated() {
            guard case .object(let spec) = TraceFormat.encode(component),
                case .string(let kind)? = spec.first(where: { $0.0 == "kind" })?.1
            else { continue }
            let number = { (key: String) -> Double in
                if case .number(let value)? = spec.first(where: { $0.0 == key })?.1 { return value }
                return 0
            }
            if kind == ComponentKind.stickyStackedCards.rawValue {
                let count = component.snapshot(in: screen.settings).cards.count
                let lines = min(Int(number("max_peeking")), max(count - 1, 0))
                for line in 0...max(lines, 0) {
                    let y =
                        number("y")
                        + StickyStackedCardsMath.pinY(
                            index: line, top: number("top"), peek: number("peek"),
                            maxPeeking: Int(number("max_peeking")))
                    out.append(
                        .object([
                            ("axis", .string("y")), ("at", .number(y)),
                            // One label for the lines (a few points apart, labels would overlap).
                            ("label", .string(line == 0 ? "pin lines (\(lines + 1))" : "")),
                        ]))
                }
            }
            if kind == ComponentKind.notificationStack.rawValue, let finger,
                finger.hit?.componentIndex == index,
                case .card = finger.hit?.part
            {
                let sign = screen.settings.isRightToLeft ? 1.0 : -1.0
                let threshold = NotificationStack.swipeThreshold
                out.append(
                    .object([
                        ("axis", .string("x")), ("at", .number(finger.start.x + sign * threshold)),
                        ("label", .string("\(JSONValue.format(threshold)) pt: let go past here to clear")),
                    ]))
            }
        }
        return out
    }
}
