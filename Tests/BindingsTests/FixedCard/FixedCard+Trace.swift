import StackModel
import Traces

/// A fixed card in a trace header: `label`, `x`, `y`, `width`, `height`.
extension FixedCard: TraceableComponent {
    static var componentKind: ComponentKind { .fixedCard }
    static let ownerChanges = [OwnerChange.Schema("set_label", [.init("label", .optionalString)])]

    var traceFields: [(String, JSONValue)] {
        [
            ("label", .string(label)), ("x", .number(frame.x)), ("y", .number(frame.y)),
            ("width", .number(frame.width)), ("height", .number(frame.height)),
        ]
    }

    static func make(name: String, from o: TraceFields) throws -> Self {
        try Self(
            name: name, label: try o.string("label"),
            frame: Rect(
                x: try o.number("x"), y: try o.number("y"), width: try o.nonNegative("width"),
                height: try o.nonNegative("height")))
    }
}
