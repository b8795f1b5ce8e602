import Testing

@testable import StackModel

/// Each gesture gate says what it decided and why, with the model's own numbers
/// (``GestureVerdict``): the screen reports it when a finger comes up.
struct GestureVerdictTests {
    /// A screen with `component` on it and every verdict it reports.
    private func watched(_ component: any Component, _ settings: ScreenSettings = ScreenSettings()) throws
        -> (Screen, () -> [GestureVerdict])
    {
        let screen = try Screen(settings: settings)
        try screen.add(component)
        final class Box { var verdicts: [GestureVerdict] = [] }
        let box = Box()
        screen.onVerdict = { box.verdicts.append($0) }
        return (screen, { box.verdicts })
    }

    private func stack(expanded: Bool = true) throws -> NotificationStack {
        try NotificationStack(
            cards: ["messages", "calendar", "mail"].map { CardSpec(id: $0, height: 70) },
            isExpanded: expanded,
            isDismissible: true, origin: Point(x: 16, y: 0), width: 358)
    }

    private func centre(of id: String, _ component: any Component, on screen: Screen) -> Point {
        let frame = component.cardSnapshots(in: screen.settings).first { $0.id == id }!.frame
        return Point(x: frame.midX, y: frame.midY)
    }

    @Test func `N13 a swipe short of 110 pt towards leading springs back, and says the rule in rtl terms`()
        throws
    {
        let stack = try stack()
        let (screen, verdicts) = try watched(stack, ScreenSettings(layoutDirection: .rightToLeft))
        try screen.drag(from: centre(of: "calendar", stack, on: screen), by: Point(x: -66.6, y: 0))
        let verdict = try #require(verdicts().last)
        #expect(!verdict.isAccepted && verdict.card == "calendar" && verdict.component == stack.name)
        #expect(
            verdict.explanation
                == "moved 'calendar' 66.6 pt towards trailing; a notification card leaves only past "
                + "\(formatNumber(NotificationStack.swipeThreshold)) pt towards leading (rtl: x > 110)")
    }

    @Test func `N13 past the threshold the card leaves, and the verdict says so`() throws {
        let stack = try stack()
        let (screen, verdicts) = try watched(stack)
        try screen.drag(from: centre(of: "mail", stack, on: screen), by: Point(x: -120, y: 0))
        #expect(verdicts().last?.isAccepted == true)
        #expect(
            verdicts().last?.explanation
                == "moved 'mail' 120 pt towards leading, past 110 pt: the card leaves")
        #expect(stack.dismissed == ["mail"])
    }

    @Test func `G5 a tap held past 0.75 s opens nothing, and names the limit`() throws {
        let stack = try stack(expanded: false)
        let (screen, verdicts) = try watched(stack)
        try screen.tap(at: Point(x: 195, y: 30), duration: 0.9)
        #expect(!stack.isExpanded)
        #expect(
            verdicts().last?.explanation
                == "stayed down 0.9 s, past a tap's 0.75 s limit: the pile stays closed")
    }

    @Test func `N10 a drag under the minimum distance starts no swipe`() throws {
        let stack = try stack()
        let (screen, verdicts) = try watched(stack)
        try screen.drag(from: centre(of: "calendar", stack, on: screen), by: Point(x: -15, y: 0))
        #expect(
            verdicts().last?.explanation
                == "moved 'calendar' 15 pt, less than a swipe's 20 pt minimum distance: no swipe started")
    }

    @Test func `S6 a scroll under the pan threshold does not move the cards`() throws {
        let sticky = try StickyStackedCards(cards: (0..<8).map { CardSpec(id: "c\($0)", height: 200) })
        let (screen, verdicts) = try watched(sticky)
        try screen.drag(from: Point(x: 195, y: 400), by: Point(x: 0, y: -8))
        #expect(sticky.scrollOffset == 0)
        #expect(
            verdicts().last?.explanation
                == "moved 8 pt, under the scroll view's 10 pt pan threshold: the cards did not scroll")
    }

    @Test func `W4 a press lifted outside its card does not fire, and a mirrored script reads its own x`()
        throws
    {
        let wallet = try WalletCardStack(
            cards: ["amex", "visa"].map { CardSpec(id: $0, height: 200) }, origin: Point(x: 20, y: 0))
        let (screen, verdicts) = try watched(wallet)
        try screen.drag(from: centre(of: "visa", wallet, on: screen), by: Point(x: 0, y: -300))
        let verdict = try #require(verdicts().last)
        #expect(!verdict.isAccepted && wallet.selection == nil)
        #expect(
            verdict.explanation.hasPrefix(
                "pressed 'visa' and was held past the card's edge: it lifted at 195, "))
        #expect(verdict.explanation.contains("outside the card (x 20...370, "))
        // The same gesture on a mirrored screen: the script's x (390 - x) in its words.
        screen.isMirrored = true
        try screen.drag(from: Point(x: 100, y: 164), by: Point(x: 0, y: -300))
        let mirrored = try #require(verdicts().last)
        #expect(
            mirrored.explanation.contains("it lifted at 290, ")
                && mirrored.explanation.contains("(x 20...370, "))
    }
}
