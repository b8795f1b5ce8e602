import StackModel
import Traces

/// A component kind as the scenario writer knows it: how a script makes it
/// (`screen:notification_stack { ... }`, the options the Lua factory fills in when they are left
/// out), the variable a scenario calls it by, the state a test checks first, and any gesture of
/// its own (the sticky cards' `scroll`). Each kind conforms in its own file
/// (`NotificationStack+Scenario.swift`) and is listed in ``ScenarioKinds``.
///
/// The defaults here are the Lua factory's (Bindings' `<Kind>+Lua.swift`); a test in
/// StackplayRunnerTests builds each kind through Lua with no options and checks they agree.
public protocol ScenarioComponent: TraceableComponent {
    /// The variable a scenario names it by when it is the only one of its kind (`stack`).
    static var scenarioVariable: String { get }
    /// Each item's height when neither the item nor `card_height` gives one.
    static var defaultCardHeight: Double { get }
    /// Whether `card_height` is one of its trace fields (the wallet keeps it), not only the
    /// items' default height.
    static var keepsCardHeight: Bool { get }
    /// What `c:tap()` with no target aims at (nil: the kind needs a target).
    static var defaultTapTarget: ComponentTarget? { get }
    /// The header fields the Lua factory fills in for an option left out, for a component at
    /// `x`, `y` (as given or defaulted) on a screen of `screen`: `expanded`, `x`, `width`, `name`, ...
    /// `x` and `y` themselves are among them.
    static func optionDefaults(x: Double, y: Double, screen: Size) -> [String: JSONValue]
    /// The margins of the fill a component made without a `width` (`height`) gets
    /// (``ContainerFill``): it follows the screen's size. nil: the kind has no such option.
    static func fillMargins(x: Double, y: Double) -> (width: Double?, height: Double?)
    /// The state values a test of this kind checks by default, each read by the method of that
    /// name (`expanded` → `stack:expanded()`).
    static var checkedState: [String] { get }
    /// The state values a method of the same name reads (`c:expanded()`); others are read from
    /// `c:state()`.
    static var stateMethods: [String] { get }
    /// The field of a card a test checks after a gesture went down on it: where the gesture moves
    /// cards (`x` for a swipe, `y` for a pile or a scroll).
    static var movedCardField: Expectation.CardField { get }
    /// Calls of its own that may stand for a gesture that went down on it (a drag on the sticky
    /// cards is `cards:scroll(dy)`), tried before the common `tap` and `drag`.
    static func gestureCalls(_ gesture: RecordedGesture, variable: String) -> [ScenarioCall]

    /// The fill (``ContainerFill``) the Lua factory gave it.
    var fill: ContainerFill { get set }
}

extension ScenarioComponent {
    public static func gestureCalls(_ gesture: RecordedGesture, variable: String) -> [ScenarioCall] { [] }
}

/// The kinds the scenario writer can write: the three seeds, and any kind added as
/// `ScenarioKinds.standard.adding(MyKind.self)`.
public struct ScenarioKinds: Sendable {
    public private(set) var types: [any ScenarioComponent.Type]

    public init(_ types: [any ScenarioComponent.Type]) { self.types = types }

    public static let standard = ScenarioKinds([
        NotificationStack.self, WalletCardStack.self, StickyStackedCards.self,
    ])

    public func adding(_ type: any ScenarioComponent.Type) -> ScenarioKinds {
        var kinds = self
        kinds.types.removeAll { $0.componentKind == type.componentKind }
        kinds.types.append(type)
        return kinds
    }

    public func type(of kind: ComponentKind) -> (any ScenarioComponent.Type)? {
        types.first { $0.componentKind == kind }
    }

    /// The same kinds as a trace reads them.
    public var traceKinds: ComponentKinds { ComponentKinds(types) }
}
