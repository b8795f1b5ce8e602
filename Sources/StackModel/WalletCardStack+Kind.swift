/// What the generic layers know of a wallet: its kind's name and the changes its owner makes
/// (`selection`, the height it is given, the items), applied, recorded and replayed as
/// `OwnerChange`s.
extension ComponentKind {
    public static let walletCardStack = ComponentKind("wallet_card_stack")
}

extension WalletCardStack {
    /// What a wallet is given when its owner says nothing (the seed's defaults): the model's
    /// initializer, the Lua factory and its definitions read them here.
    public enum Defaults {
        public static let name = "wallet"
        public static let cardHeight = Mutant.number(200.0, (.w3CardHeightUp, 220), (.w3CardHeightDown, 180))
        public static let peek = Mutant.number(64.0, (.w1PeekUp, 80), (.w1PeekDown, 48))
        public static let pileHeight = Mutant.number(76.0, (.w2PileHeightUp, 90), (.w2PileHeightDown, 60))
    }
}

extension OwnerChange {
    /// The owner set a wallet's `selection` binding; nil clears it (W6, W11).
    public static let select = OwnerChangeType<String?>("select", field: "selection")

    /// The owner gave a wallet a new height (W1).
    public static let setHeight = OwnerChangeType<Double>("set_height", field: "height", type: .nonNegative)
}

extension WalletCardStack {
    /// The owner's changes a wallet takes, and what each does.
    public static let ownerChangeHandlers: [OwnerChangeHandler<WalletCardStack>] = [
        .init(OwnerChange.setItems) { wallet, cards, _ in try wallet.setCards(cards) },
        .init(OwnerChange.select) { wallet, selection, settings in
            wallet.setSelection(selection, in: settings)
        },
        .init(OwnerChange.setHeight) { wallet, height, _ in try wallet.setHeight(height) },
    ]

    public static let ownerChanges = ownerChangeHandlers.map(\.schema)

    /// The changes a screen of a new size makes (``ContainerFill``): not the owner's, so the
    /// explorer does not draw them; traces read them.
    public static let containerChangeHandlers: [OwnerChangeHandler<WalletCardStack>] = [
        .init(OwnerChange.setWidth) { wallet, width, _ in try wallet.setWidth(width) }
    ]

    public static let containerChanges = containerChangeHandlers.map(\.schema)

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        try OwnerChangeHandler.apply(
            change, to: self, by: Self.ownerChangeHandlers + Self.containerChangeHandlers, in: settings)
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
