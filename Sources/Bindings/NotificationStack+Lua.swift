import LuaRuntime
import StackModel

/// Lua: `screen:notification_stack { ... }` and the methods only a notification stack has.
extension NotificationStack: LuaComponent {
    typealias Handle = ComponentHandle<NotificationStack>
    private typealias D = Defaults

    static let luaOptions: [LuaComponentOption] = [
        .items, .init("expanded", "boolean", default: D.isExpanded),
        .init("title", "string", default: D.title),
        .init("spacing", "number", default: D.spacing), .init("peek", "number", default: D.peek),
        .init("dismissible", "boolean", "cards can be swiped away", default: D.isDismissible), .cardHeight,
        .x,
        .y, .width, .name,
    ]

    /// The demo's card height: a 42-pt icon and 14 pt of padding above and below.
    static let demoCardHeight = 70.0

    static let defaultTapTarget: ComponentTarget? = .part("stack")
    static let partNames = ["header", "show_less"]

    static func make(_ o: LuaOptions, on screen: Screen) throws -> Self {
        let x = try o.number("x", default: 16)
        let cards = try readCards(
            o, defaultHeight: try o.number("card_height", default: demoCardHeight, allowNegative: false))
        let component = try Self(
            name: try o.string("name", default: D.name), cards: cards,
            isExpanded: try o.boolean("expanded", default: D.isExpanded),
            title: try o.string("title", default: D.title),
            spacing: try o.number("spacing", default: D.spacing), peek: try o.number("peek", default: D.peek),
            isDismissible: try o.boolean("dismissible", default: D.isDismissible),
            origin: Point(x: x, y: try o.number("y", default: 0)),
            width: try o.number(
                "width", default: max(screen.settings.size.width - 2 * x, 0), allowNegative: false))
        // Without a width of its own it fills the screen's, and follows it (ContainerFill).
        component.fill = ContainerFill(widthMargin: o.has("width") ? nil : 2 * x)
        return component
    }

    static func kindMethods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        var methods: [String: LuaFunction] = [:]
        methods["expanded"] = { a in [.boolean(try handle(a).component.isExpanded)] }
        methods["open"] = { a in [.boolean(try handle(a).component.isOpen)] }
        methods["progress"] = { a in
            let h = try handle(a)
            return [h.snapshot.state("progress").map(LuaSnapshot.state) ?? .nil]
        }
        methods["dismissed"] = { a in
            let h = try handle(a)
            return [.array(h.component.dismissed.map(h.luaID))]
        }
        methods["set_expanded"] = { a in
            let h = try handle(a)
            let expanded = try a.boolean(at: 2)
            try a.model { try h.screen.setExpanded(expanded, of: h.component.name) }
            return []
        }
        methods["set_items"] = { a in
            let h = try handle(a)
            let o = try LuaOptions(a, at: 2, known: ["items", "card_height"])
            let cards = try readCards(
                o, defaultHeight: try o.number("card_height", default: demoCardHeight, allowNegative: false))
            try a.model { try h.screen.setItems(cards, of: h.component.name) }
            let ids = integerIDs(o)
            h.integerIDs.formUnion(ids)
            if !ids.isEmpty { h.screen.integerCardIDs[h.component.name, default: []].formUnion(ids) }
            return []
        }
        return methods
    }

    static let luaDefinitions = """
        ---@class stackplay.notification_stack: stackplay.component
        local notification_stack = {}
        ---@return boolean
        function notification_stack:expanded() end
        ---@return boolean
        function notification_stack:open() end
        ---@return number? progress 0 closed, 1 open (N1)
        function notification_stack:progress() end
        ---@return (string|integer)[] ids of the cards swiped away, in order
        function notification_stack:dismissed() end
        ---@param expanded boolean
        function notification_stack:set_expanded(expanded) end
        ---@param options stackplay.set_items_options
        function notification_stack:set_items(options) end

        """
}
