import StackModel

/// A wallet in a trace header: `items`, `selection`, `card_height`, ... (docs/traces.md).
extension WalletCardStack: TraceableComponent {
    public static var componentKind: ComponentKind { .walletCardStack }

    public var traceFields: [(String, JSONValue)] {
        [
            ("items", TraceFormat.encode(cards)), ("selection", selection.map { .string($0) } ?? .null),
            ("card_height", .number(cardHeight)), ("peek", .number(peek)),
            ("pile_height", .number(pileHeight)),
            ("x", .number(origin.x)), ("y", .number(origin.y)),
            ("width", .number(width)), ("height", .number(height)),
        ]
    }

    public static func make(name: String, from o: TraceFields) throws -> Self {
        let origin = Point(x: try o.number("x"), y: try o.number("y"))
        let cards = try TraceFormat.decodeCards(o, "items")
        return try Self(
            name: name, cards: cards, selection: try o.optionalString("selection"),
            cardHeight: try o.nonNegative("card_height"), peek: try o.number("peek"),
            pileHeight: try o.nonNegative("pile_height"), origin: origin, width: try o.nonNegative("width"),
            height: try o.nonNegative("height"))
    }
}
