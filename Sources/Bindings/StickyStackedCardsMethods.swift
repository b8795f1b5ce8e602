import StackModel

/// Lua: `screen:sticky_stacked_cards { ... }` and the methods only the sticky cards have.
enum StickyStackedCardsMethods {
    typealias Handle = ComponentHandle<StickyStackedCards>

    static let options = [
        "items", "spacing", "top", "peek", "max_peeking", "card_height", "x", "y", "width", "height",
        "inset_top",
        "inset_bottom", "scroll_offset", "name",
    ]

    /// The demo's cards: 300 pt of content and 24 pt of padding above and below.
    static let demoCardHeight = 348.0

    static func make(_ a: LuaArguments) throws -> [LuaValue] {
        let screen = try ScreenMethods.screen(a)
        let o = try LuaOptions(a, at: 2, known: options)
        let x = try o.number("x", default: 0)
        let y = try o.number("y", default: 0)
        let cards = try readCards(
            o, defaultHeight: try o.number("card_height", default: demoCardHeight, allowNegative: false))
        let sticky = try a.model {
            try StickyStackedCards(
                name: try o.string("name", default: "sticky"), cards: cards,
                spacing: try o.number("spacing", default: 20),
                top: try o.number("top", default: 12), peek: try o.number("peek", default: 12),
                maxPeeking: try o.integer("max_peeking", default: 3), origin: Point(x: x, y: y),
                width: try o.number(
                    "width", default: max(screen.settings.size.width - x, 0), allowNegative: false),
                viewportHeight: try o.number(
                    "height", default: max(screen.settings.size.height - y, 0), allowNegative: false),
                insetTop: try o.number("inset_top", default: 12, allowNegative: false),
                insetBottom: try o.number("inset_bottom", default: 40, allowNegative: false),
                scrollOffset: try o.number("scroll_offset", default: 0))
        }
        try a.model { try screen.add(sticky) }
        return [.object(Handle(screen: screen, component: sticky, integerIDs: integerIDs(o)))]
    }

    static func methods() -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> Handle { try a.object(at: 1, as: Handle.self) }
        var methods = ComponentMethods.common(StickyStackedCards.self)
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
            return [
                LuaSnapshot.hit(
                    try a.model {
                        try h.screen.drag(
                            from: start, by: Point(x: 0, y: -dy), steps: steps, duration: duration)
                    })
            ]
        }
        return methods
    }
}
