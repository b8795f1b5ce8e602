import Testing

@testable import StackModel

/// G8 and N17: a card removed inside the count spring's transaction fades out where it was.
@Suite("Removal transitions")
struct RemovalTransitionTests {
    typealias F = NotificationFixture
    static let countSpring = Spring(duration: 0.4, bounce: 0.15)

    /// The open demo (4 cards, header) with "calendar" cleared by VoiceOver's "Clear" at t = 0.
    func clearedCalendar(reduceMotion: Bool = false) throws -> (F, before: ComponentSnapshot) {
        let f = try F(expanded: true, reduceMotion: reduceMotion)
        let before = f.snapshot
        #expect(try f.screen.performAction("Clear", on: "card:calendar", of: f.stack.name))
        return (f, before)
    }

    @Test("N17 G8 a dismissed card fades 1 -> 0 on the count spring at its last frame")
    func fadesOutOnTheCountSpring() throws {
        let (f, before) = try clearedCalendar()
        let last = try #require(before.card("calendar"))
        for time in [0.0, 0.05, 0.1, 0.2, 0.3] {
            if time > 0 { try f.screen.advance(by: time - f.screen.now) }
            let leaving = try #require(f.snapshot.leaving.first)
            #expect(f.snapshot.leaving.count == 1)
            #expect(leaving.id == "calendar")
            #expect(leaving.frame == last.frame)
            #expect(leaving.z == last.z)
            let expected = 1 - Self.countSpring.state(from: 0, to: 1, velocity: 0, after: time).value
            #expect(isClose(leaving.opacity, min(max(expected, 0), 1), tolerance: 1e-12))
            #expect(!leaving.isHittable)
            if time == 0.1 {
                // The inserted card's 0.5093799547329481 at 0.1 s, the other way round.
                #expect(isClose(leaving.opacity, 1 - 0.5093799547329481, tolerance: 1e-12))
            }
        }
        try f.screen.settle()
        #expect(f.snapshot.leaving.isEmpty)
    }

    @Test("N17 G8 the card is gone from ids(), hit testing and VoiceOver at once")
    func goneAtOnce() throws {
        let (f, before) = try clearedCalendar()
        let last = try #require(before.card("calendar"))
        #expect(f.ids == ["messages", "mail", "fitness"])
        #expect(f.snapshot.card("calendar") == nil)
        #expect(f.snapshot.state("count") == .number(3))
        // Where it still shows, a touch passes through it: mail (moving up from under it) or the stack.
        let hit = f.stack.hitTest(last.frame.center, in: f.screen.settings)
        #expect(hit != .card("calendar"))
        let elements = f.stack.accessibilityElements(in: f.screen.settings).map(\.id)
        #expect(!elements.contains("card:calendar"))
        #expect(throws: StackModelError.self) {
            _ = try f.stack.point(of: .card("calendar"), in: f.screen.settings)
        }
    }

    @Test("N17 N14 the others move as before while it leaves")
    func othersMoveAsBefore() throws {
        let (f, before) = try clearedCalendar()
        let mailBefore = try #require(before.card("mail")).frame.y
        #expect(f.card("mail").frame.y == mailBefore)
        try f.screen.advance(by: 0.1)
        let shift = Self.countSpring.state(from: 80, to: 0, velocity: 0, after: 0.1).value
        #expect(isClose(f.card("mail").frame.y, mailBefore - 80 + shift, tolerance: 1e-9))
        try f.screen.settle()
        #expect(f.card("mail").frame.y == mailBefore - 80)
    }

    @Test("N17 the stack's height moves to its new value with the count spring")
    func heightInterpolates() throws {
        let (f, before) = try clearedCalendar()
        // 54 of header and spacing, then 4 cards (310) -> 3 cards (230).
        #expect(before.frame.height == 364)
        #expect(f.snapshot.frame.height == 364)
        try f.screen.advance(by: 0.1)
        let left = Self.countSpring.state(from: 80, to: 0, velocity: 0, after: 0.1).value
        #expect(isClose(f.snapshot.frame.height, 284 + left, tolerance: 1e-9))
        #expect(isClose(f.snapshot.frame.height, 323.2496036213641, tolerance: 1e-9))
        // The rectangle that takes the stack's tap (N6) follows it.
        #expect(isClose(f.stack.layoutFrame(in: f.screen.settings).maxY, 100 + 284 + left, tolerance: 1e-9))
        try f.screen.settle()
        #expect(f.snapshot.frame.height == 284)
    }

    @Test("N17 a swiped card leaves at its offset, with the fade it had")
    func swipedCardKeepsItsOffsetAndFade() throws {
        let f = try F(expanded: true)
        try f.swipe("calendar", by: -150)
        #expect(f.stack.dismissed == ["calendar"])
        let leaving = try #require(f.snapshot.leaving.first)
        #expect(leaving.frame.x < 16 - 110)
        #expect(leaving.opacity < 1 && leaving.opacity > 0.4)
        try f.screen.advance(by: 0.1)
        let faded = f.snapshot.leaving[0]
        #expect(faded.frame == leaving.frame)
        #expect(isClose(faded.opacity, leaving.opacity * (1 - 0.5093799547329481), tolerance: 1e-12))
    }

    @Test("N17 an inserted card still fades in: 0.5093799547329481 at 0.1 s, and the height grows")
    func insertionUnchanged() throws {
        let f = try F(count: 3, expanded: true)
        let cards = f.stack.cards + [CardSpec(id: "fitness", height: 70)]
        try f.stack.setCards(cards, in: f.screen.settings)
        #expect(f.snapshot.frame.height == 54 + 230)
        try f.screen.advance(by: 0.1)
        #expect(isClose(f.card("fitness").opacity, 0.5093799547329481, tolerance: 1e-12))
        #expect(f.snapshot.leaving.isEmpty)
        #expect(f.snapshot.frame.height > 54 + 230 && f.snapshot.frame.height < 54 + 310)
    }

    @Test("N17 G2 with Reduce Motion the card goes, and the height changes, at once")
    func reduceMotionAtOnce() throws {
        let (f, _) = try clearedCalendar(reduceMotion: true)
        #expect(f.snapshot.leaving.isEmpty)
        #expect(f.snapshot.frame.height == 284)
        #expect(f.stack.animationEndTime == nil)
    }

    @Test("G8 a leaving card is drawn in the mirrored world as its mirror image")
    func mirrored() throws {
        let ltr = try F(expanded: true)
        let rtl = try F(expanded: true, direction: .rightToLeft)
        try ltr.swipe("mail", by: -150)
        try rtl.swipe("mail", by: 150)
        try ltr.screen.advance(by: 0.1)
        try rtl.screen.advance(by: 0.1)
        let a = try #require(ltr.snapshot.leaving.first)
        let b = try #require(rtl.snapshot.leaving.first)
        #expect(isClose(a.frame.x, 390 - b.frame.maxX, tolerance: 1e-9))
        #expect(a.opacity == b.opacity)
    }

    @Test("G8 W5 the wallet's details fade out with the selection and take no touch on the way")
    func walletDetailsFadeOut() throws {
        let screen = try Screen()
        let wallet = try WalletCardStack(
            cards: makeCards(4, height: 200), selection: "c1", origin: Point(x: 20, y: 0), width: 350,
            height: 700)
        try screen.add(wallet)
        wallet.setSelection(nil, in: screen.settings)
        try screen.advance(by: 0.1)
        let detail = try #require(wallet.snapshot(in: screen.settings).part("detail"))
        #expect(detail.opacity > 0 && detail.opacity < 1)
        #expect(!detail.isHittable)
        try screen.settle()
        #expect(wallet.snapshot(in: screen.settings).part("detail") == nil)
    }
}

extension RemovalTransitionTests {
    @Test("N17 a replacement that keeps the count carries no animation: the card goes at once")
    func sameCountReplacementIsImmediate() throws {
        let f = try F(expanded: true)
        var cards = f.stack.cards
        cards[1] = CardSpec(id: "news", height: 70)
        try f.stack.setCards(cards, in: f.screen.settings)
        #expect(f.snapshot.leaving.isEmpty)
        #expect(f.card("news").opacity == 1)
        #expect(f.snapshot.frame.height == 364)
    }
}
