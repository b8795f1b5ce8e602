import StackModel

/// One step of an exploration: an input to the screen with every number in it, so that a run is
/// data that can be replayed, shrunk and written out as Lua. Points are screen points, chosen
/// when the step was generated (from what was on screen then).
public enum ExploreAction: Hashable, Sendable {
    /// `screen:tap(x, y [, { duration = }])`.
    case tap(Point, duration: Double)
    /// `screen:drag(x, y, { x =, y = }, { steps =, duration = })`.
    case drag(Point, by: Point, steps: Int, duration: Double)
    /// `screen:touch_down(x, y)`; fingers are numbered within a run (`f1`, `f2`, ...).
    case touchDown(finger: Int, Point)
    case touchMove(finger: Int, Point)
    case touchUp(finger: Int)
    case advance(Double)
    case settle
    /// `screen:escape()`: to the top-most component with something to dismiss.
    case escape
    /// `c:action(name, element)`, a named accessibility action.
    case action(component: String, element: String, name: String)
    /// `c:activate(element)`: VoiceOver's double tap.
    case activate(component: String, element: String)
    case setReduceMotion(Bool)
    case setLayoutDirection(LayoutDirection)
    case setDynamicType(DynamicTypeSize)
    case setSize(Size)
    /// An owner's change (`set_expanded`, `select`, `scroll_to`, ...), from the kind's schemas.
    case change(component: String, OwnerChange)
    /// An action the exploration file gave (`actions = { name = function(screen, n) ... end }`),
    /// called with a whole number drawn for it.
    case custom(name: String, argument: Int)

    /// The family a step belongs to: what `actions = { tap = 0 }` weighs.
    public var family: String {
        switch self {
        case .tap: "tap"
        case .drag: "drag"
        case .touchDown, .touchMove, .touchUp: "touch"
        case .advance: "advance"
        case .settle: "settle"
        case .escape: "escape"
        case .action, .activate: "accessibility"
        case .setReduceMotion, .setLayoutDirection, .setDynamicType, .setSize: "settings"
        case .change: "owner"
        case .custom(let name, _): name
        }
    }

    /// Whether the step is a gesture or a change someone makes (not the clock moving).
    public var isGesture: Bool {
        switch self {
        case .advance, .settle: false
        default: true
        }
    }
}

extension ExploreAction {
    /// The step as a line of Lua on `screen` (fingers as `f1`, ...; components through
    /// `screen:component(name)`): what the written scenario holds.
    public var lua: String {
        func n(_ value: Double) -> String { luaNumber(value) }
        func s(_ text: String) -> String { luaString(text) }
        func c(_ name: String) -> String { "screen:component(\(s(name)))" }
        switch self {
        case .tap(let p, let duration):
            return "screen:tap(\(n(p.x)), \(n(p.y))"
                + (duration > 0 ? ", { duration = \(n(duration)) })" : ")")
        case .drag(let p, let by, let steps, let duration):
            var options = ["steps = \(steps)"]
            if duration > 0 { options.append("duration = \(n(duration))") }
            return "screen:drag(\(n(p.x)), \(n(p.y)), { x = \(n(by.x)), y = \(n(by.y)) }, { "
                + options.joined(separator: ", ") + " })"
        case .touchDown(let finger, let p): return "f\(finger) = screen:touch_down(\(n(p.x)), \(n(p.y)))"
        case .touchMove(let finger, let p): return "screen:touch_move(f\(finger), \(n(p.x)), \(n(p.y)))"
        case .touchUp(let finger): return "screen:touch_up(f\(finger))"
        case .advance(let seconds): return "screen:advance(\(n(seconds)))"
        case .settle: return "screen:settle()"
        case .escape: return "screen:escape()"
        case .action(let component, let element, let name):
            return "\(c(component)):action(\(s(name)), \(s(luaElement(element))))"
        case .activate(let component, let element):
            return "\(c(component)):activate(\(s(luaElement(element))))"
        case .setReduceMotion(let on): return "screen:set_reduce_motion(\(on))"
        case .setLayoutDirection(let direction):
            return "screen:set_layout_direction(\(s(direction.rawValue)))"
        case .setDynamicType(let size): return "screen:set_dynamic_type(\(s(size.shortName)))"
        case .setSize(let size):
            return "screen:set_size { width = \(n(size.width)), height = \(n(size.height)) }"
        case .change(let component, let change):
            let values = change.fields.map { luaValue($0.value) }
            if change.fields.count == 1, case .cards = change.fields[0].value {
                return "\(c(component)):\(change.name) { \(change.fields[0].name) = \(values[0]) }"
            }
            return "\(c(component)):\(change.name)(\(values.joined(separator: ", ")))"
        case .custom(let name, let argument): return "spec.actions[\(s(name))](screen, \(argument))"
        }
    }

    /// An element as `c:action` and `c:activate` take it: a card by its id (`"card:Design"` is
    /// `"Design"`: they read other names in lower case), else the element's own id.
    private func luaElement(_ element: String) -> String {
        ComponentTarget(element).bareName
    }

    private func luaValue(_ value: OwnerChange.Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): String(flag)
        case .number(let number): luaNumber(number)
        case .string(let text): luaString(text)
        case .cards(let cards):
            "{ "
                + cards.map {
                    "{ id = \(luaString($0.id)), height = \(luaNumber($0.height)), label = \(luaString($0.label)) }"
                }.joined(separator: ", ") + " }"
        }
    }
}

/// `value` as a Lua expression: `12`, `0.5`, `1e+300`; `math.huge`, `-math.huge` and `(0/0)`
/// for what has no numeral (`inf` would read as a global variable).
public func luaNumber(_ value: Double) -> String {
    if value.isNaN { return "(0/0)" }
    if value.isInfinite { return value < 0 ? "-math.huge" : "math.huge" }
    return formatNumber(value)
}

/// `text` inside a Lua comment: as it is, except that line breaks (`\n`, `\r`, which would end
/// the comment and make the rest code) and other control characters are written as escapes.
public func luaComment(_ text: String) -> String { luaEscaped(text, quoting: false) }

/// `text` as a Lua string literal.
public func luaString(_ text: String) -> String { "\"" + luaEscaped(text, quoting: true) + "\"" }

/// `text` with line breaks and control characters (C0, DEL, C1, U+2028/9) as Lua escapes, and
/// `"` and `\` too when `quoting`.
private func luaEscaped(_ text: String, quoting: Bool) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"" where quoting: out += "\\\""
        case "\\" where quoting: out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}
