/// What the generic layers know of the sticky cards: its kind's name and the program's scrolls
/// (`scrollTo(y:)`), applied, recorded and replayed as `OwnerChange`s.
extension ComponentKind {
    public static let stickyStackedCards = ComponentKind("sticky_stacked_cards")
}

extension StickyStackedCards {
    /// What the sticky cards are given when their owner says nothing (the seed's defaults): the
    /// model's initializer, the Lua factory and its definitions read them here.
    public enum Defaults {
        public static let name = "sticky"
        public static let spacing = 20.0
        public static let top = Mutant.number(12.0, (.s1TopUp, 20), (.s1TopDown, 4))
        public static let peek = Mutant.number(12.0, (.s1PeekUp, 20), (.s1PeekDown, 4))
        public static let maxPeeking = Mutant.number(3, (.s1MaxPeekingUp, 4), (.s1MaxPeekingDown, 2))
        public static let insetTop = 12.0
        public static let insetBottom = 40.0
        /// The demo pads the cards 20 on each side, inside the scroll view (R5).
        public static let insetHorizontal = 20.0
        public static let scrollOffset = 0.0
    }
}

extension OwnerChange {
    /// The program scrolled a sticky stack's scroll view to `offset`, clamped (S6).
    public static let scrollTo = OwnerChangeType<Double>("scroll_to", field: "offset")
}

extension StickyStackedCards {
    /// The owner's changes the sticky cards take, and what each does.
    public static let ownerChangeHandlers: [OwnerChangeHandler<StickyStackedCards>] = [
        .init(OwnerChange.scrollTo) { sticky, offset, _ in try sticky.scroll(to: offset) }
    ]

    public static let ownerChanges = ownerChangeHandlers.map(\.schema)

    /// The changes a screen of a new size makes (``ContainerFill``): not the owner's.
    public static let containerChangeHandlers: [OwnerChangeHandler<StickyStackedCards>] = [
        .init(OwnerChange.setWidth) { sticky, width, _ in try sticky.setWidth(width) },
        .init(OwnerChange.setHeight) { sticky, height, _ in try sticky.setViewportHeight(height) },
    ]

    public static let containerChanges = containerChangeHandlers.map(\.schema)

    public func apply(_ change: OwnerChange, in settings: ScreenSettings) throws {
        try OwnerChangeHandler.apply(
            change, to: self, by: Self.ownerChangeHandlers + Self.containerChangeHandlers, in: settings)
    }
}

extension Screen {
    /// Scrolls the sticky stack `name` to `offset`, clamped (S6).
    public func scroll(to offset: Double, of name: String) throws {
        try change(.scrollTo(offset), of: name)
    }
}
