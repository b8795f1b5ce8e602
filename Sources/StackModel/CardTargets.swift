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
        if text.utf8.starts(with: Self.cardPrefix.utf8) {
            self = .card(String(decoding: text.utf8.dropFirst(Self.cardPrefix.utf8.count), as: UTF8.self))
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

    /// The same case with the same bytes (`isSameBytes`): NFC and NFD "café" are two cards.
    public static func == (lhs: ComponentTarget, rhs: ComponentTarget) -> Bool {
        switch (lhs, rhs) {
        case (.card(let a), .card(let b)), (.part(let a), .part(let b)): a.isSameBytes(b)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cardID == nil)
        hasher.combine(ByteKey(bareName))
    }

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
    TopmostCards(cards).card(at: point)
}

/// The hittable cards of one layout, for finding the front-most under many points (the audit's
/// cells) without laying out or allocating again: the same choice as ``topmostCard(at:among:)``.
/// When every hittable card spans the same finite x range and has a finite z (a pile, a column
/// of cards: the usual case), the answer for each stretch of y between two card edges is worked
/// out once, front-most first, and a point costs a binary search; otherwise each point scans.
struct TopmostCards {
    private let cards: [(offset: Int, card: CardSnapshot)]
    private let column: Column?

    /// The cards' common x range, their distinct y edges, and the front-most card for each
    /// stretch: index 2j+1 is the edge `edges[j]` itself, 2j the open stretch just before it,
    /// 2·edges.count the stretch after the last (`Rect.contains`: minY <= y < maxY).
    private struct Column {
        let minX: Double
        let maxX: Double
        let edges: [Double]
        let top: [Int]

        func stretch(_ y: Double) -> Int {
            var low = 0
            var high = edges.count
            while low < high {
                let middle = (low + high) / 2
                if edges[middle] <= y { low = middle + 1 } else { high = middle }
            }
            // `low` edges are <= y
            return low > 0 && edges[low - 1] == y ? 2 * (low - 1) + 1 : 2 * low
        }
    }

    init(_ cards: [CardSnapshot]) {
        let hittable = cards.enumerated().filter { $0.element.isHittable || Mutant.g4HitHidden.isActive }.map
        { ($0.offset, $0.element) }
        self.cards = hittable
        column = Self.column(hittable)
    }

    private static func column(_ cards: [(offset: Int, card: CardSnapshot)]) -> Column? {
        guard let first = cards.first?.card.frame, cards.count > 8 else { return nil }
        for (_, card) in cards {
            let frame = card.frame
            guard frame.x == first.x, frame.width == first.width, frame.x.isFinite, frame.width.isFinite,
                frame.y.isFinite, frame.height.isFinite, frame.maxY.isFinite, card.z.isFinite
            else { return nil }
        }
        let edges = Array(Set(cards.flatMap { [$0.card.frame.minY, $0.card.frame.maxY] })).sorted()
        func index(_ y: Double) -> Int {
            var low = 0
            var high = edges.count - 1
            while low < high {
                let middle = (low + high) / 2
                if edges[middle] < y { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var top = [Int](repeating: -1, count: 2 * edges.count + 1)
        // Front-most first (the highest z, then the one given later): each stretch takes the
        // first card that covers it. `next[i]` skips stretches already taken.
        var next = Array(0...top.count)
        func free(_ i: Int) -> Int {
            var root = i
            while next[root] != root { root = next[root] }
            var walk = i
            while next[walk] != root {
                let following = next[walk]
                next[walk] = root
                walk = following
            }
            return root
        }
        let order = cards.indices.sorted { a, b in
            let (x, y) = (cards[a], cards[b])
            return x.card.z != y.card.z ? x.card.z > y.card.z : x.offset > y.offset
        }
        for entry in order {
            let frame = cards[entry].card.frame
            let low = 2 * index(frame.minY) + 1
            let high = 2 * index(frame.maxY)
            var i = free(low)
            while i <= high {
                top[i] = entry
                next[i] = i + 1
                i = free(i + 1)
            }
        }
        return Column(minX: first.minX, maxX: first.maxX, edges: edges, top: top)
    }

    /// The highest z under `point`; among equal z, the one given later (as `max(by:)` picks).
    func card(at point: Point) -> CardSnapshot? {
        if let column, !point.y.isNaN {
            guard point.x >= column.minX && point.x < column.maxX else { return nil }
            let entry = column.top[column.stretch(point.y)]
            return entry < 0 ? nil : cards[entry].card
        }
        var best: (offset: Int, card: CardSnapshot)?
        for entry in cards where entry.card.frame.contains(point) {
            if let best,
                !(best.card.z != entry.card.z ? best.card.z < entry.card.z : best.offset < entry.offset)
            {
                continue
            }
            best = entry
        }
        return best?.card
    }
}
