import StackModel

/// A component kind as traces know it: its name, the owner's changes it takes, how it is written
/// into a trace's header (or an `add` event) and built again from it. Each kind conforms in its
/// own file (`NotificationStack+Trace.swift`) and is listed in a `ComponentKinds` registry.
public protocol TraceableComponent: Component, SendableMetatype {
    /// The kind's name: every instance's `kind`.
    static var componentKind: ComponentKind { get }
    /// The changes its owner makes, by the names traces give them (`set_expanded`).
    static var ownerChanges: [OwnerChange.Schema] { get }
    /// The changes a screen of a new size makes to it (`set_width`; `ContainerFill`): read and
    /// replayed as owner changes are, but no owner's (the explorer does not draw them).
    static var containerChanges: [OwnerChange.Schema] { get }
    /// Every parameter it was built with, after `kind` and `name`, named as the Lua options are,
    /// so a replay builds it again exactly (the current model state stands for the initial one).
    var traceFields: [(String, JSONValue)] { get }
    /// Builds the component `fields` describe (they also hold `kind` and `name`). A model error
    /// becomes a `TraceError` that names the object.
    static func make(name: String, from fields: TraceFields) throws -> Self
}

extension TraceableComponent {
    public static var ownerChanges: [OwnerChange.Schema] { [] }
    public static var containerChanges: [OwnerChange.Schema] { [] }
}
