/// A card given to a component: its id, its height in points, and what VoiceOver reads for it.
public struct CardSpec: Hashable, Sendable {
    public var id: String
    public var height: Double
    /// The card's accessibility label; its id when none is given.
    public var label: String

    public init(id: String, height: Double, label: String? = nil) {
        self.id = id
        self.height = height
        self.label = label ?? id
    }

    /// Fails on an empty or repeated id, or a height that is negative, NaN or infinite.
    static func validate(_ cards: [CardSpec]) throws {
        var seen = Set<ByteKey>()
        for card in cards {
            guard !card.id.isEmpty else { throw StackModelError("a card id must not be empty") }
            guard seen.insert(ByteKey(card.id)).inserted else {
                throw StackModelError("card id '\(card.id)' is given twice")
            }
            try StackModelError.requireNonNegative(card.height, "height of card '\(card.id)'")
        }
    }
}

/// A SwiftUI `Button`'s tracking: it fires when the finger comes up inside the button's frame.
enum ButtonTracking {
    static func fires(_ touch: Touch, in frame: Rect) -> Bool { frame.contains(touch.location) }
}
