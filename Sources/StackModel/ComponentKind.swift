/// The name of a kind of component (`"notification_stack"`): what scripts, traces and snapshots
/// call it. Open: each component declares its own (`ComponentKind.notificationStack` lives in
/// `NotificationStack.swift`), and a kind from another module is one more value.
public struct ComponentKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The kinds StackModel itself has, in the order scripts and traces list them.
    public static let builtIn: [ComponentKind] = [.notificationStack, .walletCardStack, .stickyStackedCards]
}
