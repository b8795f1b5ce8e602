import StackModel
import Traces

/// `screen:wallet_card_stack { ... }` as a scenario writes it (Bindings' WalletCardStack+Lua.swift).
extension WalletCardStack: ScenarioComponent {
    public static var scenarioVariable: String { "wallet" }
    public static var defaultCardHeight: Double { Defaults.cardHeight }
    public static var keepsCardHeight: Bool { true }
    /// A wallet has nothing to tap as a whole.
    public static var defaultTapTarget: ComponentTarget? { nil }
    public static var movedCardField: Expectation.CardField { .y }
    public static var checkedState: [String] { ["selection"] }
    public static var stateMethods: [String] { ["selection", "step", "peek", "ids", "count"] }

    public static func optionDefaults(x: Double, y: Double, screen: Size) -> [String: JSONValue] {
        [
            "name": .string(Defaults.name), "selection": .null, "card_height": .number(Defaults.cardHeight),
            "peek": .number(Defaults.peek), "pile_height": .number(Defaults.pileHeight), "x": .number(20),
            "y": .number(0), "width": .number(max(screen.width - 2 * x, 0)),
            "height": .number(max(screen.height - y, 0)),
        ]
    }

    public static func fillMargins(x: Double, y: Double) -> (width: Double?, height: Double?) { (2 * x, y) }
}
