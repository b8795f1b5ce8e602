import LuaRuntime
import StackModel

/// Lua: `screen:wallet_card_stack { ... }` and the methods only a wallet has.
extension WalletCardStack: LuaComponent {
    typealias Handle = ComponentHandle<WalletCardStack>
    private typealias D = Defaults

    static let luaOptions: [LuaComponentOption] = [
        .items,
        .init("selection", "string|integer", "the selected card's id; an id of no card counts as none (W11)"),
        .cardHeight, .init("peek", "number", default: D.peek),
        .init("pile_height", "number", ">= 0", default: D.pileHeight),
        .x, .y, .width, .init("height", "number", "the stack's height in pt, >= 0"), .name,
    ]

    /// A bare `wallet:tap()` names no card: a wallet has nothing to tap as a whole.
    static let defaultTapTarget: ComponentTarget? = nil
    static let partNames = ["detail"]

    static func make(_ o: LuaOptions, on screen: Screen) throws -> Self {
        let x = try o.number("x", default: 20)
        let y = try o.number("y", default: 0)
        let cardHeight = try o.number("card_height", default: D.cardHeight, allowNegative: false)
        let cards = try readCards(o, defaultHeight: cardHeight)
        let component = try Self(
            name: try o.string("name", default: D.name), cards: cards,
            selection: try o.optionalID("selection"),
            cardHeight: cardHeight, peek: try o.number("peek", default: D.peek),
            pileHeight: try o.number("pile_height", default: D.pileHeight, allowNegative: false),
            origin: Point(x: x, y: y),
            width: try o.number(
                "width", default: max(screen.settings.size.width - 2 * x, 0), allowNegative: false),
            height: try o.number(
                "height", default: max(screen.settings.size.height - y, 0), allowNegative: false))
        // Without a width or height of its own it fills the screen, and follows it (ContainerFill).
        component.fill = ContainerFill(
            widthMargin: o.has("width") ? nil : 2 * x, heightMargin: o.has("height") ? nil : y)
        return component
    }

    static func kindMethods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        var methods: [String: LuaFunction] = [:]
        methods["selection"] = { a in
            let h = try handle(a)
            return [h.component.selection.map(h.luaID) ?? .nil]
        }
        methods["select"] = { a in
            let h = try handle(a)
            let id = try a.optionalString(at: 2)
            let ids = h.component.cards.map(\.id)
            // A script names a card it means; a stale selection (W11) is the `selection` option's.
            if let id, !ids.containsBytes(id) {
                throw a.error(at: 2, ComponentMethods.unknownCard(id, among: ids))
            }
            try a.model { try h.screen.select(id, of: h.component.name) }
            return []
        }
        methods["step"] = { a in
            let h = try handle(a)
            return [.number(h.component.step(in: h.settings))]
        }
        methods["peek"] = { a in
            let h = try handle(a)
            return [.number(h.component.scaledPeek(in: h.settings))]
        }
        methods["set_height"] = { a in
            let h = try handle(a)
            let height = try a.nonNegative(at: 2)
            try a.model { try h.screen.setHeight(height, of: h.component.name) }
            return []
        }
        // The owner's `set_items` change the model takes (W3), which Lua lacked: found by the
        // Lua-API invariant of `stackplay explore`.
        methods["set_items"] = { a in
            let h = try handle(a)
            let o = try LuaOptions(a, at: 2, known: ["items", "card_height"])
            let cards = try readCards(
                o,
                defaultHeight: try o.number(
                    "card_height", default: h.component.cardHeight, allowNegative: false))
            try a.model { try h.screen.setItems(cards, of: h.component.name) }
            let ids = integerIDs(o)
            h.integerIDs.formUnion(ids)
            if !ids.isEmpty { h.screen.integerCardIDs[h.component.name, default: []].formUnion(ids) }
            return []
        }
        return methods
    }

    static let luaDefinitions = """
        ---@class stackplay.wallet_card_stack: stackplay.component
        local wallet_card_stack = {}
        ---@return (string|integer)? selection the selected card's id, as the items gave it
        function wallet_card_stack:selection() end
        --- Selects card `id` (it must exist), or clears the selection with nil.
        ---@param id string?
        function wallet_card_stack:select(id) end
        ---@return number step between card tops (W1)
        function wallet_card_stack:step() end
        ---@return number peek scaled by Dynamic Type (W12)
        function wallet_card_stack:peek() end
        ---@param height number >= 0
        function wallet_card_stack:set_height(height) end
        --- The owner replaces the cards (W3: every card is the wallet's `card_height` high).
        ---@param options stackplay.set_items_options
        function wallet_card_stack:set_items(options) end

        """
}
