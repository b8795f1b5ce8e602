/// One card as it is on screen at a moment: a plain value that the Lua API, traces and pictures
/// read.
public struct CardSnapshot: Hashable, Sendable {
    public var id: String
    /// The frame on screen, after offset and scale.
    public var frame: Rect
    public var scale: Double
    public var opacity: Double
    /// The z-index: higher is drawn over lower.
    public var z: Double
    /// Whether any of it shows: opacity above 0 and not entirely cut away.
    public var isVisible: Bool
    /// Whether a touch on it can land on it.
    public var isHittable: Bool

    public init(
        id: String, frame: Rect, scale: Double, opacity: Double, z: Double, isVisible: Bool, isHittable: Bool
    ) {
        self.id = id
        self.frame = frame
        self.scale = scale
        self.opacity = opacity
        self.z = z
        self.isVisible = isVisible
        self.isHittable = isHittable
    }
}

/// A part of a component that is not a card: the notification header, the wallet's detail area.
public struct PartSnapshot: Hashable, Sendable {
    public var name: String
    public var frame: Rect
    public var opacity: Double
    public var isHittable: Bool

    public init(name: String, frame: Rect, opacity: Double, isHittable: Bool) {
        self.name = name
        self.frame = frame
        self.opacity = opacity
        self.isHittable = isHittable
    }
}

/// A value of a component's state, as scripts and traces see it.
public enum StateValue: Hashable, Sendable, CustomStringConvertible {
    case none
    case bool(Bool)
    case number(Double)
    case string(String)
    case strings([String])

    public var description: String {
        switch self {
        case .none: "nil"
        case .bool(let value): String(value)
        case .number(let value): formatNumber(value)
        case .string(let value): "\"\(value)\""
        case .strings(let values): "{ " + values.map { "\"\($0)\"" }.joined(separator: ", ") + " }"
        }
    }
}

/// One component at a moment: its frame, its cards in their given order, its other parts, and
/// its state as named values (in a fixed order, so that traces are byte-identical run to run).
public struct ComponentSnapshot: Hashable, Sendable {
    public var kind: ComponentKind
    public var name: String
    public var frame: Rect
    public var cards: [CardSnapshot]
    /// The cards on their way out (G8): removed inside an animated transaction, drawn with their
    /// transition's opacity until it finishes; never hittable, and none of `cards`.
    public var leaving: [CardSnapshot]
    public var parts: [PartSnapshot]
    public var state: [(name: String, value: StateValue)]

    public init(
        kind: ComponentKind, name: String, frame: Rect, cards: [CardSnapshot], leaving: [CardSnapshot] = [],
        parts: [PartSnapshot] = [], state: [(name: String, value: StateValue)] = []
    ) {
        self.kind = kind
        self.name = name
        self.frame = frame
        self.cards = cards
        self.leaving = leaving
        self.parts = parts
        self.state = state
    }

    /// The card with `id`, if the component holds it.
    public func card(_ id: String) -> CardSnapshot? { cards.first { $0.id.isSameBytes(id) } }

    /// The part called `name` ("header", "detail"), if it is there.
    public func part(_ name: String) -> PartSnapshot? { parts.first { $0.name.isSameBytes(name) } }

    /// The state value called `name`.
    public func state(_ name: String) -> StateValue? { state.first { $0.name.isSameBytes(name) }?.value }

    public static func == (lhs: ComponentSnapshot, rhs: ComponentSnapshot) -> Bool {
        lhs.kind == rhs.kind && lhs.name == rhs.name && lhs.frame == rhs.frame && lhs.cards == rhs.cards
            && lhs.leaving == rhs.leaving && lhs.parts == rhs.parts
            && lhs.state.elementsEqual(rhs.state) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(name)
        hasher.combine(cards)
    }
}

/// The whole screen at a moment.
public struct FrameSnapshot: Hashable, Sendable {
    public var settings: ScreenSettings
    public var components: [ComponentSnapshot]

    public init(settings: ScreenSettings, components: [ComponentSnapshot]) {
        self.settings = settings
        self.components = components
    }

    public var time: Double { settings.now }
}
