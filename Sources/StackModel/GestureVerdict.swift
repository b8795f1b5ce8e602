/// What a component's gesture gate decided when a finger came up, and why, in the model's terms:
/// the swipe that sprang back because it did not pass 110 pt towards the leading edge, the tap
/// that moved past 45 pt, the press that lifted outside its card. The gate that decides returns it
/// (`NotificationStack.touchEnded`'s swipe and tap, `StickyStackedCards`' pan, `WalletCardStack`'s
/// button), so a failure report explains a gesture with the rule that decided it, never with a
/// second copy of the rules.
///
/// `explanation` is a predicate that follows the gesture's name in a report: "the drag at x.lua:6"
/// + " moved 'calendar' 66.6 pt towards trailing; a notification card leaves only past 110 pt
/// towards leading (rtl: x > 110)".
public struct GestureVerdict: Sendable, Equatable {
    /// The component the finger went down on.
    public var component: String
    /// The card it went down on, if any.
    public var card: String?
    /// Whether the gesture did what a gesture of its kind does (a card left, a button fired, the
    /// content scrolled); false when a rule refused it.
    public var isAccepted: Bool
    /// Why, as a predicate (see the type's documentation).
    public var explanation: String
    /// The explanation as a script that sees the screen through a ``Mirror`` reads it (its x and
    /// layout direction mirrored), when it differs; ``Screen`` reports it for a mirrored screen.
    public var mirroredExplanation: String?

    public init(component: String, card: String? = nil, isAccepted: Bool, explanation: String) {
        self.component = component
        self.card = card
        self.isAccepted = isAccepted
        self.explanation = explanation
    }

    /// A verdict whose explanation names x or the layout direction: `explain` words it in the
    /// world a mirror shows (``Mirror/none`` for the screen's own; `world.x`, `world.rect`,
    /// `world.direction` for the script's).
    public init(
        component: String, card: String? = nil, isAccepted: Bool, in settings: ScreenSettings,
        _ explain: (_ world: Mirror) -> String
    ) {
        self.init(component: component, card: card, isAccepted: isAccepted, explanation: explain(.none))
        mirroredExplanation = explain(Mirror(width: settings.size.width))
    }

    /// As the script sees it: mirrored for a screen seen through a mirror.
    func seen(mirrored: Bool) -> GestureVerdict {
        guard mirrored, let mirroredExplanation else { return self }
        var seen = self
        seen.explanation = mirroredExplanation
        return seen
    }

    /// A number as the explanation shows it: to 0.1 (`66.6`, `110`), the way a person reads a
    /// distance; the rules' own numbers are whole or exact in tenths.
    public static func points(_ value: Double) -> String {
        formatNumber((value * 10).rounded() / 10)
    }

    /// A time to 0.01 s (`0.75`, `0.9`).
    public static func seconds(_ value: Double) -> String {
        formatNumber((value * 100).rounded() / 100)
    }
}

extension Touch {
    /// Why this touch, ending now, is no tap (the limits ``isTap`` checks): "moved 52 pt, past a
    /// tap's 45 pt limit"; nil when it is a tap.
    public var tapRefusal: String? {
        guard !isTap else { return nil }
        let duration = time - startTime
        if !Self.withinTapLimit(maxDistance, Self.tapMaximumDistance) {
            return "moved \(GestureVerdict.points(maxDistance)) pt, past a tap's "
                + "\(GestureVerdict.points(Self.tapMaximumDistance)) pt limit"
        }
        return "stayed down \(GestureVerdict.seconds(duration)) s, past a tap's "
            + "\(GestureVerdict.seconds(Self.tapMaximumDuration)) s limit"
    }
}
