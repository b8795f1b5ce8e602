import Testing

@testable import StackModel

/// The demo: five cards 348 high, spacing 20, top 12, peek 12, 3 peeking, padded 12 above, 40
/// below and 20 on each side (R5: cards 350 wide at x 20), in a scroll view at (0, 50), 390 wide
/// and 700 high.
///
/// Content tops 12, 380, 748, 1116, 1484; content 12 + 5 × 348 + 4 × 20 + 40 = 1872 high, so the
/// offset runs from 0 to 1872 - 700 = 1172. Pin lines 12, 24, 36, 48, 48. A card's travel is
/// 348 + 20 = 368.
private let viewportTop = 50.0

private func makeSticky(
    count: Int = 5, height: Double = 348, offset: Double = 0, settings: ScreenSettings = ScreenSettings()
) throws -> (Screen, StickyStackedCards) {
    let screen = try Screen(settings: settings)
    let sticky = try StickyStackedCards(
        name: "sticky", cards: makeCards(count, height: height), origin: Point(x: 0, y: viewportTop),
        width: 390,
        viewportHeight: 700, scrollOffset: offset)
    try screen.add(sticky)
    return (screen, sticky)
}

/// What each card should be at `offset`, worked out by hand from the seed's formulas.
private struct Expected {
    var pin: [Double]
    var scale: [Double]
}

private let contentTops = [12.0, 380, 748, 1116, 1484]
private let travel = 368.0

/// After one card's travel the card tops are -356, 12, 380, …: c0 is pushed 12 - (-356) = 368
/// down and shrinks by one step; c1 is pushed 12 to its pin at 24.
private let oneTravel = Expected(pin: [368, 12, 0, 0, 0], scale: [0.95, 1 - 12.0 / 368 * 0.05, 1, 1, 1])

private func check(_ screen: Screen, offset: Double, _ expected: Expected) {
    let cards = screen.snapshot(of: "sticky")!.cards
    for (index, card) in cards.enumerated() {
        let top = viewportTop + contentTops[index] - offset + expected.pin[index]
        let scale = expected.scale[index]
        #expect(isClose(card.scale, scale), "card \(index) scale")
        // Anchored at the top: the top edge stays, the sides come in.
        #expect(isClose(card.frame.y, top), "card \(index) top")
        #expect(isClose(card.frame.height, 348 * scale), "card \(index) height")
        #expect(isClose(card.frame.x, 20 + 350 * (1 - scale) / 2), "card \(index) x")
    }
}

@Test("S6 the content is as high as the insets, cards and gaps; the offset stops at its end")
func contentHeight() throws {
    let (screen, _) = try makeSticky()
    let snapshot = screen.snapshot(of: "sticky")!
    #expect(snapshot.state("content_height") == .number(1872))
    #expect(snapshot.state("max_offset") == .number(1172))
    #expect(snapshot.state("ids") == .strings(["c0", "c1", "c2", "c3", "c4"]))
}

@Test("S1 S2 S3 at offset 0 no card is pinned or shrunk")
func offsetZero() throws {
    let (screen, _) = try makeSticky()
    check(screen, offset: 0, Expected(pin: [0, 0, 0, 0, 0], scale: [1, 1, 1, 1, 1]))
}

@Test("S1 S2 S3 after one card's travel the first card is pinned and shrunk by one step")
func offsetOneTravel() throws {
    let (screen, sticky) = try makeSticky()
    try sticky.scroll(to: travel)
    check(screen, offset: travel, oneTravel)
}

@Test("S2 S3 S6 far past the end every card sits on its pin line, shrunk by its travel")
func offsetPastTheEnd() throws {
    let (screen, sticky) = try makeSticky()
    try sticky.scroll(to: 10_000)
    #expect(sticky.scrollOffset == 1172)
    // Card tops -1160, -792, -424, -56, 312; pins 12, 24, 36, 48, 48.
    let pins = [1172.0, 816, 460, 104, 0]
    check(screen, offset: 1172, Expected(pin: pins, scale: pins.map { 1 - $0 / 368 * 0.05 }))
}

@Test("S3 a card shrinks by at most 4 cards' worth of travel and never under 0.6")
func scaleFloor() throws {
    let screen = try Screen()
    let sticky = try StickyStackedCards(cards: makeCards(20, height: 100), viewportHeight: 700)
    try screen.add(sticky)
    try sticky.scroll(to: .greatestFiniteMagnitude)
    let scales = screen.snapshot(of: "sticky")!.cards.map(\.scale)
    #expect(scales.allSatisfy { $0 >= StickyStackedCards.minimumScale })
    // The first card has travelled far more than 4 × 120: 1 - 4 × 0.05.
    #expect(isClose(scales[0], 0.8))
}

@Test("S4 with Reduce Motion the cards still pin but do not shrink")
func reduceMotionKeepsPins() throws {
    let (screen, sticky) = try makeSticky(settings: ScreenSettings(reduceMotion: true))
    try sticky.scroll(to: 10_000)
    check(screen, offset: 1172, Expected(pin: [1172, 816, 460, 104, 0], scale: [1, 1, 1, 1, 1]))
}

@Test("S6 a drag past the end leaves the offset at its maximum; one past the start at 0")
func dragClamps() throws {
    let (screen, sticky) = try makeSticky()
    try screen.drag(from: Point(x: 195, y: 600), by: Point(x: 0, y: -5000))
    #expect(sticky.scrollOffset == 1172)
    try screen.drag(from: Point(x: 195, y: 200), by: Point(x: 0, y: 5000))
    #expect(sticky.scrollOffset == 0)
}

@Test("S6 the content follows the finger once it has moved 10 pt; a 5 pt drag does not scroll")
func dragThreshold() throws {
    let (screen, sticky) = try makeSticky(offset: 100)
    try screen.drag(from: Point(x: 195, y: 400), by: Point(x: 0, y: -5))
    #expect(sticky.scrollOffset == 100)
    try screen.drag(from: Point(x: 195, y: 400), by: Point(x: 0, y: -30))
    #expect(sticky.scrollOffset == 130)
    #expect(screen.snapshot(of: "sticky")!.state("scroll_offset") == .number(130))
}

@Test("S5 later cards are drawn over earlier ones and take the touch")
func laterCardsOnTop() throws {
    let (screen, sticky) = try makeSticky()
    try sticky.scroll(to: travel)
    let cards = screen.snapshot(of: "sticky")!.cards
    #expect(cards.map(\.z) == [0, 1, 2, 3, 4])
    // c0 spans 62 to 392.6, c1 74 to about 421: both under y = 200, c1 wins.
    #expect(screen.hitTest(Point(x: 195, y: 200))?.target == "card:c1")
    #expect(screen.hitTest(Point(x: 195, y: 65))?.target == "card:c0")
}

@Test("S6 between the cards a touch lands on the scroll view")
func scrollViewHit() throws {
    let (screen, _) = try makeSticky()
    // c0 ends at 50 + 12 + 348 = 410, c1 starts at 430.
    #expect(screen.hitTest(Point(x: 195, y: 420))?.target == "scroll")
    #expect(screen.hitTest(Point(x: 195, y: 760)) == nil)
}

@Test("S7 nothing animates: the cards follow the offset at once")
func nothingAnimates() throws {
    let (screen, sticky) = try makeSticky()
    try screen.drag(from: Point(x: 195, y: 600), by: Point(x: 0, y: -368))
    #expect(sticky.animationEndTime == nil)
    #expect(screen.pendingAnimationEnd == nil)
    check(screen, offset: travel, oneTravel)
}

@Test("S1 cards are visible while they meet the scroll view; VoiceOver reads each label")
func visibilityAndLabels() throws {
    let (screen, _) = try makeSticky()
    // c0 and c1 show; c2 starts at 50 + 748 = 798, below the 750 bottom.
    let cards = screen.snapshot(of: "sticky")!.cards
    #expect(cards.map(\.isVisible) == [true, true, false, false, false])
    let elements = screen.accessibilityElements().map(\.element)
    #expect(elements.map(\.label) == ["Card 0", "Card 1", "Card 2", "Card 3", "Card 4"])
    #expect(throws: StackModelError("card 'c0' of sticky has no action 'escape' (it has: activate)")) {
        try screen.performAction("escape", on: "card:c0", of: "sticky")
    }
}

@Test("S6 arguments that cannot be laid out are refused, naming the argument")
func stickyInvalidArguments() {
    #expect(throws: StackModelError("viewportHeight must be a finite number ≥ 0, got -1")) {
        try StickyStackedCards(cards: [], viewportHeight: -1)
    }
    #expect(throws: StackModelError("spacing must be a finite number, got nan")) {
        try StickyStackedCards(cards: [], spacing: .nan)
    }
}

@Test("S5 a finger for a card goes where it shows in the scroll view, clear of later cards")
func pointOfCard() throws {
    let (screen, sticky) = try makeSticky()
    // c1 spans 430 to 778, cut at the 750 bottom: its middle is 590.
    #expect(try sticky.point(of: "card:c1", in: screen.settings) == Point(x: 195, y: 590))
    // c0 spans 62 to 410, nothing over it.
    #expect(try sticky.point(of: "c0", in: screen.settings) == Point(x: 195, y: 236))
    #expect(throws: StackModelError("card 'c3' of sticky is scrolled out of sight")) {
        try sticky.point(of: "card:c3", in: screen.settings)
    }
}
