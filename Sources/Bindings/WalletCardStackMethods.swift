import StackModel

/// Lua: `screen:wallet_card_stack { ... }` and the methods only a wallet has.
enum WalletCardStackMethods {
    typealias Handle = ComponentHandle<WalletCardStack>

    static let options = [
        "items", "selection", "card_height", "peek", "pile_height", "x", "y", "width", "height", "name",
    ]

    static func make(_ a: LuaArguments) throws -> [LuaValue] {
        let screen = try ScreenMethods.screen(a)
        let o = try LuaOptions(a, at: 2, known: options)
        let x = try o.number("x", default: 20)
        let y = try o.number("y", default: 0)
        let cardHeight = try o.number("card_height", default: 200, allowNegative: false)
        let cards = try readCards(o, defaultHeight: cardHeight)
        let wallet = try a.model {
            try WalletCardStack(
                name: try o.string("name", default: "wallet"), cards: cards,
                selection: try o.optionalString("selection"),
                cardHeight: cardHeight, peek: try o.number("peek", default: 64),
                pileHeight: try o.number("pile_height", default: 76), origin: Point(x: x, y: y),
                width: try o.number(
                    "width", default: max(screen.settings.size.width - 2 * x, 0), allowNegative: false),
                height: try o.number(
                    "height", default: max(screen.settings.size.height - y, 0), allowNegative: false))
        }
        try a.model { try screen.add(wallet) }
        return [.object(Handle(screen: screen, component: wallet, integerIDs: integerIDs(o)))]
    }

    static func methods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        var methods = ComponentMethods.common(WalletCardStack.self)
        methods["selection"] = { a in
            let h = try handle(a)
            return [h.component.selection.map(h.luaID) ?? .nil]
        }
        methods["select"] = { a in
            let h = try handle(a)
            let id = try a.optionalString(at: 2)
            let ids = h.component.cards.map(\.id)
            // A script names a card it means; a stale selection (W11) is the `selection` option's.
            if let id, !ids.contains(id) {
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
        return methods
    }
}
