import StackModel

/// The sticky cards in a trace header: `items`, `spacing`, `top`, ... (docs/traces.md).
extension StickyStackedCards: TraceableComponent {
    public static var componentKind: ComponentKind { .stickyStackedCards }

    public var traceFields: [(String, JSONValue)] {
        [
            ("items", TraceFormat.encode(cards)), ("spacing", .number(spacing)), ("top", .number(top)),
            ("peek", .number(peek)), ("max_peeking", .number(Double(maxPeeking))),
            ("x", .number(origin.x)), ("y", .number(origin.y)),
            ("width", .number(width)), ("height", .number(viewportHeight)),
            ("inset_top", .number(insetTop)), ("inset_bottom", .number(insetBottom)),
            ("scroll_offset", .number(scrollOffset)), ("inset_horizontal", .number(insetHorizontal)),
        ]
    }

    public static func make(name: String, from o: TraceFields) throws -> Self {
        let origin = Point(x: try o.number("x"), y: try o.number("y"))
        let cards = try TraceFormat.decodeCards(o, "items")
        return try Self(
            name: name, cards: cards, spacing: try o.number("spacing"), top: try o.number("top"),
            peek: try o.number("peek"), maxPeeking: try o.integer("max_peeking"), origin: origin,
            width: try o.nonNegative("width"), viewportHeight: try o.nonNegative("height"),
            insetTop: try o.nonNegative("inset_top"), insetBottom: try o.nonNegative("inset_bottom"),
            // Traces written before the field had cards as wide as the scroll view.
            insetHorizontal: o.has("inset_horizontal") ? try o.nonNegative("inset_horizontal") : 0,
            scrollOffset: try o.number("scroll_offset"))
    }
}
