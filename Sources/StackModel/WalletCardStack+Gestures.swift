/// Touches on a `WalletCardStack`: each card is a `Button` with the seed's press style (W4, W7).
extension WalletCardStack {
    /// A finger went down on a card: the press style scales it to 0.98 with ease-out 0.15 s (W7).
    /// The press style's animation does not look at Reduce Motion, so it runs either way.
    public func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {
        guard let id = target.cardID else { return }
        setPress(Press(card: id, isInside: true), of: touch.id)
        updatePress(of: id, at: settings.now)
    }

    /// The card is pressed while the finger is where lifting it would fire the button (W7, as a
    /// `UIControl` loses its highlight when the touch exits its bounds and gets it back when the
    /// touch enters again): it lets go when the finger leaves the card's frame and is pressed
    /// again when it comes back (docs/behaviours.md, W7).
    public func touchMoved(_ touch: Touch, in settings: ScreenSettings) {
        guard var press = presses[touch.id] else { return }
        let frame = cardSnapshots(in: settings).first { $0.id.isSameBytes(press.card) }?.frame
        let isInside = frame.map { ButtonTracking.fires(touch, in: $0) } ?? false
        guard isInside != press.isInside else { return }
        press.isInside = isInside
        setPress(press, of: touch.id)
        updatePress(of: press.card, at: settings.now)
    }

    /// The button fires when the finger comes up inside the card's frame on screen (`ButtonTracking`).
    /// W4: it selects the card when none is selected, and clears the selection when one is, whatever
    /// card was tapped (the seed's `selection = selection == nil ? item.id : nil`).
    public func touchEnded(_ touch: Touch, in settings: ScreenSettings) {
        guard let id = presses[touch.id]?.card else { return }
        setPress(nil, of: touch.id)
        let frame = cardSnapshots(in: settings).first { $0.id.isSameBytes(id) }?.frame
        updatePress(of: id, at: settings.now)
        guard let frame, ButtonTracking.fires(touch, in: frame) else {
            verdict = GestureVerdict(component: name, card: id, isAccepted: false, in: settings) { world in
                guard let frame = frame.map(world.rect) else {
                    return "pressed '\(id)', which was gone when the finger came up: the button does not fire"
                }
                let at =
                    "\(GestureVerdict.points(world.x(touch.location.x))), \(GestureVerdict.points(touch.location.y))"
                return
                    "pressed '\(id)' and was held past the card's edge: it lifted at \(at), outside the card "
                    + "(x \(GestureVerdict.points(frame.x))...\(GestureVerdict.points(frame.maxX)), "
                    + "y \(GestureVerdict.points(frame.y))...\(GestureVerdict.points(frame.maxY))): "
                    + "the button does not fire"
            }
            return
        }
        let before = selection
        activate(id, in: settings)
        let selected = selection
        verdict = GestureVerdict(
            component: name, card: id, isAccepted: true,
            explanation: "pressed '\(id)' and lifted inside it: the button fires, "
                + (selected.map { "selecting '\($0)'" } ?? "clearing the selection ('\(before ?? "")')"))
    }

    public func takeGestureVerdict() -> GestureVerdict? {
        defer { verdict = nil }
        return verdict
    }

    /// The button's action (W4).
    func activate(_ id: String, in settings: ScreenSettings) {
        setSelection(selection == nil || Mutant.w4TapSelects.isActive ? id : nil, in: settings)
    }

    /// Scales a card to `pressedScale` while a finger that went down on it is inside it, and back
    /// to 1 (W7).
    private func updatePress(of id: String, at now: Double) {
        let isPressed = insidePresses[ByteKey(id)] != nil
        pressScale[ByteKey(id)]?.set(
            isPressed ? Self.pressedScale : 1, animation: Self.pressAnimation, at: now)
    }

    /// Sets or removes the press of finger `touch`, keeping ``insidePresses`` counted.
    func setPress(_ press: Press?, of touch: Int) {
        if let old = presses[touch], old.isInside { countInside(old.card, by: -1) }
        presses[touch] = press
        if let press, press.isInside { countInside(press.card, by: 1) }
    }

    private func countInside(_ card: String, by change: Int) {
        let count = (insidePresses[ByteKey(card)] ?? 0) + change
        insidePresses[ByteKey(card)] = count > 0 ? count : nil
    }

    /// W9: Escape clears the selection; false when there was none.
    public func escape(in settings: ScreenSettings) -> Bool {
        guard selection != nil, !Mutant.w9EscapeIgnored.isActive else { return false }
        setSelection(nil, in: settings)
        return true
    }
}
