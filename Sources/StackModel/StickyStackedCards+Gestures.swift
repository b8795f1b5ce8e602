/// Touches on a `StickyStackedCards`: the scroll view's pan (S6). The cards take no gestures of
/// their own, so a finger on a card pans the scroll view too.
extension StickyStackedCards {
    /// A finger went down on a card or the scroll view: it may become the pan, unless one runs.
    public func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {
        guard pan == nil else { return }
        pan = Pan(touch: touch.id, startOffset: scrollOffset)
    }

    /// Once the finger has moved `panMinimumDistance`, the content follows it:
    /// `offset = offset at touch-down - translation.y`, clamped to `0...maxOffset` (S6).
    ///
    /// Simplified: no rubber band past the ends and no deceleration after the finger lifts;
    /// `scroll(to:)` and a drag are the only ways the offset changes.
    public func touchMoved(_ touch: Touch, in settings: ScreenSettings) {
        guard var pan, pan.touch == touch.id else { return }
        if pan.drag.update(touch) {
            scrollOffset = clampOffset(pan.startOffset - touch.translation.y)
        }
        self.pan = pan
    }

    public func touchEnded(_ touch: Touch, in settings: ScreenSettings) {
        guard let ended = pan, ended.touch == touch.id else { return }
        pan = nil
        verdict = Self.verdict(of: ended, touch, name: name, offset: scrollOffset, maxOffset: maxOffset)
    }

    public func takeGestureVerdict() -> GestureVerdict? {
        defer { verdict = nil }
        return verdict
    }

    /// Why a pan did what it did (S6): under ``panMinimumDistance`` the content does not follow.
    static func verdict(of pan: Pan, _ touch: Touch, name: String, offset: Double, maxOffset: Double)
        -> GestureVerdict
    {
        let moved = GestureVerdict.points(touch.maxDistance)
        guard pan.drag.hasStarted else {
            return GestureVerdict(
                component: name, isAccepted: false,
                explanation:
                    "moved \(moved) pt, under the scroll view's \(GestureVerdict.points(panMinimumDistance)) pt "
                    + "pan threshold: the cards did not scroll")
        }
        let clamp =
            offset <= 0 || offset >= maxOffset
            ? " (the offset stays in 0...\(GestureVerdict.points(maxOffset)))" : ""
        return GestureVerdict(
            component: name, isAccepted: true,
            explanation: "scrolled from offset \(GestureVerdict.points(pan.startOffset)) to "
                + "\(GestureVerdict.points(offset))\(clamp)")
    }
}
