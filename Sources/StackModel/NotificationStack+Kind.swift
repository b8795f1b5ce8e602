/// What the generic layers know of a notification stack: its kind's name and the changes its
/// owner makes (`isExpanded`, the items), applied, recorded and replayed as `OwnerChange`s.
extension ComponentKind {
    public static let notificationStack = ComponentKind("notification_stack")
}

extension NotificationStack {
    /// What a notification stack is given when its owner says nothing (the seed's defaults): the
    /// model's initializer, the Lua factory and its definitions read them here.
    public enum Defaults {
        public static let name = "notifications"
        public static let isExpanded = false
        public static let title = "Notifications"
        public static let spacing = Mutant.number(10.0, (.n2SpacingUp, 16), (.n2SpacingDown, 4))
        public static let peek = Mutant.number(10.0, (.n2PeekUp, 16), (.n2PeekDown, 4))
        public static let isDismissible = false
    }
}

extension OwnerChange {
    /// The owner set a notification stack's `isExpanded` binding (N7).
    public static let setExpanded = OwnerChangeType<Bool>("set_expanded", field: "expanded")
}

extension NotificationStack {
    /// The owner's changes a notification stack takes, and what each does.
    public static let ownerChangeHandlers: [OwnerChangeHandler<NotificationStack>] = [
        .init(OwnerChange.setExpanded) { stack, expanded, settings in
            stack.setExpanded(expanded, in: settings)
        },
        .init(OwnerChange.setItems) { stack, cards, settings in try stack.setCards(cards, in: settings) },
    ]

    public static let ownerChanges = ownerChangeHandlers.map(\.schema)

    /// The change a screen of a new size makes (``ContainerFill``): not the owner's.
    public static let containerChangeHandlers: [OwnerChangeHandler<NotificationStack>] = [
        .init(OwnerChange.setWidth) { stack, width, _ in try stack.setWidth(width) }
    ]

    public static let containerChanges = containerChangeHandlers.map(\.schema)

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        try OwnerChangeHandler.apply(
            change, to: self, by: Self.ownerChangeHandlers + Self.containerChangeHandlers, in: settings)
    }
}

extension Screen {
    /// Sets the `isExpanded` binding of the notification stack `name` (N7).
    public func setExpanded(_ expanded: Bool, of name: String) throws {
        try change(.setExpanded(expanded), of: name)
    }
}
