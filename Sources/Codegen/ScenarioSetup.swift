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
    /// The sizes (`"name/width"`, `"name/height"`) written though they are the default, because
    /// the component kept them through a resize: one made with them given (``fixedSizes()``).
    var fixed: Set<String> = []

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
        var defaults = type.optionDefaults(x: x, y: y, screen: size)
        for key in ["width", "height"] where fixed.contains(name + "/" + key) { defaults[key] = nil }
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

    /// The components' sizes that stayed through a resize that would have changed them had
    /// they followed the screen (a component made with its `width` given, equal to the default):
    /// each resize's layout changes (docs/traces.md) name the components that follow it.
    func fixedSizes() throws -> Set<String> {
        // each component's margins (when its size is the default one) and its size now
        var follows: [String: (width: Double?, height: Double?)] = [:]
        var now: [String: (width: Double?, height: Double?)] = [:]
        var size = trace.settings.size
        func add(_ spec: JSONValue) throws {
            let fields = try TraceFields(spec, file: trace.file, line: 1)
            guard let type = kinds.type(of: ComponentKind(try fields.string("kind"))) else { return }
            let name = try fields.string("name")
            let (x, y) = (try fields.number("x"), try fields.number("y"))
            let defaults = type.optionDefaults(x: x, y: y, screen: size)
            let margins = type.fillMargins(x: x, y: y)
            let width = fields.has("width") ? try fields.number("width") : nil
            let height = fields.has("height") ? try fields.number("height") : nil
            follows[name] = (
                width.map(JSONValue.number) == defaults["width"] ? margins.width : nil,
                height.map(JSONValue.number) == defaults["height"] ? margins.height : nil
            )
            now[name] = (width, height)
        }
        for spec in trace.components { try add(spec) }
        var fixed: Set<String> = []
        let segments = TraceSegment.split(trace)
        for segment in segments {
            if case .single(let item) = segment, case .add(let spec) = item.input { try add(spec) }
            guard case .resize(let items) = segment, case .event(.setSize(let new)) = items[0].input else {
                continue
            }
            size = new
            var changed: Set<String> = []
            for item in items.dropFirst() {
                guard case .event(.change(let name, let change)) = item.input,
                    case .number(let value)? = change.fields.first?.value
                else { continue }
                let key = change.name == "set_width" ? "width" : "height"
                changed.insert(name + "/" + key)
                if key == "width" { now[name]?.width = value } else { now[name]?.height = value }
            }
            for (name, margins) in follows {
                if let margin = margins.width, !changed.contains(name + "/width"),
                    max(new.width - margin, 0) != now[name]?.width
                {
                    fixed.insert(name + "/width")
                }
                if let margin = margins.height, !changed.contains(name + "/height"),
                    max(new.height - margin, 0) != now[name]?.height
                {
                    fixed.insert(name + "/height")
                }
            }
        }
        return fixed
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
