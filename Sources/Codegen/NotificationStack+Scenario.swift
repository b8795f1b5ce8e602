import StackModel
import Traces

/// `screen:notification_stack { ... }` as a scenario writes it (Bindings' NotificationStack+Lua.swift).
extension NotificationStack: ScenarioComponent {
    public static var scenarioVariable: String { "stack" }
    /// The demo's card height (Bindings' `demoCardHeight`).
    public static var defaultCardHeight: Double { 70 }
    public static var keepsCardHeight: Bool { false }
    public static var defaultTapTarget: ComponentTarget? { .part("stack") }
    public static var movedCardField: Expectation.CardField { .x }
    public static var checkedState: [String] { ["expanded"] }
    public static var stateMethods: [String] {
        ["expanded", "open", "progress", "dismissed", "ids", "count"]
    }

    public static func optionDefaults(x: Double, y: Double, screen: Size) -> [String: JSONValue] {
        [
            "name": .string(Defaults.name), "expanded": .bool(Defaults.isExpanded),
            "title": .string(Defaults.title), "spacing": .number(Defaults.spacing),
            "peek": .number(Defaults.peek), "dismissible": .bool(Defaults.isDismissible), "x": .number(16),
            "y": .number(0), "width": .number(max(screen.width - 2 * x, 0)),
        ]
    }

    public static func fillMargins(x: Double, y: Double) -> (width: Double?, height: Double?) { (2 * x, nil) }
}
