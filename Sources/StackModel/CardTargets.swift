/// What a touch lands on, a finger is aimed at, or an accessibility element is, inside one
/// component: one of its cards, or one of its parts (`"stack"`, `"show_less"`, `"header"`,
/// `"detail"`, `"scroll"`, `"title"`).
///
/// Scripts, traces, reports and element ids know it as text: `"card:<id>"` for a card, the part's
/// own name for a part. `init(_:)` and `name` are the one place that text is read and written.
public enum ComponentTarget: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The card with this id.
    case card(String)
    /// A part that is not a card, by its name (`"show_less"`).
    case part(String)

    /// What the text form of a card starts with.
    public static let cardPrefix = "card:"

    /// `"card:<id>"` is a card; any other text names a part.
    public init(_ text: String) {
        if text.hasPrefix(Self.cardPrefix) {
            self = .card(String(text.dropFirst(Self.cardPrefix.count)))
        } else {
            self = .part(text)
        }
    }

    public init(stringLiteral text: String) { self.init(text) }

    /// The text form: `"card:calendar"`, `"show_less"`.
    public var name: String {
        switch self {
        case .card(let id): Self.cardPrefix + id
        case .part(let name): name
        }
    }

    public var description: String { name }

    /// The card's id, or nil for a part.
    public var cardID: String? {
        if case .card(let id) = self { return id }
        return nil
    }

    /// The name without the card prefix: a card's id, a part's name. Where a component takes a
    /// card by its bare id (`point(of: "calendar")`), a name that is none of its parts is this.
    public var bareName: String {
        switch self {
        case .card(let id): id
        case .part(let name): name
        }
    }
}

/// The error for a card id that a component does not hold, listing the ones it does.
func unknownCardError(_ id: String, in component: String, cards: [CardSpec]) -> StackModelError {
    let ids = cards.map(\.id)
    if let near = nearestName(to: id, in: ids) {
        return StackModelError("\(component) has no card '\(id)' (did you mean '\(near)'?)")
    }
    return StackModelError("\(component) has no card '\(id)' (cards: \(ids.joined(separator: ", ")))")
}

/// The front-most hittable card under `point` (G4): the highest z wins; among equal z, the one
/// given later, as SwiftUI draws later siblings over earlier ones.
func topmostCard(at point: Point, among cards: [CardSnapshot]) -> CardSnapshot? {
    cards.enumerated()
        .filter { $0.element.isHittable && $0.element.frame.contains(point) }
        .max { a, b in a.element.z != b.element.z ? a.element.z < b.element.z : a.offset < b.offset }?
        .element
}
