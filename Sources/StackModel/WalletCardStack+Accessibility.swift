/// What VoiceOver hears of a `WalletCardStack` (W10) and the actions it can perform (W9, G6).
extension WalletCardStack {
    /// Each card is a button with its label. With none selected its activation point sits in the
    /// middle of the part of it that shows: `min(step, cardHeight)` for every card but the last.
    /// The selected card has the Selected trait, its own hint, and sort priority 1; the others are
    /// hidden while one is selected. Every card offers the stack's `escape` action.
    public func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        frames.elements(in: settings) { makeAccessibilityElements(in: settings) }
    }

    private func makeAccessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        let selected = selectedIndex
        let step = step(in: settings)
        let snapshots = cardSnapshots(in: settings)
        return zip(cards, snapshots).enumerated().map { index, pair in
            let (card, snapshot) = pair
            let isSelected = index == selected
            let shown = selected == nil && index < cards.count - 1 ? min(step, cardHeight) : cardHeight
            // `accessibilityActivationPoint(UnitPoint(x: 0.5, y: shown / cardHeight / 2))`.
            let unitY = cardHeight > 0 && !Mutant.w10ActivationCentred.isActive ? shown / cardHeight / 2 : 0.5
            let frame = snapshot.frame
            return AccessibilityElement(
                id: ComponentTarget.card(card.id).name, label: card.label,
                hint: isSelected != Mutant.w10HintSwapped.isActive ? Self.selectedHint : Self.stackedHint,
                traits: isSelected && !Mutant.w10TraitMissing.isActive ? [.button, .selected] : [.button],
                isHidden: selected != nil && !isSelected && !Mutant.w10HiddenShown.isActive,
                actions: [Self.escapeAction], frame: frame,
                activationPoint: Point(x: frame.midX, y: frame.minY + frame.height * unitY),
                sortPriority: isSelected && !Mutant.w10OrderChanged.isActive ? 1 : 0)
        }
    }

    /// `"escape"` on `"stack"` or on any card clears the selection (W9); it returns false when
    /// nothing was selected. Any other action throws.
    public func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings)
        throws -> Bool
    {
        if element != "stack" {
            let id = ComponentTarget(element).bareName
            guard cards.contains(where: { $0.id.isSameBytes(id) }) else {
                throw unknownCardError(id, in: name, cards: cards)
            }
        }
        guard action == Self.escapeAction else {
            let actions = element == "stack" ? Self.escapeAction : "activate, \(Self.escapeAction)"
            throw StackModelError("'\(element)' of \(name) has no action '\(action)' (it has: \(actions))")
        }
        return escape(in: settings)
    }
}

/// What the accessibility audit asks of a `WalletCardStack`.
extension WalletCardStack {
    /// Every card is a `Button` (W4), in the stack and in the pile alike.
    public func touchTargets(in settings: ScreenSettings) -> [TouchTarget] {
        cards.map { TouchTarget(.card($0.id)) }
    }
}
