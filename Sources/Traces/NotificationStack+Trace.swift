import StackModel

/// A notification stack in a trace header: `items`, `expanded`, `title`, ... (docs/traces.md).
extension NotificationStack: TraceableComponent {
    public static var componentKind: ComponentKind { .notificationStack }

    public var traceFields: [(String, JSONValue)] {
        [
            ("items", TraceFormat.encode(cards)),
            ("expanded", .bool(isExpanded)), ("title", .string(title)), ("spacing", .number(spacing)),
            ("peek", .number(peek)), ("dismissible", .bool(isDismissible)),
            ("x", .number(origin.x)), ("y", .number(origin.y)), ("width", .number(width)),
        ]
    }

    public static func make(name: String, from o: TraceFields) throws -> Self {
        let origin = Point(x: try o.number("x"), y: try o.number("y"))
        let cards = try TraceFormat.decodeCards(o, "items")
        return try Self(
            name: name, cards: cards, isExpanded: try o.bool("expanded"), title: try o.string("title"),
            spacing: try o.number("spacing"), peek: try o.number("peek"),
            isDismissible: try o.bool("dismissible"), origin: origin, width: try o.nonNegative("width"))
    }
}
