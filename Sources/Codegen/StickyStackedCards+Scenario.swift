import Exploration
import StackModel
import Traces

/// `screen:sticky_stacked_cards { ... }` as a scenario writes it (Bindings'
/// StickyStackedCards+Lua.swift); a vertical drag on it is `cards:scroll(dy)`.
extension StickyStackedCards: ScenarioComponent {
    public static var scenarioVariable: String { "cards" }
    /// The demo's cards (Bindings' `demoCardHeight`).
    public static var defaultCardHeight: Double { 348 }
    public static var keepsCardHeight: Bool { false }
    public static var defaultTapTarget: ComponentTarget? { .part("scroll") }
    public static var movedCardField: Expectation.CardField { .y }
    public static var checkedState: [String] { ["scroll_offset"] }
    public static var stateMethods: [String] {
        ["scroll_offset", "max_offset", "content_height", "ids", "count"]
    }

    public static func optionDefaults(x: Double, y: Double, screen: Size) -> [String: JSONValue] {
        [
            "name": .string(Defaults.name), "spacing": .number(Defaults.spacing),
            "top": .number(Defaults.top),
            "peek": .number(Defaults.peek), "max_peeking": .number(Double(Defaults.maxPeeking)),
            "x": .number(0), "y": .number(0), "width": .number(max(screen.width - x, 0)),
            "height": .number(max(screen.height - y, 0)), "inset_top": .number(Defaults.insetTop),
            "inset_bottom": .number(Defaults.insetBottom),
            "inset_horizontal": .number(Defaults.insetHorizontal),
            "scroll_offset": .number(Defaults.scrollOffset),
        ]
    }

    public static func fillMargins(x: Double, y: Double) -> (width: Double?, height: Double?) { (x, y) }

    /// `cards:scroll(dy)`: a finger drag from the scroll view's point by `-dy`, content moving
    /// with the finger (Bindings' `scroll`), for a gesture that went down anywhere on the cards.
    public static func gestureCalls(_ gesture: RecordedGesture, variable: String) -> [ScenarioCall] {
        guard gesture.moves > 0, let name = gesture.hit?.componentName else { return [] }
        return gesture.dragTimings.flatMap { timing in
            gesture.roundings(of: -gesture.translation.y).map { dy in
                let options = gesture.dragOptions(steps: timing.steps, duration: timing.duration)
                return ScenarioCall("\(variable):scroll(\(luaNumber(dy))\(options.text))") { simulation in
                    let component = try simulation.component(name)
                    let start = try component.point(of: "scroll", in: simulation.screen.settings)
                    try simulation.screen.drag(
                        from: start, by: Point(x: 0, y: -dy), steps: options.steps, duration: options.duration
                    )
                }
            }
        }
    }
}
