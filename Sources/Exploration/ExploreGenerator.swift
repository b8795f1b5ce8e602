import StackModel
import Traces

/// The default actions: every gesture the API has, for every component on the screen, found
/// through the component (its cards, parts, accessibility elements) and the kind registry (the
/// owner's changes its kind takes), never by naming a concrete component.
public struct ExploreGenerator: Sendable {
    /// The families and their weights (0 turns one off); the custom actions' names come after the
    /// built-in ones, sorted.
    public let weights: [(family: String, weight: Double)]
    /// Where owner changes come from.
    public var kinds: ComponentKinds

    /// The built-in families, in the order they are drawn, with their default weights.
    public static let defaultWeights: [(family: String, weight: Double)] = [
        ("tap", 3), ("drag", 3), ("touch", 2), ("advance", 2), ("settle", 1), ("escape", 0.5),
        ("accessibility", 1), ("settings", 0.5), ("owner", 1),
    ]

    public static var familyNames: [String] { defaultWeights.map(\.family) }

    /// The most fingers down at once in raw touch sequences.
    public static let maximumFingers = 3

    /// Distances the models decide on (N4 110 pt, its minimum distance, the tap's 45 pt, the
    /// scroll pan's start): translations are drawn near them (± 0.5) more often than not.
    public static let thresholds: [Double] = {
        let base = [
            NotificationStack.swipeThreshold, NotificationStack.swipeMinimumDistance,
            Touch.tapMaximumDistance, StickyStackedCards.panMinimumDistance,
        ]
        return base.flatMap { [$0 - 0.5, $0, $0 + 0.5] }.sorted()
    }()

    public init(
        custom: [(name: String, weight: Double)] = [], overrides: [String: Double] = [:],
        kinds: ComponentKinds = .standard
    ) {
        var weights = Self.defaultWeights.map { ($0.family, overrides[$0.family] ?? $0.weight) }
        weights += custom.sorted { $0.name < $1.name }.map { ($0.name, $0.weight) }
        self.weights = weights
        weightValues = weights.map { $0.1 }
        self.kinds = kinds
    }

    /// `weights`' numbers, drawn from at every step.
    private let weightValues: [Double]

    /// The fingers a run has down: its number → the screen's touch id and where it is.
    public struct Fingers: Sendable {
        public var down: [Int: (id: Int, at: Point)] = [:]
        public var next = 1
        public init() {}
    }

    /// The next step for `screen`; nil when the drawn family has nothing to do here (the caller
    /// draws again).
    public func next(on screen: Screen, fingers: Fingers, random: inout ExploreRandom) -> ExploreAction? {
        let family = weights[random.weighted(weightValues)].family
        let settings = screen.settings
        switch family {
        case "tap":
            return .tap(target(on: screen, &random), duration: tapDuration(&random))
        case "drag":
            let steps = random.pick([1, 2, 5, 10, 10, 20, 1 + random.index(40)])
            let duration = random.chance(0.5) ? 0 : random.pick([0.1, 0.3, 0.74, 0.76, random.number(0...1)])
            return .drag(
                target(on: screen, &random), by: translation(&random), steps: steps, duration: duration)
        case "touch":
            let free = (1...Self.maximumFingers).filter { fingers.down[$0] == nil }
            if fingers.down.isEmpty || (!free.isEmpty && random.chance(0.35)) {
                return .touchDown(finger: free[0], target(on: screen, &random))
            }
            let finger = random.pick(fingers.down.keys.sorted())
            guard let at = fingers.down[finger]?.at else { return nil }
            if random.chance(0.65) {
                let by = translation(&random)
                return .touchMove(finger: finger, Point(x: at.x + by.x, y: at.y + by.y))
            }
            return .touchUp(finger: finger)
        case "advance":
            if let end = screen.pendingAnimationEnd, end.isFinite, random.chance(0.8) {
                // mid-animation: a fraction of what is left
                return .advance((end - screen.now) * random.number(0.05...0.95))
            }
            return .advance(random.pick([1.0 / 300, 1.0 / 60, 0.1, random.number(0...0.5)]))
        case "settle": return .settle
        case "escape": return .escape
        case "accessibility":
            guard !screen.components.isEmpty else { return nil }
            let component = random.pick(screen.components)
            let elements = component.accessibilityElements(in: settings).filter { !$0.isHidden }
            guard !elements.isEmpty else { return nil }
            let element = random.pick(elements)
            if !element.actions.isEmpty, random.chance(0.6) {
                return .action(
                    component: component.name, element: element.id, name: random.pick(element.actions))
            }
            return .activate(component: component.name, element: element.id)
        case "settings":
            switch random.index(4) {
            case 0: return .setReduceMotion(!settings.reduceMotion)
            case 1: return .setLayoutDirection(settings.isRightToLeft ? .leftToRight : .rightToLeft)
            case 2: return .setDynamicType(random.pick(DynamicTypeSize.allCases))
            default:
                let sizes = [
                    Size(width: 390, height: 844), Size(width: 375, height: 667),
                    Size(width: 430, height: 932), Size(width: 820, height: 1180),
                    Size(width: 320, height: 568),
                ]
                return .setSize(random.pick(sizes))
            }
        case "owner":
            return ownerChange(on: screen, &random)
        default:
            return .custom(name: family, argument: random.index(1_000))
        }
    }

    /// Where a finger goes: a card, a part (header, "Show less", detail), the component's middle,
    /// or anywhere on (or just off) the screen.
    func target(on screen: Screen, _ random: inout ExploreRandom) -> Point {
        let settings = screen.settings
        if !screen.components.isEmpty, random.chance(0.85) {
            let component = random.pick(screen.components)
            let snapshot = component.snapshot(in: settings)
            let choice = random.number(0...1)
            if choice < 0.6, !snapshot.cards.isEmpty {
                let card = random.pick(snapshot.cards)
                if let point = try? component.point(of: .card(card.id), in: settings) { return point }
                return card.frame.center
            }
            if choice < 0.8, !snapshot.parts.isEmpty { return random.pick(snapshot.parts).frame.center }
            if let point = try? component.point(of: "stack", in: settings), choice < 0.9 { return point }
            let f = snapshot.frame
            return Point(x: f.x + f.width * random.number(0...1), y: f.y + f.height * random.number(0...1))
        }
        let size = settings.size
        return Point(
            x: (random.number(-0.05...1.05) * size.width).rounded(),
            y: (random.number(-0.05...1.05) * size.height).rounded())
    }

    func tapDuration(_ random: inout ExploreRandom) -> Double {
        random.chance(0.7)
            ? 0
            : random.pick([
                Touch.tapMaximumDuration - 0.01, Touch.tapMaximumDuration, Touch.tapMaximumDuration + 0.01,
                random.number(0...1.2),
            ])
    }

    /// A translation, biased toward the thresholds: mostly sideways (swipes), sometimes
    /// vertical (scrolls, the wallet's pile), sometimes both.
    func translation(_ random: inout ExploreRandom) -> Point {
        func magnitude() -> Double {
            let sign: Double = random.chance(0.5) ? 1 : -1
            if random.chance(0.6) { return sign * random.pick(Self.thresholds) }
            return sign * random.number(0...400)
        }
        switch random.number(0...1) {
        case ..<0.6: return Point(x: magnitude(), y: 0)
        case ..<0.85: return Point(x: 0, y: magnitude())
        default: return Point(x: magnitude(), y: magnitude())
        }
    }

    /// An owner's change of a component, drawn from its kind's schemas.
    func ownerChange(on screen: Screen, _ random: inout ExploreRandom) -> ExploreAction? {
        guard !screen.components.isEmpty else { return nil }
        let component = random.pick(screen.components)
        guard let type = kinds.type(of: component.kind), !type.ownerChanges.isEmpty else { return nil }
        let schema = random.pick(type.ownerChanges)
        let snapshot = component.snapshot(in: screen.settings)
        let ids = snapshot.cards.map(\.id)
        var fields: [OwnerChange.Field] = []
        for spec in schema.fields {
            let value: OwnerChange.Value
            switch spec.type {
            case .bool: value = .bool(random.chance(0.5))
            case .number:
                value = .number(
                    random.chance(0.5) ? random.number(-100...3000).rounded() : random.number(0...800))
            case .nonNegative:
                value = .number(random.pick([0, 200, 400, 600, 844, random.number(0...1000).rounded()]))
            case .optionalString:
                value = random.chance(0.25) || ids.isEmpty ? .null : .string(random.pick(ids))
            case .cards:
                var cards = snapshot.cards.map {
                    CardSpec(id: $0.id, height: $0.scale > 0 ? ($0.frame.height / $0.scale).rounded() : 70)
                }
                switch random.index(4) {
                case 0: if !cards.isEmpty { cards.remove(at: random.index(cards.count)) }
                case 1: cards.shuffle(using: &random)
                case 2:
                    cards.insert(
                        CardSpec(id: "new\(random.index(100))", height: 70), at: random.index(cards.count + 1)
                    )
                default: cards = []
                }
                var seen = Set<ByteKey>()
                value = .cards(cards.filter { seen.insert(ByteKey($0.id)).inserted })
            }
            fields.append(.init(spec.name, value))
        }
        return .change(component: component.name, OwnerChange(schema.name, fields))
    }
}
