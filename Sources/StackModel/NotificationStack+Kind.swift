/// What the generic layers know of a notification stack: its kind's name and the changes its
/// owner makes (`isExpanded`, the items), applied, recorded and replayed as `OwnerChange`s.
extension ComponentKind {
    public static let notificationStack = ComponentKind("notification_stack")
}

extension OwnerChange {
    /// The owner set a notification stack's `isExpanded` binding (N7).
    public static func setExpanded(_ expanded: Bool) -> OwnerChange {
        OwnerChange("set_expanded", [Field("expanded", .bool(expanded))])
    }
}

extension OwnerChange.Schema {
    public static let setExpanded = OwnerChange.Schema("set_expanded", [.init("expanded", .bool)])
}

extension NotificationStack {
    /// The owner's changes a notification stack takes.
    public static let ownerChanges: [OwnerChange.Schema] = [.setExpanded, .setItems]

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        switch change.name {
        case "set_expanded": setExpanded(try change.bool("expanded"), in: settings)
        case "set_items": try setCards(try change.cards("items"), in: settings)
        default: throw unsupported(change)
        }
    }
}

extension Screen {
    /// Sets the `isExpanded` binding of the notification stack `name` (N7).
    public func setExpanded(_ expanded: Bool, of name: String) throws {
        try change(.setExpanded(expanded), of: name)
    }
}
