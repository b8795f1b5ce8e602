/// What VoiceOver hears of a `NotificationStack` (N15) and the actions it can perform (G6).
extension NotificationStack {
    /// `^[N notification](inflect: true)`: "1 notification", "4 notifications".
    static func countValue(_ count: Int) -> String {
        count == 1 ? "1 notification" : "\(count) notifications"
    }

    public func accessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        frames.elements(in: settings) { makeAccessibilityElements(in: settings) }
    }

    private func makeAccessibilityElements(in settings: ScreenSettings) -> [AccessibilityElement] {
        var elements: [AccessibilityElement] = []
        let snapshots = cardSnapshots(in: settings)
        if showsHeader {
            let header = headerFrame(in: settings)
            let button = showLessFrame(in: settings)
            let titleX = settings.isRightToLeft ? button.maxX : header.minX
            elements.append(
                AccessibilityElement(
                    id: "title", label: title, traits: [.staticText],
                    frame: Rect(
                        x: titleX, y: header.y, width: header.width - button.width, height: header.height)))
            elements.append(
                AccessibilityElement(id: "show_less", label: "Show less", traits: [.button], frame: button))
        }
        if !isOpen {
            // `.accessibilityElement(children: .combine)`: one button, labelled by the cards that
            // are not hidden (only the first), valued by the count, with the hint.
            let layout = layoutFrame(in: settings)
            elements.append(
                AccessibilityElement(
                    id: "stack", label: Mutant.n15LabelChanged.isActive ? title : cards.first?.label ?? "",
                    value: Self.countValue(cards.count),
                    hint: Self.closedHint,
                    traits: Mutant.n15TraitChanged.isActive ? [.staticText] : [.button], frame: layout))
        }
        for (card, snapshot) in zip(cards, snapshots) {
            // Closed, the first card is folded into the stack's element and the others are hidden.
            elements.append(
                AccessibilityElement(
                    id: ComponentTarget.card(card.id).name, label: card.label,
                    isHidden: !isOpen && !Mutant.n15HiddenShown.isActive,
                    actions: [Self.clearAction], frame: snapshot.frame))
        }
        return Mutant.n15OrderReversed.isActive ? elements.reversed() : elements
    }

    public func performAccessibilityAction(_ action: String, on element: String, in settings: ScreenSettings)
        throws -> Bool
    {
        let id = ComponentTarget(element).bareName
        guard cards.contains(where: { $0.id.isSameBytes(id) }) else {
            if element == "stack" || element == "show_less" || element == "title" {
                throw StackModelError("'\(element)' has no action '\(action)' (it has: activate)")
            }
            throw unknownCard(id)
        }
        guard action == Self.clearAction else {
            throw StackModelError(
                "card '\(id)' has no action '\(action)' (it has: activate, \(Self.clearAction))")
        }
        // N15: "Clear" dismisses only when the card could be swiped (N9).
        guard isSwipeable && isOpen || Mutant.n15ClearUngated.isActive else { return false }
        dismiss(id, in: settings)
        return true
    }
}

/// What the accessibility audit asks of a `NotificationStack`.
extension NotificationStack {
    /// The closed pile and "Show less" take taps (N6, N12); an open card is swiped away only
    /// when the owner set `onDismiss` (N9).
    public func touchTargets(in settings: ScreenSettings) -> [TouchTarget] {
        var targets: [TouchTarget] = []
        if showsHeader { targets.append(TouchTarget("show_less")) }
        if !isOpen { targets.append(TouchTarget("stack")) }
        if isSwipeable { targets += cards.map { TouchTarget(.card($0.id), .drag) } }
        return targets
    }

    /// "Clear" dismisses only a card that could be swiped (N15): the seed offers the action on
    /// every card, `.accessibilityAction(named: "Clear") { if isSwipeable { onDismiss() } }`.
    public func wouldChange(performing action: String, on element: String, in settings: ScreenSettings)
        -> Bool?
    {
        guard action == Self.clearAction, ComponentTarget(element).cardID != nil else { return nil }
        return isSwipeable
    }
}
