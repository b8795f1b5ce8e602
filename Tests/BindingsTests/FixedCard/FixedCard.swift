import StackModel

/// A fourth component kind that lives only in the tests: one card that stays where it is put,
/// counts the taps it gets, and whose label its owner can change (`set_label`). It touches no
/// file outside this folder; `FourthKindTests` takes it through the screen, Lua, traces and SVG.
final class FixedCard: Component {
    let kind = ComponentKind.fixedCard
    let name: String
    let frame: Rect
    private(set) var label: String
    /// Taps that came up on the card.
    private(set) var taps = 0
    /// The card's id: a fixed card has one card.
    static let cardID = "fixed"

    init(name: String = "card", label: String, frame: Rect) throws {
        guard frame.width >= 0, frame.height >= 0 else { throw StackModelError("a size must be ≥ 0") }
        self.name = name
        self.label = label
        self.frame = frame
    }

    var card: CardSnapshot {
        CardSnapshot(
            id: Self.cardID, frame: frame, scale: 1, opacity: 1, z: 0, isVisible: true, isHittable: true)
    }

    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: frame, cards: [card],
            state: [("label", .string(label)), ("taps", .number(Double(taps)))])
    }

    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] { [card] }
    var cardCount: Int { 1 }
    var cardTextBytes: Int { Self.cardID.utf8.count + label.utf8.count }

    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        frame.contains(point) ? .card(Self.cardID) : nil
    }

    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point {
        guard target == .card(Self.cardID) else { throw StackModelError("no card '\(target)'") }
        return frame.center
    }

    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {}
    func touchMoved(_ touch: Touch, in settings: ScreenSettings) {}
    func touchEnded(_ touch: Touch, in settings: ScreenSettings) {
        if frame.contains(touch.location) { taps += 1 }
    }

    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        [AccessibilityElement(id: "card:\(Self.cardID)", label: label, traits: [.button], frame: frame)]
    }

    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    {
        throw StackModelError("'\(element)' has no action '\(action)'")
    }

    var animationEndTime: Double? { nil }

    func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        guard change.name == "set_label", let label = try change.optionalString("label") else {
            throw unsupported(change)
        }
        self.label = label
    }
}

extension ComponentKind {
    static let fixedCard = ComponentKind("fixed_card")
}

extension OwnerChange {
    /// The owner gave the card a new label.
    static func setLabel(_ label: String) -> OwnerChange {
        OwnerChange("set_label", [Field("label", .string(label))])
    }
}
