/// Touches on a `NotificationStack`: the swipe on each card (N9 to N13), the tap that opens the
/// pile (N6) and the "Show less" button (N8).
extension NotificationStack {
    public func touchBegan(_ touch: Touch, on target: ComponentTarget, in settings: ScreenSettings) {
        gestures[touch.id] = RowGesture(target: target)
    }

    public func touchMoved(_ touch: Touch, in settings: ScreenSettings) {
        guard var gesture = gestures[touch.id], let id = gesture.target.cardID else { return }
        // `.gesture(swipe, isEnabled: isSwipeable)`: a disabled swipe does not see the touch.
        guard isSwipeable else {
            gesture.isSwiping = false
            gestures[touch.id] = gesture
            return
        }
        if gesture.drag.update(touch) {
            gesture.isSwiping = true
            // N10, N11: a gesture reports screen points; offsets are mirrored in right-to-left.
            let mirrored = settings.isRightToLeft && !Mutant.n10MirrorMissing.isActive
            let towardsLeading = mirrored ? -touch.translation.x : touch.translation.x
            setOffset(
                Mutant.n10LeadingUnclamped.isActive ? towardsLeading : min(towardsLeading, 0), of: id,
                animation: nil, at: settings.now)
        }
        gestures[touch.id] = gesture
    }

    public func touchEnded(_ touch: Touch, in settings: ScreenSettings) {
        guard let gesture = gestures.removeValue(forKey: touch.id) else { return }
        // A swipe the stack disabled while the finger was down (it closed) sees no end: no
        // dismissal, no spring back, whether or not the finger moved since (docs/behaviours.md).
        if let id = gesture.target.cardID, gesture.isSwiping, isSwipeable, let row = row(id) {
            // N13: strictly past the threshold leaves; anything else springs back.
            if row.offset.target < -Self.swipeThreshold
                || Mutant.n13Strict.isActive && row.offset.target == -Self.swipeThreshold
            {
                dismiss(id, in: settings)
            } else {
                setOffset(0, of: id, animation: settings.animation(.notificationSpringBack), at: settings.now)
            }
            return
        }
        switch gesture.target {
        case "show_less":
            if ButtonTracking.fires(touch, in: showLessFrame(in: settings)) {
                setExpanded(false, in: settings)
            }
        case "header":
            break
        default:
            // A swipe that never started fails, so the stack's tap underneath fires (N6).
            if touch.isTap, !gesture.drag.hasStarted, !Mutant.n6TapIgnored.isActive {
                setExpanded(true, in: settings)
            }
        }
    }
}
