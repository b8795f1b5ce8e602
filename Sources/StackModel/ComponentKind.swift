/// The name of a kind of component (`"notification_stack"`): what scripts, traces and snapshots
/// call it. Open: each component declares its own (`ComponentKind.notificationStack` is in
/// `NotificationStack+Kind.swift`), and a kind from another module is one more value. The lists
/// of kinds are the registries: `Traces.ComponentKinds` and `Bindings.LuaComponentKinds`.
public struct ComponentKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
