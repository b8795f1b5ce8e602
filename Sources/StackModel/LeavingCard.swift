/// A card its owner removed inside an animated transaction, on its way out (G8, N17).
///
/// SwiftUI keeps a removed view on screen while its transition runs: the seeds' rows carry the
/// default transition, `.opacity`, so the card fades from the opacity it had to 0 with the
/// transaction's animation, where it was when it was removed, while the cards that stay move to
/// their new places. It is no longer one of the component's cards: not in `ids()`, not hit-tested,
/// not read by VoiceOver; frames, traces and pictures show it, with its opacity, until the
/// transition has finished.
struct LeavingCard: Sendable, Equatable {
    /// The card as it was on screen at the moment it was removed; its x is kept from the
    /// component's left edge, so that it stays with the component if the screen changes size.
    var last: CardSnapshot
    /// `last.frame.x` minus the component's left edge then.
    var dx: Double
    /// The component's width then, and whether the layout was right to left (a new direction
    /// mirrors the card within the component, as everything else in it).
    var width: Double
    var wasRightToLeft: Bool
    /// The transition's opacity: 1 at removal, animating to 0.
    var transition: AnimatedValue

    /// Starts the removal transition of `card` (its snapshot at `now`) with `animation`; nil when
    /// there is no animation (Reduce Motion, or a change no animation is attached to): the card
    /// goes at once.
    init?(
        _ card: CardSnapshot, left: Double, width: Double, in settings: ScreenSettings, animation: Animation?
    ) {
        guard let animation, !Mutant.n17RemovalAtOnce.isActive else { return nil }
        last = card
        dx = card.frame.x - left
        self.width = width
        wasRightToLeft = settings.isRightToLeft
        transition = AnimatedValue(1)
        transition.set(0, animation: animation, at: settings.now)
    }

    /// Whether it still shows at `time`: its transition has not finished.
    func isPresent(at time: Double) -> Bool { transition.isAnimating(at: time) }

    /// The card at `settings.now`: its last frame (placed from the component's left edge `left`),
    /// its last opacity times the transition's, never hittable.
    func snapshot(left: Double, in settings: ScreenSettings) -> CardSnapshot {
        var card = last
        let dx = settings.isRightToLeft == wasRightToLeft ? dx : width - dx - last.frame.width
        card.frame.x = left + dx
        card.opacity = last.opacity * clampUnit(transition.value(at: settings.now))
        card.isVisible = last.isVisible && card.opacity > 0
        card.isHittable = false
        return card
    }
}
