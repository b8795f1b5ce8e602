/// What the generic layers know of the sticky cards: its kind's name and the program's scrolls
/// (`scrollTo(y:)`), applied, recorded and replayed as `OwnerChange`s.
extension ComponentKind {
    public static let stickyStackedCards = ComponentKind("sticky_stacked_cards")
}

extension OwnerChange {
    /// The program scrolled a sticky stack's scroll view to `offset`, clamped (S6).
    public static func scrollTo(_ offset: Double) -> OwnerChange {
        OwnerChange("scroll_to", [Field("offset", .number(offset))])
    }
}

extension OwnerChange.Schema {
    public static let scrollTo = OwnerChange.Schema("scroll_to", [.init("offset", .number)])
}

extension StickyStackedCards {
    /// The owner's changes the sticky cards take.
    public static let ownerChanges: [OwnerChange.Schema] = [.scrollTo]

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        switch change.name {
        case "scroll_to": try scroll(to: try change.number("offset"))
        default: throw unsupported(change)
        }
    }
}

extension Screen {
    /// Scrolls the sticky stack `name` to `offset`, clamped (S6).
    public func scroll(to offset: Double, of name: String) throws {
        try change(.scrollTo(offset), of: name)
    }
}
