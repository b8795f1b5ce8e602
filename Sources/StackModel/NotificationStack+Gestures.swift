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
        let (decision, verdict) = decide(gesture, touch, in: settings)
        self.verdict = verdict
        switch decision {
        case .dismiss(let id): dismiss(id, in: settings)
        case .springBack(let id):
            setOffset(0, of: id, animation: settings.animation(.notificationSpringBack), at: settings.now)
        case .collapse: setExpanded(false, in: settings)
        case .expand: setExpanded(true, in: settings)
        case .nothing: break
        }
    }

    public func takeGestureVerdict() -> GestureVerdict? {
        defer { verdict = nil }
        return verdict
    }

    /// What a finger coming up does.
    enum Decision: Equatable {
        case dismiss(String)
        case springBack(String)
        case collapse, expand, nothing
    }

    /// The gate of a finger coming up: what it does (N6, N8, N13) and why, in one place.
    func decide(_ gesture: RowGesture, _ touch: Touch, in settings: ScreenSettings) -> (
        Decision, GestureVerdict
    ) {
        let card = gesture.target.cardID
        func verdict(_ accepted: Bool, _ why: String) -> GestureVerdict {
            GestureVerdict(component: name, card: card, isAccepted: accepted, explanation: why)
        }
        let distance = GestureVerdict.points(touch.maxDistance)
        // A swipe the stack disabled while the finger was down (it closed) sees no end: no
        // dismissal, no spring back, whether or not the finger moved since (docs/behaviours.md).
        if let id = card, gesture.isSwiping, isSwipeable, let row = row(id) {
            // N10, N11: towards the leading edge is towards negative offsets (x < 0 in ltr, x > 0 in rtl).
            let towardsLeading = settings.isRightToLeft ? touch.translation.x : -touch.translation.x
            let moved =
                "moved '\(id)' \(GestureVerdict.points(abs(towardsLeading))) pt towards "
                + (towardsLeading > 0 ? "leading" : "trailing")
            let threshold = GestureVerdict.points(Self.swipeThreshold)
            func rule(_ world: Mirror) -> String {
                "a notification card leaves only past \(threshold) pt towards leading ("
                    + (world.direction(settings.layoutDirection) == .rightToLeft
                        ? "rtl: x > \(threshold))" : "ltr: x < -\(threshold))")
            }
            // N13: strictly past the threshold leaves; anything else springs back.
            if row.offset.target < -Self.swipeThreshold
                || Mutant.n13Strict.isActive && row.offset.target == -Self.swipeThreshold
            {
                return (
                    Decision.dismiss(id), verdict(true, "\(moved), past \(threshold) pt: the card leaves")
                )
            }
            return (
                Decision.springBack(id),
                GestureVerdict(component: name, card: card, isAccepted: false, in: settings) {
                    "\(moved); \(rule($0))"
                }
            )
        }
        // A swipe that started, or a finger that moved too far for a tap on a stack that takes no
        // swipe: nothing happens (the tap underneath fails).
        if let id = card,
            gesture.drag.hasStarted
                || !isSwipeable && touch.maxDistance >= Self.swipeMinimumDistance && !touch.isTap
        {
            let why =
                !isDismissible
                ? "the stack has no onDismiss (dismissible = false), so its cards take no swipe"
                : !isOpen
                    ? "a swipe while the pile is closed: its cards swipe only once it is open (tap it first)"
                    : !gesture.isSwiping
                        ? "the pile closed while the finger was down, so the swipe saw no end"
                        : "the card left the stack while the finger was down"
            return (Decision.nothing, verdict(false, "moved '\(id)' \(distance) pt; \(why)"))
        }
        switch gesture.target {
        case "show_less":
            if ButtonTracking.fires(touch, in: showLessFrame(in: settings)) {
                return (Decision.collapse, verdict(true, "lifted inside 'Show less': the stack closes"))
            }
            return (
                Decision.nothing,
                GestureVerdict(component: name, card: card, isAccepted: false, in: settings) { world in
                    "lifted outside 'Show less' (at \(GestureVerdict.points(world.x(touch.location.x))), "
                        + "\(GestureVerdict.points(touch.location.y))): the button does not fire"
                }
            )
        case "header":
            return (Decision.nothing, verdict(false, "went down on the header, which takes no touch"))
        default:
            // A swipe that never started fails, so the stack's tap underneath fires (N6).
            if let refusal = touch.tapRefusal {
                if card == nil, !isOpen, touch.maxDistance >= Self.swipeMinimumDistance {
                    return (
                        Decision.nothing,
                        verdict(
                            false,
                            "moved \(distance) pt on the closed pile: a swipe while the pile is closed moves no "
                                + "card (its cards swipe only once it is open; tap it first), and a tap moves at most "
                                + "\(GestureVerdict.points(Touch.tapMaximumDistance)) pt")
                    )
                }
                if card == nil, !isOpen {
                    return (Decision.nothing, verdict(false, "\(refusal): the pile stays closed"))
                }
                let short =
                    card != nil && isSwipeable && touch.maxDistance < Self.swipeMinimumDistance
                    ? " and less than a swipe's \(GestureVerdict.points(Self.swipeMinimumDistance)) pt minimum distance"
                    : ""
                return (Decision.nothing, verdict(false, "\(refusal)\(short): no tap, no swipe"))
            }
            let tapFires = !Mutant.n6TapIgnored.isActive
            let tapped = card.map { "'\($0)'" } ?? "the pile"
            if card != nil, isSwipeable, touch.maxDistance > 0 {
                // Moved, but less than the swipe's minimum: the tap underneath fires.
                let note =
                    "moved \(tapped) \(distance) pt, less than a swipe's "
                    + "\(GestureVerdict.points(Self.swipeMinimumDistance)) pt minimum distance: no swipe started"
                return (tapFires ? Decision.expand : .nothing, verdict(false, note))
            }
            if !tapFires { return (Decision.nothing, verdict(false, "tapped \(tapped): nothing happens")) }
            return (
                Decision.expand,
                verdict(
                    true,
                    isExpanded ? "tapped \(tapped) of the open stack" : "tapped \(tapped): the pile opens")
            )
        }
    }
}
