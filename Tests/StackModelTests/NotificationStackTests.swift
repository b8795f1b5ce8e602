import Testing

@testable import StackModel

@Suite("NotificationStack")
struct NotificationStackTests {
    typealias F = NotificationFixture

    // MARK: Layout

    @Test("N1 N2 N3 N4 N5 closed: tops line bottoms up peek apart, scaled at the bottom, three show")
    func closedLayout() throws {
        let f = try F()
        // Closed tops: front + peek * min(i, 2) - height = 0, 10, 20, 20; height 70 + 10 * 2 = 90.
        #expect(f.snapshot.frame == Rect(x: 16, y: 100, width: 358, height: 90))
        #expect(f.card("messages").frame == Rect(x: 16, y: 100, width: 358, height: 70))
        // Calendar: layout top 110, scale 0.94 anchored at its bottom edge (180):
        // height 65.8, top 180 - 65.8 = 114.2, width 336.52, x 16 + 358 * 0.03 = 26.74.
        let calendar = f.card("calendar")
        #expect(calendar.scale == 1 - 0.06)
        #expect(abs(calendar.frame.y - 114.2) < 1e-9)
        #expect(abs(calendar.frame.maxY - 180) < 1e-9)
        #expect(abs(calendar.frame.x - 26.74) < 1e-9)
        #expect(abs(calendar.frame.width - 336.52) < 1e-9)
        // Mail and fitness: depth capped at 2, scale 0.88, bottoms at 100 + 20 + 70 = 190.
        #expect(f.card("mail").scale == 1 - 0.06 * 2)
        #expect(f.card("fitness").scale == 1 - 0.06 * 2)
        #expect(abs(f.card("fitness").frame.maxY - 190) < 1e-9)
        #expect(f.snapshot.cards.map(\.opacity) == [1, 1, 1, 0])
        #expect(f.snapshot.cards.map(\.isVisible) == [true, true, true, false])
        #expect(f.snapshot.cards.map(\.z) == [4, 3, 2, 1])
        #expect(f.snapshot.state("open") == .bool(false))
        #expect(f.snapshot.state("progress") == .number(0))
    }

    @Test("N2 N8 open: a column spacing apart under the header")
    func openLayout() throws {
        let f = try F(expanded: true)
        // Header 44 + spacing 10 = 54 above the cards; tops 0, 80, 160, 240; column 4 * 70 + 30 = 310.
        #expect(f.snapshot.frame == Rect(x: 16, y: 100, width: 358, height: 54 + 310))
        #expect(f.snapshot.cards.map(\.frame.y) == [154, 234, 314, 394])
        #expect(f.snapshot.cards.map(\.scale) == [1, 1, 1, 1])
        #expect(f.snapshot.cards.map(\.opacity) == [1, 1, 1, 1])
        #expect(f.snapshot.part("header")?.frame == Rect(x: 16, y: 100, width: 358, height: 44))
        #expect(f.snapshot.part("show_less")?.frame == Rect(x: 16 + 358 - 72, y: 100, width: 72, height: 44))
        #expect(f.snapshot.part("show_less")!.frame.height >= 44)
    }

    @Test("N1 fewer than two cards is open without being expanded, and shows no header")
    func oneCardIsOpen() throws {
        let f = try F(count: 1)
        #expect(f.stack.isOpen)
        #expect(!f.stack.isExpanded)
        #expect(f.snapshot.state("progress") == .number(1))
        #expect(f.snapshot.part("header") == nil)
        #expect(f.snapshot.cards[0].isHittable)
        let empty = try F(count: 0)
        #expect(empty.stack.isOpen)
        #expect(empty.snapshot.frame.height == 0)
        #expect(empty.snapshot.cards.isEmpty)
    }

    @Test("N16 a card taller than the first shows over it while closed")
    func tallerCard() throws {
        let f = try F(heights: [70, 100])
        // Closed top of the second: 70 + 10 - 100 = -20, above the first's top.
        #expect(f.card("calendar").frame.maxY == 100 + 80)
        #expect(f.card("calendar").frame.minY < f.card("messages").frame.minY)
    }

    // MARK: Opening and closing

    @Test("N6 N7 G1 a tap on the closed pile opens it, with progress strictly between 0 and 1 on the way")
    func tapOpens() throws {
        let f = try F()
        let hit = try f.screen.tap(at: Point(x: 100, y: 150))
        #expect(hit?.target == "stack")
        #expect(f.stack.isExpanded)
        // G1: the clock has not moved, so nothing has moved yet.
        #expect(f.progress == 0)
        var between = 0
        for _ in 0..<20 {
            try f.screen.advance(by: 0.02)
            if f.progress > 0 && f.progress < 1 { between += 1 }
        }
        #expect(between > 5)
        try f.screen.settle()
        #expect(f.progress == 1)
        #expect(f.stack.progress.animation == .spring(Spring(duration: 0.45, bounce: 0.2)))
    }

    @Test("N7 G2 with Reduce Motion the pile opens at once: no sample between 0 and 1")
    func reduceMotionOpensAtOnce() throws {
        let f = try F(reduceMotion: true)
        try f.screen.tap(at: Point(x: 100, y: 150))
        #expect(f.progress == 1)
        for _ in 0..<20 {
            try f.screen.advance(by: 0.02)
            #expect(f.progress == 1)
        }
        #expect(f.screen.pendingAnimationEnd == nil)
    }

    @Test("N6 closed, cards ignore touches: a finger on a card lands on the stack")
    func closedCardsIgnoreTouches() throws {
        let f = try F()
        let noneHittable = f.snapshot.cards.allSatisfy { !$0.isHittable }
        #expect(noneHittable)
        #expect(f.screen.hitTest(f.card("messages").frame.center)?.target == "stack")
        // Open, the same point lands on the card, and a tap there changes nothing.
        let open = try F(expanded: true)
        #expect(open.screen.hitTest(open.card("calendar").frame.center)?.target == "card:calendar")
        try open.screen.tap(at: open.card("calendar").frame.center)
        #expect(open.stack.isExpanded)
    }

    @Test("G3 an expand interrupted by a collapse mid-way starts from the value and velocity on screen")
    func interruptedExpand() throws {
        let f = try F()
        try f.screen.tap(at: Point(x: 100, y: 150))
        try f.screen.advance(by: 0.1)
        let value = f.progress
        let velocity = f.stack.progress.velocity(at: f.screen.now)
        #expect(value > 0 && value < 1 && velocity > 0)
        try f.screen.tap(at: try f.stack.point(of: "show_less", in: f.screen.settings))
        #expect(!f.stack.isExpanded)
        #expect(f.progress == value)
        #expect(abs(f.stack.progress.velocity(at: f.screen.now) - velocity) < 1e-9)
        try f.screen.advance(by: 0.005)
        #expect(f.progress > value)  // still going up: it kept its velocity
        try f.screen.settle()
        #expect(f.progress == 0)
    }

    @Test("N8 'Show less' collapses, and the header fades in and out")
    func showLess() throws {
        let f = try F()
        try f.screen.tap(at: Point(x: 100, y: 150))
        try f.screen.advance(by: 0.05)
        let opacity = f.snapshot.part("header")!.opacity
        #expect(opacity > 0 && opacity < 1)
        try f.screen.settle()
        let hit = try f.screen.tap(at: try f.stack.point(of: "show_less", in: f.screen.settings))
        #expect(hit?.target == "show_less")
        #expect(!f.stack.isExpanded)
        try f.screen.advance(by: 0.05)
        #expect(f.snapshot.part("header")!.isHittable == false)
        try f.screen.settle()
        #expect(f.snapshot.part("header") == nil)
        #expect(f.progress == 0)
    }

    @Test("N8 a tap on the header's title does nothing")
    func titleTapDoesNothing() throws {
        let f = try F(expanded: true)
        #expect(try f.screen.tap(at: Point(x: 40, y: 120))?.target == "header")
        #expect(f.stack.isExpanded)
    }

    // MARK: Swipes

    @Test("N10 G5 a drag of 19 pt changes nothing")
    func underMinimumDistance() throws {
        let f = try F(expanded: true)
        let before = f.snapshot
        try f.swipe("calendar", by: -19)
        #expect(f.snapshot == before)
        #expect(f.stack.row("calendar")!.offset.target == 0)
    }

    @Test("N10 G5 the offset is the whole translation from touch-down once past 20 pt")
    func translationFromTouchDown() throws {
        let f = try F(expanded: true)
        let start = try f.stack.point(of: "calendar", in: f.screen.settings)
        let (touch, _) = try f.screen.touchDown(at: start)
        try f.screen.touchMove(touch, to: Point(x: start.x - 19, y: start.y))
        #expect(f.card("calendar").frame.x == 16)
        try f.screen.touchMove(touch, to: Point(x: start.x - 30, y: start.y))
        #expect(f.card("calendar").frame.x == 16 - 30)
        // After it started it keeps following, even back under 20 pt, and never past 0.
        try f.screen.touchMove(touch, to: Point(x: start.x - 5, y: start.y))
        #expect(f.card("calendar").frame.x == 16 - 5)
        try f.screen.touchMove(touch, to: Point(x: start.x + 50, y: start.y))
        #expect(f.card("calendar").frame.x == 16)
        try f.screen.touchUp(touch)
    }

    @Test("N12 a swiped card fades: 1 - min(|offset| / 275, 0.6)")
    func fade() throws {
        let f = try F(expanded: true)
        let start = try f.stack.point(of: "calendar", in: f.screen.settings)
        let (touch, _) = try f.screen.touchDown(at: start)
        try f.screen.touchMove(touch, to: Point(x: start.x - 55, y: start.y))
        #expect(abs(f.card("calendar").opacity - (1 - 55.0 / 275)) < 1e-12)
        try f.screen.touchMove(touch, to: Point(x: start.x - 200, y: start.y))
        #expect(abs(f.card("calendar").opacity - 0.4) < 1e-12)
        try f.screen.touchUp(touch)
    }

    @Test("N13 an end offset of exactly -110 springs back")
    func exactlyThresholdSpringsBack() throws {
        let f = try F(expanded: true)
        try f.swipe("calendar", by: -110)
        #expect(f.ids == F.ids)
        #expect(f.stack.row("calendar")!.offset.animation == .spring(Spring(duration: 0.35, bounce: 0.25)))
        #expect(f.card("calendar").frame.x == 16 - 110)
        // The spring overshoots past 0, then rests there.
        var passed = false
        for _ in 0..<60 {
            try f.screen.advance(by: 0.01)
            if f.card("calendar").frame.x > 16 { passed = true }
        }
        #expect(passed)
        try f.screen.settle()
        #expect(f.card("calendar").frame.x == 16)
        #expect(f.card("calendar").opacity == 1)
    }

    @Test("N13 an end offset of -110.5 dismisses and the owner removes the card")
    func pastThresholdDismisses() throws {
        let f = try F(expanded: true)
        try f.swipe("calendar", by: -110.5)
        #expect(f.ids == ["messages", "mail", "fitness"])
        #expect(f.stack.dismissed == ["calendar"])
        #expect(f.snapshot.card("calendar") == nil)
    }

    @Test("N9 a closed pile cannot be swiped")
    func closedCannotSwipe() throws {
        let f = try F()
        try f.screen.drag(from: Point(x: 200, y: 130), by: Point(x: -200, y: 0))
        #expect(f.ids == F.ids)
        #expect(!f.stack.isExpanded)  // a drag is not a tap either
    }

    @Test("N9 a stack without onDismiss cannot be swiped, and Clear does nothing")
    func withoutOnDismiss() throws {
        let f = try F(expanded: true, dismissible: false)
        let before = f.card("calendar")
        try f.swipe("calendar", by: -200)
        #expect(f.ids == F.ids)
        #expect(f.card("calendar") == before)
        #expect(try f.screen.performAction("Clear", on: "card:calendar", of: "notifications") == false)
        #expect(f.ids == F.ids)
    }

    @Test("N11 R1 right to left: 120 pt to the right dismisses")
    func rtlRightDismisses() throws {
        let f = try F(expanded: true, direction: .rightToLeft)
        try f.swipe("calendar", by: 120)
        #expect(f.ids == ["messages", "mail", "fitness"])
    }

    @Test("N11 R1 right to left: 120 pt to the left springs back")
    func rtlLeftSpringsBack() throws {
        let f = try F(expanded: true, direction: .rightToLeft)
        try f.swipe("calendar", by: -120)
        #expect(f.ids == F.ids)
        #expect(f.card("calendar").frame.x == 16)  // never moved: the offset is clamped at 0
    }

    @Test("N11 right to left: the card moves right on screen while it follows the finger")
    func rtlMovesRight() throws {
        let f = try F(expanded: true, direction: .rightToLeft)
        let start = try f.stack.point(of: "calendar", in: f.screen.settings)
        let (touch, _) = try f.screen.touchDown(at: start)
        try f.screen.touchMove(touch, to: Point(x: start.x + 60, y: start.y))
        #expect(f.stack.row("calendar")!.offset.target == -60)
        #expect(f.card("calendar").frame.x == 16 + 60)
        try f.screen.touchUp(touch)
        #expect(f.ids == F.ids)
    }

    @Test("R1 a left-to-right swipe left and a right-to-left swipe right end the same")
    func mirroredOutcome() throws {
        let ltr = try F(expanded: true)
        let rtl = try F(expanded: true, direction: .rightToLeft)
        try ltr.swipe("mail", by: -150)
        try rtl.swipe("mail", by: 150)
        try ltr.screen.settle()
        try rtl.screen.settle()
        #expect(ltr.ids == rtl.ids)
        #expect(ltr.snapshot.cards == rtl.snapshot.cards)
    }

    @Test("N14 after a dismissal the cards below move up with spring(0.4, 0.15)")
    func countChangeSpring() throws {
        let f = try F(expanded: true)
        let mailBefore = f.card("mail").frame.y
        try f.swipe("calendar", by: -150)
        #expect(f.card("mail").frame.y == mailBefore)  // where it was, then it moves
        #expect(f.stack.row("mail")!.shift.animation == .spring(Spring(duration: 0.4, bounce: 0.15)))
        var overshot = false
        for _ in 0..<60 {
            try f.screen.advance(by: 0.01)
            if f.card("mail").frame.y < mailBefore - 80 { overshot = true }
        }
        #expect(overshot)
        try f.screen.settle()
        #expect(f.card("mail").frame.y == mailBefore - 80)
    }

    @Test("N14 with Reduce Motion the others jump to their places")
    func countChangeReduceMotion() throws {
        let f = try F(expanded: true, reduceMotion: true)
        let mailBefore = f.card("mail").frame.y
        try f.swipe("calendar", by: -150)
        #expect(f.card("mail").frame.y == mailBefore - 80)
    }

    @Test("N14 N1 dismissing down to one card opens the pile and drops the header")
    func downToOne() throws {
        let f = try F(count: 2, expanded: true)
        try f.swipe("messages", by: -150)
        try f.screen.settle()
        #expect(f.ids == ["calendar"])
        #expect(f.snapshot.part("header") == nil)
        #expect(f.card("calendar").frame.y == 100)
    }

    // MARK: VoiceOver

    @Test("N15 closed: one button, value '4 notifications', hint 'Shows them all'")
    func closedAccessibility() throws {
        let f = try F()
        let elements = f.screen.accessibilityElements().map(\.element)
        #expect(elements.count == 1)
        let stack = try #require(elements.first)
        #expect(stack.id == "stack")
        #expect(stack.value == "4 notifications")
        #expect(stack.hint == "Shows them all")
        #expect(stack.traits == [.button])
        #expect(stack.label == "messages")
        let all = f.stack.accessibilityElements(in: f.screen.settings)
        let cardsHidden = all.filter { $0.id.hasPrefix("card:") }.allSatisfy { $0.isHidden }
        #expect(cardsHidden)
        #expect(NotificationStack.countValue(1) == "1 notification")
    }

    @Test("N15 open: each card its own element with a Clear action, after the header")
    func openAccessibility() throws {
        let f = try F(expanded: true)
        let ids = f.screen.accessibilityElements().map(\.element.id)
        #expect(ids == ["title", "show_less", "card:messages", "card:calendar", "card:mail", "card:fitness"])
        let card = f.screen.accessibilityElements()[3].element
        #expect(card.actions == ["Clear"])
        #expect(card.value.isEmpty && card.hint.isEmpty)
    }

    @Test("N15 G6 Clear dismisses only when a swipe could")
    func clearAction() throws {
        let closed = try F()
        #expect(try closed.screen.performAction("Clear", on: "card:mail", of: "notifications") == false)
        #expect(closed.ids == F.ids)
        let open = try F(expanded: true)
        #expect(try open.screen.performAction("Clear", on: "card:mail", of: "notifications"))
        #expect(open.ids == ["messages", "calendar", "fitness"])
        #expect(open.stack.dismissed == ["mail"])
        #expect(throws: StackModelError.self) {
            try open.screen.performAction("Clear", on: "card:nope", of: "notifications")
        }
        #expect(throws: StackModelError.self) {
            try open.screen.performAction("Archive", on: "card:messages", of: "notifications")
        }
    }

    @Test("G6 activating the closed stack opens it, as a tap does")
    func activateOpens() throws {
        let voiceOver = try F()
        let finger = try F()
        try voiceOver.screen.performAction("activate", on: "stack", of: "notifications")
        try finger.screen.tap(at: Point(x: 100, y: 150))
        try voiceOver.screen.settle()
        try finger.screen.settle()
        #expect(voiceOver.snapshot == finger.snapshot)
    }

    @Test("G6 Clear and a swipe past 110 lead to the same state")
    func clearEqualsSwipe() throws {
        let voiceOver = try F(expanded: true)
        let finger = try F(expanded: true)
        try voiceOver.screen.performAction("Clear", on: "card:calendar", of: "notifications")
        try finger.swipe("calendar", by: -150)
        try voiceOver.screen.settle()
        try finger.screen.settle()
        #expect(voiceOver.snapshot == finger.snapshot)
    }

    // MARK: Hit testing and the screen

    @Test("G4 a touch lands on the top-most view, using frames after offset and scale")
    func hitTesting() throws {
        let f = try F(expanded: true)
        #expect(f.screen.hitTest(Point(x: 20, y: 160))?.target == "card:messages")
        // Between two cards (the spacing) the stack's content shape takes it.
        #expect(f.screen.hitTest(Point(x: 20, y: 229))?.target == "stack")
        #expect(f.screen.hitTest(Point(x: 20, y: 99)) == nil)
        #expect(f.screen.hitTest(Point(x: 370, y: 120))?.target == "show_less")
        // A card swiped 100 pt to the left is hit where it is drawn now.
        let start = try f.stack.point(of: "messages", in: f.screen.settings)
        let (touch, _) = try f.screen.touchDown(at: start)
        try f.screen.touchMove(touch, to: Point(x: start.x - 100, y: start.y))
        #expect(f.screen.hitTest(Point(x: 360, y: 160))?.target == "stack")
        try f.screen.touchUp(touch)
    }

    @Test("G1 settings change at any moment; bad values are refused")
    func settingsChanges() throws {
        let f = try F(expanded: true)
        f.screen.setLayoutDirection(.rightToLeft)
        #expect(f.snapshot.part("show_less")?.frame.x == 16)
        f.screen.setDynamicTypeSize(.accessibility5)
        #expect(f.screen.settings.dynamicTypeSize == .accessibility5)
        #expect(throws: StackModelError.self) { try f.screen.advance(by: -1) }
        #expect(throws: StackModelError.self) { try f.screen.advance(by: .nan) }
        #expect(throws: StackModelError.self) { try f.screen.tap(at: Point(x: .infinity, y: 0)) }
        #expect(throws: StackModelError.self) {
            try NotificationStack(cards: [CardSpec(id: "a", height: -1)])
        }
        #expect(throws: StackModelError.self) {
            try NotificationStack(cards: [CardSpec(id: "a", height: 1), CardSpec(id: "a", height: 1)])
        }
    }
}
