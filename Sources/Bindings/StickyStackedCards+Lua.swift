import LuaRuntime
import StackModel

/// Lua: `screen:sticky_stacked_cards { ... }` and the methods only the sticky cards have.
extension StickyStackedCards: LuaComponent {
    typealias Handle = ComponentHandle<StickyStackedCards>
    private typealias D = Defaults

    static let luaOptions: [LuaComponentOption] = [
        .items, .init("spacing", "number", default: D.spacing), .init("top", "number", default: D.top),
        .init("peek", "number", default: D.peek), .init("max_peeking", "integer", default: D.maxPeeking),
        .cardHeight, .x, .y, .width,
        .init("height", "number", "the scroll view's visible height in pt, >= 0"),
        .init("inset_top", "number", ">= 0", default: D.insetTop),
        .init("inset_bottom", "number", ">= 0", default: D.insetBottom),
        .init("inset_horizontal", "number", ">= 0, each side of the cards", default: D.insetHorizontal),
        .init("scroll_offset", "number", default: D.scrollOffset), .name,
    ]

    /// The demo's cards: 300 pt of content and 24 pt of padding above and below.
    static let demoCardHeight = 348.0

    static let defaultTapTarget: ComponentTarget? = .part("scroll")
    static let partNames: [String] = []

    static func make(_ o: LuaOptions, on screen: Screen) throws -> Self {
        let x = try o.number("x", default: 0)
        let y = try o.number("y", default: 0)
        let cards = try readCards(
            o, defaultHeight: try o.number("card_height", default: demoCardHeight, allowNegative: false))
        let component = try Self(
            name: try o.string("name", default: D.name), cards: cards,
            spacing: try o.number("spacing", default: D.spacing),
            top: try o.number("top", default: D.top), peek: try o.number("peek", default: D.peek),
            maxPeeking: try o.integer("max_peeking", default: D.maxPeeking), origin: Point(x: x, y: y),
            width: try o.number(
                "width", default: max(screen.settings.size.width - x, 0), allowNegative: false),
            viewportHeight: try o.number(
                "height", default: max(screen.settings.size.height - y, 0), allowNegative: false),
            insetTop: try o.number("inset_top", default: D.insetTop, allowNegative: false),
            insetBottom: try o.number("inset_bottom", default: D.insetBottom, allowNegative: false),
            insetHorizontal: try o.number(
                "inset_horizontal", default: D.insetHorizontal, allowNegative: false),
            scrollOffset: try o.number("scroll_offset", default: D.scrollOffset))
        // Without a width or height of its own it fills the screen, and follows it (ContainerFill).
        component.fill = ContainerFill(
            widthMargin: o.has("width") ? nil : x, heightMargin: o.has("height") ? nil : y)
        return component
    }

    static func kindMethods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        var methods: [String: LuaFunction] = [:]
        methods["scroll_offset"] = { a in [.number(try handle(a).component.scrollOffset)] }
        methods["max_offset"] = { a in [.number(try handle(a).component.maxOffset)] }
        methods["content_height"] = { a in [.number(try handle(a).component.contentHeight)] }
        methods["scroll_to"] = { a in
            let h = try handle(a)
            let offset = try a.finite(at: 2)
            try a.model { try h.screen.scroll(to: offset, of: h.component.name) }
            return []
        }
        methods["scroll"] = { a in
            // A finger drag on the scroll view: content moves with the finger, so scrolling down
            // by `dy` is a drag of `-dy`.
            let h = try handle(a)
            let dy = try a.finite(at: 2)
            let (steps, duration) = try a.gestureOptions(at: 3)
            let start = try a.model { try h.component.point(of: "scroll", in: h.settings) }
            let before = h.component.scrollOffset
            _ = try a.model {
                try h.screen.drag(from: start, by: Point(x: 0, y: -dy), steps: steps, duration: duration)
            }
            // How far the content moved, and only that (`expect(cards:scroll(9)):to_equal(0)`): 0
            // for a pan under the 10 pt threshold, less than `dy` at either end (S6).
            return [.number(h.component.scrollOffset - before)]
        }
        return methods
    }

    static let luaDefinitions = """
        ---@class stackplay.sticky_stacked_cards: stackplay.component
        local sticky_stacked_cards = {}
        ---@return number
        function sticky_stacked_cards:scroll_offset() end
        ---@return number
        function sticky_stacked_cards:max_offset() end
        ---@return number
        function sticky_stacked_cards:content_height() end
        ---@param offset number
        function sticky_stacked_cards:scroll_to(offset) end
        --- A finger drag on the scroll view that scrolls the content down by `dy`. Returns how far
        --- the content moved: 0 when `|dy|` is under 10 pt (a scroll view pans only once the finger
        --- has moved 10 pt), less than `dy` where the offset stops at 0 or `max_offset()`.
        ---@param dy number
        ---@param options? stackplay.gesture_options
        ---@return number moved the scroll offset after minus before
        function sticky_stacked_cards:scroll(dy, options) end

        """
}
