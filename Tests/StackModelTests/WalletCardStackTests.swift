import Testing

@testable import StackModel

/// The stack sits at (20, 100), 350 wide; cards 200 high, peek 64, pile 76 (the seed's defaults).
private let origin = Point(x: 20, y: 100)

private func makeWallet(
    count: Int = 4, height: Double = 600, pileHeight: Double = 76, selection: String? = nil,
    settings: ScreenSettings = ScreenSettings()
) throws -> (Screen, WalletCardStack) {
    let screen = try Screen(settings: settings)
    let wallet = try WalletCardStack(
        name: "wallet", cards: makeCards(count, height: 50), selection: selection, pileHeight: pileHeight,
        origin: origin, width: 350, height: height)
    try screen.add(wallet)
    return (screen, wallet)
}

/// Every card's top on screen, in the cards' order.
private func tops(_ screen: Screen) -> [Double] {
    screen.snapshot(of: "wallet")!.cards.map(\.frame.y)
}

private func tapCard(_ id: String, _ screen: Screen, _ wallet: WalletCardStack) throws {
    let hit = try screen.tap(at: wallet.point(of: .card(id), in: screen.settings))
    #expect(hit?.target == "card:\(id)")
}

// MARK: W1 to W3: layout

@Test(
    "W1 the step is the peek, or tightens when the cards do not fit",
    arguments: [
        // (count, height, step): 4 cards in 600 have room 400 / 3 > 64; 6 cards in 400 have 200 / 5.
        (4, 600.0, 64.0), (6, 400.0, 40.0), (6, 520.0, 64.0), (1, 600.0, 0.0), (0, 600.0, 0.0),
    ])
func stepTightens(count: Int, height: Double, step: Double) throws {
    let (screen, _) = try makeWallet(count: count, height: height)
    let snapshot = screen.snapshot(of: "wallet")!
    #expect(snapshot.state("step") == .number(step))
    #expect(tops(screen) == (0..<count).map { origin.y + Double($0) * step })
    // W3: every card is cardHeight high whatever its own height, later cards over earlier ones.
    #expect(snapshot.cards.allSatisfy { $0.frame.height == 200 && $0.frame.width == 350 })
    #expect(snapshot.cards.map(\.z) == (0..<count).map { Double($0 + 1) })
}

@Test("W2 the selected card goes to the top and the others pile from height - pileHeight")
func selectedCardAndPile() throws {
    let (screen, wallet) = try makeWallet(count: 6)
    wallet.setSelection("c2", in: screen.settings)
    try screen.settle()
    // Five others: gap min(14, 76 / 5 = 15.2) = 14, from 600 - 76 = 524.
    #expect(tops(screen) == [524, 538, 0, 552, 566, 580].map { origin.y + $0 })
    let state = screen.snapshot(of: "wallet")!
    #expect(state.state("selection") == .string("c2"))
    #expect(state.state("selected_index") == .number(2))
}

@Test("W2 a low pile packs its cards closer than 14 pt")
func lowPile() throws {
    let (screen, wallet) = try makeWallet(count: 6, pileHeight: 40)
    wallet.setSelection("c0", in: screen.settings)
    try screen.settle()
    // Five others: gap min(14, 40 / 5) = 8, from 600 - 40 = 560.
    #expect(tops(screen) == [0, 560, 568, 576, 584, 592].map { origin.y + $0 })
}

// MARK: W4, W9: tap and Escape

@Test("W4 a tap on a card when none is selected selects it")
func tapSelects() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c1", screen, wallet)
    #expect(wallet.selection == "c1")
}

@Test("W4 a tap on a pile card while one is open closes it")
func tapOnPileCloses() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c0", screen, wallet)
    try screen.settle()
    try tapCard("c3", screen, wallet)
    #expect(wallet.selection == nil)
    try screen.settle()
    #expect(tops(screen) == [0, 64, 128, 192].map { origin.y + $0 })
}

@Test("W4 a tap on the open card closes it")
func tapOnOpenCardCloses() throws {
    let (screen, wallet) = try makeWallet(selection: "c2")
    try tapCard("c2", screen, wallet)
    #expect(wallet.selection == nil)
}

@Test("W4 a finger that comes up outside the card does not fire the button")
func releaseOutsideDoesNotFire() throws {
    let (screen, wallet) = try makeWallet()
    let start = try wallet.point(of: "card:c3", in: screen.settings)
    // c3 is the last card: 292 to 492 below the top; the finger leaves it downwards.
    try screen.drag(from: start, by: Point(x: 0, y: 300))
    #expect(wallet.selection == nil)
}

@Test("W9 Escape clears the selection, and says so")
func escapeCloses() throws {
    let (screen, wallet) = try makeWallet(selection: "c1")
    #expect(try screen.escape() == true)
    #expect(wallet.selection == nil)
    #expect(try screen.escape() == false)
    wallet.setSelection("c3", in: screen.settings)
    #expect(try screen.performAction("escape", on: "stack", of: "wallet") == true)
    #expect(wallet.selection == nil)
}

// MARK: W12: Dynamic Type

@Test("W12 at AX5 the peek is 64 × 53 / 17 before tightening")
func dynamicTypePeek() throws {
    let (screen, wallet) = try makeWallet(count: 3, height: 1000)
    screen.setDynamicTypeSize(.accessibility5)
    let peek = 64.0 * 53 / 17
    let snapshot = screen.snapshot(of: "wallet")!
    #expect(snapshot.state("peek") == .number(peek))
    // Room 800 / 2 = 400 > 199.5: the step is the scaled peek; the change does not animate.
    #expect(snapshot.state("step") == .number(peek))
    #expect(tops(screen) == [0, peek, 2 * peek].map { origin.y + $0 })
    #expect(screen.pendingAnimationEnd == nil)
    // Six cards in 600 have room 400 / 5 = 80 < 199.5: the step tightens.
    try wallet.setCards(makeCards(6, height: 10))
    try wallet.setHeight(600)
    #expect(screen.snapshot(of: "wallet")!.state("step") == .number(80))
}

// MARK: W6: the selection spring

@Test("W6 a selected card passes its target and comes back (overshoot)")
func selectionOvershoots() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c3", screen, wallet)
    // c3 travels from 192 to 0; c0 from 0 to the pile at 524.
    var lowestTop = Double.infinity
    var highestPile = -Double.infinity
    for _ in 0..<60 {
        try screen.advance(by: 1.0 / 60)
        let now = tops(screen)
        lowestTop = min(lowestTop, now[3] - origin.y)
        highestPile = max(highestPile, now[0] - origin.y)
    }
    #expect(lowestTop < -1)
    #expect(highestPile > 525)
    try screen.settle()
    #expect(tops(screen) == [524, 538, 552, 0].map { origin.y + $0 })
}

@Test("W6 the travel follows spring(0.5, 0.2) in closed form")
func selectionFollowsSpring() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c3", screen, wallet)
    try screen.advance(by: 0.1)
    let expected = Spring.walletSelection.state(from: 192, to: 0, velocity: 0, after: 0.1).value
    #expect(isClose(tops(screen)[3] - origin.y, expected))
}

@Test("G3 W6 closing mid-spring starts from where the cards show, keeping their speed")
func interruptedSelection() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c3", screen, wallet)
    try screen.advance(by: 0.1)
    let before = tops(screen)
    let speed = wallet.travel[ByteKey("c3")]!.velocity(at: screen.now)
    #expect(try screen.escape())
    #expect(tops(screen) == before)
    // c3 now heads back to 192: its travel starts at its on-screen distance from there.
    let from = before[3] - origin.y
    let expected = Spring.walletSelection.state(from: from, to: 192, velocity: speed, after: 0.05).value
    try screen.advance(by: 0.05)
    #expect(isClose(tops(screen)[3] - origin.y, expected))
    try screen.settle()
    #expect(tops(screen) == [0, 64, 128, 192].map { origin.y + $0 })
}

@Test("G2 W6 with Reduce Motion the cards change places with no frame between")
func reduceMotionJumps() throws {
    let (screen, wallet) = try makeWallet(settings: ScreenSettings(reduceMotion: true))
    try tapCard("c3", screen, wallet)
    #expect(tops(screen) == [524, 538, 552, 0].map { origin.y + $0 })
    #expect(screen.snapshot(of: "wallet")!.part("detail")?.opacity == 1)
    #expect(screen.pendingAnimationEnd == nil)
    try screen.advance(by: 0.05)
    #expect(tops(screen) == [524, 538, 552, 0].map { origin.y + $0 })
}

// MARK: W7: press

@Test("W7 a pressed card is drawn at 0.98 until the touch ends")
func pressScale() throws {
    let (screen, wallet) = try makeWallet()
    let point = try wallet.point(of: "card:c1", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: point)
    try screen.advance(by: 0.075)
    let halfway = screen.snapshot(of: "wallet")!.card("c1")!.scale
    #expect(halfway < 1 && halfway > 0.98)
    try screen.advance(by: 0.075)
    let pressed = screen.snapshot(of: "wallet")!.card("c1")!
    #expect(pressed.scale == 0.98)
    // Anchored at the centre: 350 × 0.98 = 343 wide, 3.5 in from each side.
    #expect(isClose(pressed.frame.x, origin.x + 3.5))
    #expect(isClose(pressed.frame.width, 343))
    #expect(isClose(pressed.frame.y, origin.y + 64 + 2))
    #expect(screen.snapshot(of: "wallet")!.card("c0")!.scale == 1)
    try screen.touchUp(touch)
    try screen.advance(by: 0.15)
    #expect(screen.snapshot(of: "wallet")!.card("c1")!.scale == 1)
    #expect(wallet.selection == "c1")
}

// MARK: W5: details

@Test("W5 the details show below the open card and fade in and out")
func detailFrame() throws {
    let (screen, wallet) = try makeWallet()
    #expect(screen.snapshot(of: "wallet")!.part("detail") == nil)
    try tapCard("c0", screen, wallet)
    try screen.advance(by: 0.05)
    let fading = screen.snapshot(of: "wallet")!.part("detail")!
    #expect(fading.opacity > 0 && fading.opacity < 1)
    try screen.settle()
    let detail = screen.snapshot(of: "wallet")!.part("detail")!
    // cardHeight + 16 below the top; 600 - 200 - 76 - 32 = 292 high.
    #expect(detail.frame == Rect(x: origin.x, y: origin.y + 216, width: 350, height: 292))
    #expect(detail.opacity == 1)
    #expect(screen.hitTest(Point(x: 100, y: origin.y + 300))?.target == "detail")
    #expect(try screen.escape())
    try screen.advance(by: 0.05)
    #expect(screen.snapshot(of: "wallet")!.part("detail")?.isHittable == false)
    try screen.settle()
    #expect(screen.snapshot(of: "wallet")!.part("detail") == nil)
}

@Test("W5 a stack too low for details gives them no height")
func detailWithNoRoom() throws {
    let (screen, _) = try makeWallet(height: 250, selection: "c0")
    #expect(screen.snapshot(of: "wallet")!.part("detail")?.frame.height == 0)
}

// MARK: W8: the mask

@Test("W8 a pile card below the bottom edge is not visible but still hittable")
func maskedPile() throws {
    // No pile room: every other card's top is at the bottom edge, 600, so all of it is cut.
    let (screen, _) = try makeWallet(pileHeight: 0, selection: "c0")
    let snapshot = screen.snapshot(of: "wallet")!
    #expect(snapshot.cards.map(\.isVisible) == [true, false, false, false])
    #expect(snapshot.cards.allSatisfy { $0.isHittable })
    // `.mask` does not change hit testing: the top-most of the pile still takes the touch.
    #expect(screen.hitTest(Point(x: 200, y: origin.y + 700))?.target == "card:c3")
}

@Test("W8 a card above the top within the 40 pt shadow room stays visible")
func maskLeavesShadowRoom() throws {
    let (screen, wallet) = try makeWallet()
    try tapCard("c3", screen, wallet)
    // Sample the overshoot: c3 rises above the stack's top by less than 40 pt, so it shows.
    try screen.advance(by: 0.3)
    let card = screen.snapshot(of: "wallet")!.card("c3")!
    #expect(card.isVisible)
}

// MARK: W10: VoiceOver

@Test("W10 with none selected each card activates in the middle of what shows of it")
func activationPointsInStack() throws {
    let (screen, _) = try makeWallet()
    let elements = screen.accessibilityElements().map(\.element)
    #expect(elements.map(\.id) == ["card:c0", "card:c1", "card:c2", "card:c3"])
    #expect(elements.map(\.label) == ["Card 0", "Card 1", "Card 2", "Card 3"])
    // Step 64: the middle of the 64 pt that shows; the last card shows whole (192 + 100).
    #expect(elements.map(\.activationPoint.y) == [32, 96, 160, 292].map { origin.y + $0 })
    #expect(elements.allSatisfy { $0.activationPoint.x == origin.x + 175 })
    #expect(elements.allSatisfy { $0.traits == [.button] && $0.hint == "Shows its details" })
}

@Test("W10 the selected card comes first with its trait and hint, the others are hidden")
func selectedCardForVoiceOver() throws {
    let (screen, wallet) = try makeWallet(selection: "c2")
    let all = wallet.accessibilityElements(in: screen.settings)
    #expect(all.map(\.isHidden) == [true, true, false, true])
    #expect(all.map(\.sortPriority) == [0, 0, 1, 0])
    let read = screen.accessibilityElements().map(\.element)
    #expect(read.map(\.id) == ["card:c2"])
    #expect(read[0].traits == [.button, .selected])
    #expect(read[0].hint == "Returns to the stack")
    // It shows whole: activated at its centre.
    #expect(read[0].activationPoint == Point(x: origin.x + 175, y: origin.y + 100))
    #expect(throws: StackModelError("'card:c1' is hidden from VoiceOver")) {
        try screen.performAction("activate", on: "card:c1", of: "wallet")
    }
}

@Test("W10 a card with no height activates at its centre")
func activationWithNoHeight() throws {
    let screen = try Screen()
    let wallet = try WalletCardStack(
        cards: makeCards(2, height: 1), cardHeight: 0, origin: origin, height: 100)
    try screen.add(wallet)
    let element = wallet.accessibilityElements(in: screen.settings)[0]
    #expect(element.activationPoint == Point(x: origin.x + 175, y: origin.y))
}

@Test("G6 activating a card through VoiceOver leads to the same state as a finger tap")
func activateMatchesTap() throws {
    let (fingerScreen, finger) = try makeWallet()
    let (voiceOverScreen, _) = try makeWallet()
    try tapCard("c2", fingerScreen, finger)
    #expect(try voiceOverScreen.performAction("activate", on: "card:c2", of: "wallet"))
    #expect(fingerScreen.snapshot() == voiceOverScreen.snapshot())
    try fingerScreen.settle()
    try voiceOverScreen.settle()
    #expect(fingerScreen.snapshot() == voiceOverScreen.snapshot())
    // And back: the open card's activation closes it, as a tap on it does.
    try tapCard("c2", fingerScreen, finger)
    try voiceOverScreen.performAction("activate", on: "card:c2", of: "wallet")
    #expect(fingerScreen.snapshot() == voiceOverScreen.snapshot())
}

@Test("W9 G6 named actions other than escape fail with a clear message")
func unknownActions() throws {
    let (screen, _) = try makeWallet()
    #expect(throws: StackModelError("'card:c0' of wallet has no action 'Clear' (it has: activate, escape)")) {
        try screen.performAction("Clear", on: "card:c0", of: "wallet")
    }
    #expect(throws: StackModelError("wallet has no card 'zz' (cards: c0, c1, c2, c3)")) {
        try screen.performAction("escape", on: "card:zz", of: "wallet")
    }
}

// MARK: W11

@Test("W11 a selection that names no card counts as none")
func unknownSelection() throws {
    let (screen, wallet) = try makeWallet(selection: "zz")
    let snapshot = screen.snapshot(of: "wallet")!
    #expect(snapshot.state("selection") == .string("zz"))
    #expect(snapshot.state("selected_index") == StateValue.none)
    #expect(tops(screen) == [0, 64, 128, 192].map { origin.y + $0 })
    #expect(snapshot.part("detail") == nil)
    #expect(screen.accessibilityElements().count == 4)
    // The seed's button sets `selection = selection == nil ? id : nil`: the first tap clears.
    try tapCard("c1", screen, wallet)
    #expect(wallet.selection == nil)
    try tapCard("c1", screen, wallet)
    #expect(wallet.selection == "c1")
}

// MARK: Arguments

@Test("W1 arguments that cannot be laid out are refused, naming the argument")
func invalidArguments() {
    #expect(throws: StackModelError("cardHeight must be a finite number ≥ 0, got -1")) {
        try WalletCardStack(cards: [], cardHeight: -1)
    }
    #expect(throws: StackModelError("peek must be a finite number, got nan")) {
        try WalletCardStack(cards: [], peek: .nan)
    }
    #expect(throws: StackModelError("height must be a finite number ≥ 0, got inf")) {
        try WalletCardStack(cards: [], height: .infinity)
    }
    #expect(throws: StackModelError("card id 'a' is given twice")) {
        try WalletCardStack(cards: [CardSpec(id: "a", height: 1), CardSpec(id: "a", height: 1)])
    }
}
