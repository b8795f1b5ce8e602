import StackModel

/// The trace format, version 2 (docs/traces.md): JSON Lines, a header line, then one line per
/// input event with the frame after it, each script call that made input (an action) on a line
/// before its events. Keys are written in a fixed order and numbers in their
/// shortest round-trip form, so the same run gives the same bytes (R2).
public enum TraceFormat {
    /// The `format` field of every header.
    public static let name = "stackplay-trace"
    /// The version this build writes and reads.
    public static let version = 2
    /// The versions this build reads: 1 has no action lines.
    public static let readableVersions = [1, 2]

    static let directions: [(String, LayoutDirection)] = [("ltr", .leftToRight), ("rtl", .rightToLeft)]

    // MARK: Header

    /// The header line's value.
    /// `mirrored`: the screen was seen through a ``Mirror`` (`"mirror": true` after `now`; a
    /// screen that was not has no such field, so its trace keeps the bytes it always had).
    public static func header(
        stackplay: String, settings: ScreenSettings, components: [JSONValue], mirrored: Bool = false
    )
        -> JSONValue
    {
        var screen = encode(settings)
        if mirrored, case .object(var fields) = screen {
            fields.append(("mirror", .bool(true)))
            screen = .object(fields)
        }
        return .object([
            ("format", .string(name)), ("version", .number(Double(version))),
            ("stackplay", .string(stackplay)),
            ("screen", screen), ("components", .array(components)),
        ])
    }

    public static func encode(_ settings: ScreenSettings) -> JSONValue {
        .object([
            ("width", .number(settings.size.width)), ("height", .number(settings.size.height)),
            ("layout_direction", .string(settings.layoutDirection.rawValue)),
            ("reduce_motion", .bool(settings.reduceMotion)),
            ("dynamic_type", .string(settings.dynamicTypeSize.shortName)), ("now", .number(settings.now)),
        ])
    }

    static func decodeSettings(_ o: TraceFields) throws(TraceError) -> ScreenSettings {
        let sizeName = try o.string("dynamic_type")
        guard let size = DynamicTypeSize(name: sizeName) else {
            throw o.error("dynamic_type", "unknown Dynamic Type size '\(sizeName)'")
        }
        return ScreenSettings(
            size: Size(width: try o.nonNegative("width"), height: try o.nonNegative("height")),
            layoutDirection: try o.choice("layout_direction", directions),
            reduceMotion: try o.bool("reduce_motion"),
            dynamicTypeSize: size, now: try o.nonNegative("now"))
    }

    // MARK: Components

    public static func encode(_ cards: [CardSpec]) -> JSONValue {
        .array(
            cards.map {
                .object([
                    ("id", .string($0.id)), ("height", .number($0.height)), ("label", .string($0.label)),
                ])
            })
    }

    public static func decodeCards(_ o: TraceFields, _ key: String) throws(TraceError) -> [CardSpec] {
        var cards: [CardSpec] = []
        for card in try o.objects(key) {
            cards.append(
                CardSpec(
                    id: try card.string("id"), height: try card.nonNegative("height"),
                    label: try card.optionalString("label")))
        }
        return cards
    }

    /// A component with every parameter it was built with, named as the Lua options are, so a
    /// replay builds it again exactly (the current model state stands for the initial one).
    public static func encode(_ component: any Component) -> JSONValue {
        let fields: [(String, JSONValue)] = [
            ("kind", .string(component.kind.rawValue)), ("name", .string(component.name)),
        ]
        return .object(fields + ((component as? any TraceableComponent)?.traceFields ?? []))
    }

    /// Builds the component a header or an `add` event describes, of one of `kinds`.
    static func makeComponent(_ o: TraceFields, kinds: ComponentKinds) throws(TraceError) -> any Component {
        let type = try o.choice("kind", kinds.types.map { ($0.componentKind.rawValue, $0) })
        let name = try o.string("name")
        do {
            return try type.make(name: name, from: o)
        } catch let error as TraceError {
            throw error
        } catch {
            throw TraceError(
                file: o.file, line: o.line, field: o.path.isEmpty ? nil : String(o.path.dropLast()),
                message: "\(error)")
        }
    }

    // MARK: Events

    /// An input event's fields after `i` and `t`: its `type`, then what it carries.
    static func encode(_ event: InputEvent, on screen: Screen) -> [(String, JSONValue)] {
        func point(_ p: Point) -> [(String, JSONValue)] { [("x", .number(p.x)), ("y", .number(p.y))] }
        switch event {
        case .touchDown(let touch, let at):
            return [("type", "touch_down"), ("touch", .number(Double(touch)))] + point(at)
        case .touchMove(let touch, let to):
            return [("type", "touch_move"), ("touch", .number(Double(touch)))] + point(to)
        case .touchUp(let touch): return [("type", "touch_up"), ("touch", .number(Double(touch)))]
        case .advance(let seconds): return [("type", "advance"), ("seconds", .number(seconds))]
        case .setReduceMotion(let on): return [("type", "set_reduce_motion"), ("on", .bool(on))]
        case .setLayoutDirection(let direction):
            return [("type", "set_layout_direction"), ("direction", .string(direction.rawValue))]
        case .setDynamicTypeSize(let size):
            return [("type", "set_dynamic_type"), ("size", .string(size.shortName))]
        case .setSize(let size):
            return [("type", "set_size"), ("width", .number(size.width)), ("height", .number(size.height))]
        case .action(let component, let element, let name):
            return [
                ("type", "action"), ("component", .string(component)), ("element", .string(element)),
                ("action", .string(name)),
            ]
        case .escape(let component): return [("type", "escape"), ("component", .string(component))]
        case .add(let name):
            let spec = screen.component(named: name).map(encode) ?? .object([("name", .string(name))])
            return [("type", "add"), ("component", spec)]
        case .change(let component, let change):
            return [("type", .string(change.name)), ("component", .string(component))]
                + change.fields.map { ($0.name, encode($0.value)) }
        }
    }

    /// The screen's own event types; each kind adds its owner changes (`set_expanded`).
    static let screenEventTypes = [
        "touch_down", "touch_move", "touch_up", "advance", "set_reduce_motion", "set_layout_direction",
        "set_dynamic_type", "set_size", "action", "escape", "add",
    ]

    /// Every event type of `kinds`, for messages.
    public static func eventTypes(_ kinds: ComponentKinds = .standard) -> [String] {
        screenEventTypes + kinds.ownerChanges.map(\.name)
    }

    static func encode(_ value: OwnerChange.Value) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .cards(let cards): encode(cards)
        }
    }

    /// An owner change read by its schema.
    static func decode(_ schema: OwnerChange.Schema, _ o: TraceFields) throws(TraceError) -> OwnerChange {
        var fields: [OwnerChange.Field] = []
        for field in schema.fields {
            let value: OwnerChange.Value
            switch field.type {
            case .bool: value = .bool(try o.bool(field.name))
            case .number: value = .number(try o.number(field.name))
            case .nonNegative: value = .number(try o.nonNegative(field.name))
            case .optionalString: value = try o.optionalString(field.name).map { .string($0) } ?? .null
            case .cards: value = .cards(try decodeCards(o, field.name))
            }
            fields.append(OwnerChange.Field(field.name, value))
        }
        return OwnerChange(schema.name, fields)
    }

    static func decodeInput(_ o: TraceFields, kinds: ComponentKinds) throws(TraceError) -> TraceInput {
        let type = try o.string("type")
        func point() throws(TraceError) -> Point { Point(x: try o.number("x"), y: try o.number("y")) }
        switch type {
        case "touch_down": return .event(.touchDown(touch: try o.integer("touch"), at: try point()))
        case "touch_move": return .event(.touchMove(touch: try o.integer("touch"), to: try point()))
        case "touch_up": return .event(.touchUp(touch: try o.integer("touch")))
        case "advance": return .event(.advance(seconds: try o.nonNegative("seconds")))
        case "set_reduce_motion": return .event(.setReduceMotion(try o.bool("on")))
        case "set_layout_direction": return .event(.setLayoutDirection(try o.choice("direction", directions)))
        case "set_dynamic_type":
            let name = try o.string("size")
            guard let size = DynamicTypeSize(name: name) else {
                throw o.error("size", "unknown Dynamic Type size '\(name)'")
            }
            return .event(.setDynamicTypeSize(size))
        case "set_size":
            return .event(
                .setSize(Size(width: try o.nonNegative("width"), height: try o.nonNegative("height"))))
        case "action":
            return .event(
                .action(
                    component: try o.string("component"), element: try o.string("element"),
                    name: try o.string("action")))
        case "escape": return .event(.escape(component: try o.string("component")))
        case "add":
            let spec = try o.object("component")
            _ = try makeComponent(spec, kinds: kinds)
            return .add(try o.value("component"))
        default:
            if let schema = kinds.ownerChanges.first(where: { $0.name == type }) {
                return .event(.change(component: try o.string("component"), change: try decode(schema, o)))
            }
            var message = "unknown event type '\(type)'"
            if let near = nearestName(to: type, in: TraceFormat.eventTypes(kinds)) {
                message += " (did you mean '\(near)'?)"
            }
            throw o.error("type", message)
        }
    }

    // MARK: Actions

    /// An action line: `{"action":0,"method":"drag","file":"x.lua","line":12,"source":"…","events":12}`.
    static func encode(action index: Int, _ call: TraceCall, events: Int) -> JSONValue {
        .object([
            ("action", .number(Double(index))), ("method", .string(call.method)),
            ("file", .string(call.file)), ("line", .number(Double(call.line))),
            ("source", .string(call.source)),
            ("events", .number(Double(events))),
        ])
    }

    static func decodeAction(_ o: TraceFields, index: Int, firstEvent: Int) throws(TraceError) -> TraceAction
    {
        let given = try o.integer("action")
        guard given == index else {
            throw o.error("action", "action \(index) expected here, got \(given)")
        }
        let events = try o.integer("events")
        guard events >= 1 else {
            throw o.error("events", "an action groups at least 1 event, got \(events)")
        }
        let line = try o.integer("line")
        guard line >= 1 else { throw o.error("line", "a line number from 1 expected, got \(line)") }
        return TraceAction(
            line: o.line, index: index, method: try o.string("method"), file: try o.string("file"),
            sourceLine: line, source: try o.string("source"), firstEvent: firstEvent, events: events)
    }

    // MARK: Frames

    /// What a frame line holds after an event: every component, its cards, its parts, its state.
    public static func encode(_ frame: FrameSnapshot) -> JSONValue {
        .object([("components", .array(frame.components.map(encode)))])
    }

    static func rect(_ r: Rect) -> [(String, JSONValue)] {
        [
            ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)),
            ("height", .number(r.height)),
        ]
    }

    static func encode(_ card: CardSnapshot) -> JSONValue {
        .object(
            [("id", .string(card.id))] + rect(card.frame) + [
                ("scale", .number(card.scale)), ("opacity", .number(card.opacity)),
                ("z", .number(card.z)),
                ("visible", .bool(card.isVisible)), ("hittable", .bool(card.isHittable)),
            ])
    }

    static func encode(_ component: ComponentSnapshot) -> JSONValue {
        let cards: [JSONValue] = component.cards.map(encode)
        let parts: [JSONValue] = component.parts.map { part in
            .object(
                [("name", .string(part.name))] + rect(part.frame) + [
                    ("opacity", .number(part.opacity)), ("hittable", .bool(part.isHittable)),
                ])
        }
        let state: [(String, JSONValue)] = component.state.map { entry in
            let value: JSONValue
            switch entry.value {
            case .none: value = .null
            case .bool(let flag): value = .bool(flag)
            case .number(let number): value = .number(number)
            case .string(let text): value = .string(text)
            case .strings(let texts): value = .array(texts.map { .string($0) })
            }
            return (entry.name, value)
        }
        // `leaving` (G8) only while a card is on its way out: other frames keep their bytes.
        let leaving: [(String, JSONValue)] =
            component.leaving.isEmpty ? [] : [("leaving", .array(component.leaving.map(encode)))]
        return .object(
            [("kind", .string(component.kind.rawValue)), ("name", .string(component.name))]
                + rect(component.frame) + [("cards", .array(cards))] + leaving + [
                    ("parts", .array(parts)), ("state", .object(state)),
                ])
    }

    static func decodeRect(_ o: TraceFields) throws(TraceError) -> Rect {
        Rect(
            x: try o.number("x"), y: try o.number("y"), width: try o.number("width"),
            height: try o.number("height"))
    }

    /// A recorded frame read back, for pictures.
    static func decodeFrame(_ o: TraceFields, settings: ScreenSettings, kinds: ComponentKinds)
        throws(TraceError)
        -> FrameSnapshot
    {
        var components: [ComponentSnapshot] = []
        for c in try o.objects("components") {
            var cards: [CardSnapshot] = []
            for card in try c.objects("cards") { cards.append(try decodeCard(card)) }
            var leaving: [CardSnapshot] = []
            if c.has("leaving") {
                for card in try c.objects("leaving") { leaving.append(try decodeCard(card)) }
            }
            var parts: [PartSnapshot] = []
            for part in try c.objects("parts") {
                parts.append(
                    PartSnapshot(
                        name: try part.string("name"), frame: try decodeRect(part),
                        opacity: try part.number("opacity"),
                        isHittable: try part.bool("hittable")))
            }
            var state: [(name: String, value: StateValue)] = []
            for (key, value) in try c.object("state").fields {
                switch value {
                case .null: state.append((key, .none))
                case .bool(let flag): state.append((key, .bool(flag)))
                case .number(let number): state.append((key, .number(number)))
                case .string(let text): state.append((key, .string(text)))
                case .array(let values):
                    state.append(
                        (key, .strings(values.map { if case .string(let s) = $0 { s } else { $0.text } })))
                case .object: throw c.error("state.\(key)", "a value expected, got object")
                }
            }
            components.append(
                ComponentSnapshot(
                    kind: try c.choice("kind", kinds.kinds.map { ($0.rawValue, $0) }),
                    name: try c.string("name"),
                    frame: try decodeRect(c), cards: cards, leaving: leaving, parts: parts, state: state))
        }
        return FrameSnapshot(settings: settings, components: components)
    }

    static func decodeCard(_ card: TraceFields) throws(TraceError) -> CardSnapshot {
        CardSnapshot(
            id: try card.string("id"), frame: try decodeRect(card), scale: try card.number("scale"),
            opacity: try card.number("opacity"), z: try card.number("z"), isVisible: try card.bool("visible"),
            isHittable: try card.bool("hittable"))
    }
}
