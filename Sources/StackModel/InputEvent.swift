/// One input a screen received: what traces record and replays feed back (R2).
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
}
