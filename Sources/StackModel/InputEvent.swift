/// One input a screen received: what traces record and replays feed back (R2).
///
/// Every change a script can make goes through `Screen` and is one of these, so that a trace
/// holds every input: the gestures, the clock, the settings, and the changes an owner makes to
/// a component's bindings (`OwnerChange`).
public enum InputEvent: Hashable, Sendable {
    case touchDown(touch: Int, at: Point)
    case touchMove(touch: Int, to: Point)
    case touchUp(touch: Int)
    /// The clock moved forward by this many seconds (`advance`, `settle`, or a gesture's duration).
    case advance(seconds: Double)
    case setReduceMotion(Bool)
    case setLayoutDirection(LayoutDirection)
    case setDynamicTypeSize(DynamicTypeSize)
    case setSize(Size)
    /// A named accessibility action on an element of a component.
    case action(component: String, element: String, name: String)
    /// The Escape gesture, sent to one component.
    case escape(component: String)
    /// A component was put on the screen, over those already there. A trace keeps the components
    /// added before the first other input in its header; later ones are events.
    case add(component: String)
    /// The owner changed a component's bindings (`set_expanded`, `set_items`, `select`, ...):
    /// each kind declares the changes it takes.
    case change(component: String, change: OwnerChange)
}
