/// A component on a screen: a headless model of one seed.
///
/// The screen owns the clock, the settings and the touches; it hands each component the settings
/// of the moment on every call, so a component never keeps a stale time. Everything a component
/// shows is computed from its model state and its running animations at `settings.now`.
public protocol Component: AnyObject {
    var kind: ComponentKind { get }
    /// The name scripts and traces use; unique on its screen.
    var name: String { get }

    /// Where everything is at `settings.now`.
    func snapshot(in settings: ScreenSettings) -> ComponentSnapshot

    /// Only the cards of `snapshot(in:)`: what a script reads most often, without the state.
    func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot]

    /// How many cards it holds now, without laying them out: what the runner's memory estimate
    /// counts (a card's spec, its layout and its animated values).
    var cardCount: Int { get }

    /// The bytes of its cards' ids and labels, counted: what the memory budget charges for them
    /// (each card holds its own Swift copy, so a 4 MiB label shared by 200 items is 800 MiB).
    var cardTextBytes: Int { get }

    /// The part under `point` that takes touches, or nil when a touch there passes through (G4).
    func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget?

    /// `hitTest(_:in:)` for many points of one moment, the layout made once (the audit's cells).
    func hitTester(in settings: ScreenSettings) -> (Point) -> ComponentTarget?

    /// Rectangles that take part in hit testing but are no frame of `snapshot(in:)` (the
    /// notification stack's layout rectangle): their edges, with the snapshot's, cut a card into
    /// the cells ``ScriptView/aim(atCard:of:force:)`` tests.
    func extraHitRegions(in settings: ScreenSettings) -> [Rect]

    /// The changes that lay it out again for a screen of `size` (``ContainerFill``): none unless
    /// it was made without an explicit width or height.
    func containerChanges(for size: Size) -> [OwnerChange]

    /// Where a finger should go down to touch `target` (a card, a part such as `"stack"`, or a
    /// card by its bare id): the centre of the part of it that shows.
    func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point

    /// A finger went down on `target` (as `hitTest` named it).
    func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings)
    /// A finger that went down on this component moved.
    func touchMoved(_ touch: Touch, in settings: ScreenSettings)
    /// A finger that went down on this component came up at `touch.location`.
    func touchEnded(_ touch: Touch, in settings: ScreenSettings)
    /// What the gate of the gesture that just ended decided, and why (``GestureVerdict``); the
    /// screen takes it once, right after ``touchEnded(_:in:)``. The default: nil (no explanation).
    func takeGestureVerdict() -> GestureVerdict?

    /// Every element VoiceOver knows of, hidden ones included, in layout order.
    func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement]
    /// Performs the named action of an element: `"Clear"`; `"escape"`. Returns whether the action
    /// did something; throws when the element or the action does not exist.
    func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings) throws
        -> Bool
    /// The Escape gesture (W9); false when the component has nothing to dismiss.
    func escape(in settings: ScreenSettings) -> Bool

    /// The latest time at which a running animation finishes (`.infinity` for one that never
    /// rests), or nil when nothing has animated.
    var animationEndTime: Double? { get }

    /// The screen's settings changed (size, direction, Reduce Motion, Dynamic Type) at
    /// `new.now`; also called with `old == new` when the component is put on a screen.
    func settingsChanged(from old: ScreenSettings, to new: ScreenSettings)

    /// Applies a change the owner makes to this component's bindings (`set_expanded`); throws
    /// for a change this kind does not take. The screen reports it after it took effect.
    func apply(_ change: OwnerChange, in settings: ScreenSettings) throws

    /// The accessibility audit's hook: the elements a touch acts on now (a tap, or only a drag),
    /// hidden ones included. The default: every element with the Button trait, tapped.
    func touchTargets(in settings: ScreenSettings) -> [TouchTarget]

    /// The accessibility audit's hook: whether performing the named `action` on `element` now
    /// would change anything, without performing it; nil when the kind cannot tell (the default),
    /// and the audit leaves the action alone.
    func wouldChange(performing action: String, on element: String, in settings: ScreenSettings) -> Bool?
}

/// An element a touch acts on, for the audit's `hit_region`, `element_detection` and `trait`
/// rules.
public struct TouchTarget: Hashable, Sendable {
    public enum Gesture: String, Hashable, Sendable {
        /// A tap does something: a control, which VoiceOver activates with a double tap.
        case tap
        /// Only a drag does something (a card swiped away); VoiceOver reaches it by an action.
        case drag
    }
    /// The element's id, which is also what `hitTest` names.
    public var element: String
    public var gesture: Gesture

    public init(_ element: String, _ gesture: Gesture = .tap) {
        self.element = element
        self.gesture = gesture
    }

    public init(_ target: ComponentTarget, _ gesture: Gesture = .tap) {
        self.init(target.name, gesture)
    }
}

extension Component {
    public func hitTester(in settings: ScreenSettings) -> (Point) -> ComponentTarget? {
        { point in self.hitTest(point, in: settings) }
    }
    public func extraHitRegions(in settings: ScreenSettings) -> [Rect] { [] }
    public func containerChanges(for size: Size) -> [OwnerChange] { [] }
    public func settingsChanged(from old: ScreenSettings, to new: ScreenSettings) {}
    public func escape(in settings: ScreenSettings) -> Bool { false }
    public func takeGestureVerdict() -> GestureVerdict? { nil }
    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        throw unsupported(change)
    }

    public func touchTargets(in settings: ScreenSettings) -> [TouchTarget] {
        accessibilityElements(in: settings).filter { $0.traits.contains(.button) }.map { TouchTarget($0.id) }
    }

    public func wouldChange(performing action: String, on element: String, in settings: ScreenSettings)
        -> Bool?
    { nil }

    /// `'sticky' is a sticky_stacked_cards, which takes no set_expanded`.
    public func unsupported(_ change: OwnerChange) -> StackModelError {
        StackModelError("'\(name)' is a \(kind.rawValue), which takes no \(change.name)")
    }
}

/// The latest end time among `values`' animations.
func latestEnd(_ values: [AnimatedValue]) -> Double? {
    values.compactMap(\.endTime).max()
}
