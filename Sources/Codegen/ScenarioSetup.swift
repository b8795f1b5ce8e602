import Exploration
import StackModel
import Traces

/// How a scenario makes its screen and components: the options that differ from the Lua
/// factories' defaults, in the trace header's order, and the same screen built in Swift (with the
/// fill a component made without a width or height gets, so a new screen size lays it out again
/// as in Lua).
struct ScenarioSetup {
    let kinds: ScenarioKinds
    let trace: Trace

    /// The screen's options: the settings that differ from a bare `stackplay.screen {}`.
    func screenLua() -> String {
        let settings = trace.settings
        let defaults = ScreenSettings()
        var fields: [String] = []
        if settings.size.width != defaults.size.width || settings.size.height != defaults.size.height {
            fields.append(
                "width = \(luaNumber(settings.size.width)), height = \(luaNumber(settings.size.height))")
        }
        if settings.layoutDirection != defaults.layoutDirection {
            fields.append("layout_direction = \(luaString(settings.layoutDirection.rawValue))")
        }
        if settings.reduceMotion { fields.append("reduce_motion = true") }
        if settings.dynamicTypeSize != defaults.dynamicTypeSize {
            fields.append("dynamic_type = \(luaString(settings.dynamicTypeSize.shortName))")
        }
        if trace.isMirrored { fields.append("mirror = true") }
        return "local screen = stackplay.screen {"
            + (fields.isEmpty ? "}" : " " + fields.joined(separator: ", ") + " }")
    }

    /// A fresh screen as the scenario's first line makes it (its clock at 0).
    func makeScreen() throws -> Simulation {
        var settings = trace.settings
        settings.now = 0
        return Simulation(screen: try Screen(world: settings, mirrored: trace.isMirrored))
    }

    /// The call that puts the component `spec` describes on a screen of `size` (the script's
    /// world), as `variable`.
    func component(_ spec: JSONValue, variable: String, line: Int, screen size: Size) throws -> ScenarioCall {
        let fields = try TraceFields(spec, file: trace.file, line: line)
        let kindName = try fields.string("kind")
        guard let type = kinds.type(of: ComponentKind(kindName)) else {
            throw CodegenError("\(trace.file):\(line): a \(kindName) has no Lua factory this stackplay knows")
        }
        let name = try fields.string("name")
        let x = try fields.number("x")
        let y = try fields.number("y")
        let defaults = type.optionDefaults(x: x, y: y, screen: size)
        let margins = type.fillMargins(x: x, y: y)
        // An option left out because it is the default fills the screen, and follows it.
        let fill = ContainerFill(
            widthMargin: try fields.has("width") && fields.value("width") == defaults["width"]
                ? margins.width : nil,
            heightMargin: try fields.has("height") && fields.value("height") == defaults["height"]
                ? margins.height : nil)
        let lines = Self.wrap(try options(fields, type: type, defaults: defaults))
        return ScenarioCall(
            "local \(variable) = screen:\(kindName) {\n" + lines.map { "  " + $0 + "\n" }.joined() + "}"
        ) { simulation in
            let component = try type.make(name: name, from: fields)
            component.fill = fill
            try simulation.screen.add(component)
        }
    }

    /// The factory's options: the header's fields that differ from their defaults, items first
    /// and the name last.
    private func options(
        _ fields: TraceFields, type: any ScenarioComponent.Type, defaults: [String: JSONValue]
    ) throws -> [String] {
        let cards = try TraceFormat.decodeCards(fields, "items")
        var cardHeight = type.defaultCardHeight
        if type.keepsCardHeight {
            cardHeight = try fields.number("card_height")
        } else if let common = Self.commonest(cards.map(\.height)) {
            cardHeight = common
        }
        var out = ["items = " + Self.items(cards, height: cardHeight) + ","]
        if !type.keepsCardHeight, cardHeight != type.defaultCardHeight {
            out.append("card_height = \(luaNumber(cardHeight)),")
        }
        for (key, value) in fields.fields where !["kind", "items", "name"].contains(key) {
            if let given = defaults[key], given == value { continue }
            out.append("\(key) = \(Self.lua(value)),")
        }
        let name = try fields.string("name")
        if defaults["name"] != .string(name) { out.append("name = \(luaString(name)),") }
        return out
    }

    /// `{ "a", { id = "b", height = 90 } }`: an item as its id alone when its height is the
    /// default and its label its id.
    static func items(_ cards: [CardSpec], height: Double) -> String {
        if cards.isEmpty { return "{}" }
        return "{ "
            + cards.map { card in
                if card.height == height && card.label == card.id { return luaString(card.id) }
                var parts = ["id = \(luaString(card.id))"]
                if card.height != height { parts.append("height = \(luaNumber(card.height))") }
                if card.label != card.id { parts.append("label = \(luaString(card.label))") }
                return "{ " + parts.joined(separator: ", ") + " }"
            }.joined(separator: ", ") + " }"
    }

    /// The value most items have (the first of equals), nil for none.
    static func commonest(_ values: [Double]) -> Double? {
        var counts: [Double: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        var best: Double?
        for value in values where best == nil || counts[value]! > counts[best!]! { best = value }
        return best
    }

    /// A JSON value as Lua.
    static func lua(_ value: JSONValue) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): String(flag)
        case .number(let number): luaNumber(number)
        case .string(let text): luaString(text)
        case .array(let values): "{ " + values.map(lua).joined(separator: ", ") + " }"
        case .object(let fields):
            "{ " + fields.map { "\($0.0) = \(lua($0.1))" }.joined(separator: ", ") + " }"
        }
    }

    /// Option lines joined up to about 96 columns a line.
    static func wrap(_ options: [String]) -> [String] {
        var lines: [String] = []
        var current = ""
        for option in options {
            if current.isEmpty {
                current = option
            } else if current.count + 1 + option.count <= 96 {
                current += " " + option
            } else {
                lines.append(current)
                current = option
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
