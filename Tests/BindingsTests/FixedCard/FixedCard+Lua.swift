import LuaRuntime
import StackModel

@testable import Bindings

/// Lua: `screen:fixed_card { label = "hi" }`, `card:taps()`, `card:label()`, `card:set_label(text)`.
extension FixedCard: LuaComponent {
    typealias Handle = ComponentHandle<FixedCard>

    static let luaOptions: [LuaComponentOption] = [
        .init("label", "string", "default \"card\""), .x, .y, .width,
        .init("height", "number", "default 100"),
        .name,
    ]
    static let defaultTapTarget: ComponentTarget? = .card(cardID)
    static let partNames: [String] = []

    static func make(_ o: LuaOptions, on screen: Screen) throws -> Self {
        try Self(
            name: try o.string("name", default: "card"), label: try o.string("label", default: "card"),
            frame: Rect(
                x: try o.number("x", default: 0), y: try o.number("y", default: 0),
                width: try o.number("width", default: 100, allowNegative: false),
                height: try o.number("height", default: 100, allowNegative: false)))
    }

    static func kindMethods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        return [
            "taps": { a in [.integer(try handle(a).component.taps)] },
            "label": { a in [.string(try handle(a).component.label)] },
            "set_label": { a in
                let h = try handle(a)
                let label = try a.string(at: 2)
                try a.model { try h.screen.change(.setLabel(label), of: h.component.name) }
                return []
            },
        ]
    }

    static let luaDefinitions = """
        ---@class stackplay.fixed_card: stackplay.component
        local fixed_card = {}
        ---@return integer taps that came up on the card
        function fixed_card:taps() end
        ---@return string
        function fixed_card:label() end
        ---@param label string
        function fixed_card:set_label(label) end

        """
}
