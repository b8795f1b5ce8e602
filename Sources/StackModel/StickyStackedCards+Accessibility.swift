/// What VoiceOver hears of a `StickyStackedCards`: each card with its label; the scroll view adds
/// nothing of its own.
extension StickyStackedCards {
    public func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        frames.elements(in: settings) { makeAccessibilityElements(in: settings) }
    }

    private func makeAccessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        zip(cards, cardSnapshots(in: settings)).map { card, snapshot in
            AccessibilityElement(
                id: ComponentTarget.card(card.id).name,
                label: Mutant.s7LabelChanged.isActive ? card.id : card.label,
                frame: snapshot.frame)
        }
    }

    /// The cards offer no named action: only VoiceOver's own `activate`, which the screen performs.
    public func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings)
        throws -> Bool
    {
        let id = ComponentTarget(element).bareName
        guard cards.contains(where: { $0.id.isSameBytes(id) }) else {
            throw unknownCardError(id, in: name, cards: cards)
        }
        throw StackModelError("card '\(id)' of \(name) has no action '\(action)' (it has: activate)")
    }
}
