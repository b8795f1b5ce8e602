/// What the generic layers know of a wallet: its kind's name and the changes its owner makes
/// (`selection`, the height it is given, the items), applied, recorded and replayed as
/// `OwnerChange`s.
extension ComponentKind {
    public static let walletCardStack = ComponentKind("wallet_card_stack")
}

extension OwnerChange {
    /// The owner set a wallet's `selection` binding; nil clears it (W6, W11).
    public static func select(_ selection: String?) -> OwnerChange {
        OwnerChange("select", [Field("selection", selection.map { .string($0) } ?? .null)])
    }

    /// The owner gave a wallet a new height (W1).
    public static func setHeight(_ height: Double) -> OwnerChange {
        OwnerChange("set_height", [Field("height", .number(height))])
    }
}

extension OwnerChange.Schema {
    public static let select = OwnerChange.Schema("select", [.init("selection", .optionalString)])
    public static let setHeight = OwnerChange.Schema("set_height", [.init("height", .nonNegative)])
}

extension WalletCardStack {
    /// The owner's changes a wallet takes.
    public static let ownerChanges: [OwnerChange.Schema] = [.setItems, .select, .setHeight]

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        switch change.name {
        case "set_items": try setCards(try change.cards("items"))
        case "select": setSelection(try change.optionalString("selection"), in: settings)
        case "set_height": try setHeight(try change.number("height"))
        default: throw unsupported(change)
        }
    }
}

extension Screen {
    /// Sets the `selection` binding of the wallet `name` (W6, W11).
    public func select(_ selection: String?, of name: String) throws {
        try change(.select(selection), of: name)
    }

    /// Gives the wallet `name` a new height (W1).
    public func setHeight(_ height: Double, of name: String) throws {
        try change(.setHeight(height), of: name)
    }
}
