import Exploration
import StackModel
import Traces

/// What a written test checks at its end, picked by a person (the studio's assertion picker) or
/// by ``ScenarioWriter/defaultExpectations``: each reads the screen's final frame when the
/// scenario is written and says it as an `expect(...)` line.
///
/// `.ids("notifications")` → `expect(stack:ids()):to_equal { "messages", "mail" }`;
/// `.state("wallet", "selection")` → `expect(wallet:selection()):to_equal("amex")`;
/// `.cardX("notifications", "mail")` → `expect(stack:card("mail").x):to_be_near(16, 0.01)`.
public enum Expectation: Hashable, Sendable {
    /// The component's cards' ids, in order.
    case ids(String)
    /// How many cards it holds.
    case count(String)
    /// A value of the component's state (`expanded`, `open`, `progress`, `selection`,
    /// `scroll_offset`, ...), read by the method of that name where the kind has one, else from
    /// `c:state()`.
    case state(String, String)
    /// A field of one card: `x`, `y`, `width`, `height`, `scale`, `opacity`, `z`, `visible`,
    /// `hittable`.
    case card(String, String, CardField)

    public enum CardField: String, Sendable, CaseIterable {
        case x, y, width, height, scale, opacity, z, visible, hittable
    }

    public static func expanded(_ component: String) -> Expectation { .state(component, "expanded") }
    public static func selection(_ component: String) -> Expectation { .state(component, "selection") }
    public static func scrollOffset(_ component: String) -> Expectation { .state(component, "scroll_offset") }
    public static func cardX(_ component: String, _ id: String) -> Expectation { .card(component, id, .x) }
    public static func cardY(_ component: String, _ id: String) -> Expectation { .card(component, id, .y) }
    public static func opacity(_ component: String, _ id: String) -> Expectation {
        .card(component, id, .opacity)
    }

    /// Numbers are checked to within this, written rounded to two decimals.
    static let numberTolerance = "0.01"

    /// The `expect(...)` line for `frame`, the screen at the end.
    func lua(in frame: FrameSnapshot, variables: [String: String], kinds: ScenarioKinds) throws(CodegenError)
        -> String
    {
        let name: String
        switch self {
        case .ids(let n), .count(let n), .state(let n, _), .card(let n, _, _): name = n
        }
        guard let component = frame.components.first(where: { $0.name.isSameBytes(name) }),
            let variable = variables[name]
        else {
            throw CodegenError("no component called '\(name)' is on the screen at the end")
        }
        switch self {
        case .ids:
            return "expect(\(variable):ids()):to_equal " + Self.strings(component.cards.map(\.id))
        case .count:
            return "expect(\(variable):count()):to_equal(\(component.cards.count))"
        case .state(_, let key):
            guard let value = component.state(key) else {
                throw CodegenError(
                    "\(component.kind.rawValue) '\(name)' has no state '\(key)' (it has "
                        + component.state.map(\.name).joined(separator: ", ") + ")")
            }
            let methods = kinds.type(of: component.kind)?.stateMethods ?? []
            let read = methods.contains(key) ? "\(variable):\(key)()" : "\(variable):state().\(key)"
            return "expect(\(read))" + Self.matcher(value)
        case .card(_, let id, let field):
            guard let card = component.card(id) else {
                throw CodegenError("\(component.kind.rawValue) '\(name)' has no card '\(id)' at the end")
            }
            let read = "expect(\(variable):card(\(luaString(id))).\(field.rawValue))"
            switch field {
            case .x: return read + Self.near(card.frame.x)
            case .y: return read + Self.near(card.frame.y)
            case .width: return read + Self.near(card.frame.width)
            case .height: return read + Self.near(card.frame.height)
            case .scale: return read + Self.near(card.scale)
            case .opacity: return read + Self.near(card.opacity)
            case .z: return read + Self.near(card.z)
            case .visible: return read + ":to_equal(\(card.isVisible))"
            case .hittable: return read + ":to_equal(\(card.isHittable))"
            }
        }
    }

    private static func matcher(_ value: StateValue) -> String {
        switch value {
        case .none: ":to_be_nil()"
        case .bool(let flag): ":to_equal(\(flag))"
        case .number(let number): near(number)
        case .string(let text): ":to_equal(\(luaString(text)))"
        case .strings(let texts): ":to_equal " + strings(texts)
        }
    }

    private static func near(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return ":to_be_near(\(luaNumber(rounded == 0 ? 0 : rounded)), \(numberTolerance))"
    }

    private static func strings(_ texts: [String]) -> String {
        texts.isEmpty ? "{}" : "{ " + texts.map(luaString).joined(separator: ", ") + " }"
    }
}
