import Testing

@testable import StackModel

/// `Mirror` (R3) and `Placement` (G1): the geometry `--mirror` turns around, and where a
/// component's `x` puts it in each direction.
@Suite struct MirrorTests {
    let mirror = Mirror(width: 390)

    @Test func `a point, a translation and a rectangle turn around the centre line, y untouched`() {
        #expect(mirror.point(Point(x: 10, y: 20)) == Point(x: 380, y: 20))
        #expect(mirror.point(Point(x: 195, y: 1)) == Point(x: 195, y: 1))
        #expect(mirror.translation(Point(x: -111, y: 5)) == Point(x: 111, y: 5))
        #expect(
            mirror.rect(Rect(x: 20, y: 3, width: 300, height: 40))
                == Rect(x: 70, y: 3, width: 300, height: 40))
        #expect(mirror.direction(.leftToRight) == .rightToLeft)
        #expect(mirror.direction(.rightToLeft) == .leftToRight)
    }

    @Test(arguments: [0.0, 1, 16, 195, 389.5, -40, 1e6])
    func `mirroring twice gives back what went in`(x: Double) {
        #expect(mirror.point(mirror.point(Point(x: x, y: 7))) == Point(x: x, y: 7))
        let rect = Rect(x: x, y: 0, width: 120, height: 10)
        #expect(abs(mirror.rect(mirror.rect(rect)).x - x) <= 1e-9 * max(1, abs(x)))
        #expect(mirror.translation(mirror.translation(Point(x: x, y: 0))) == Point(x: x, y: 0))
    }

    @Test func `no mirror changes nothing, and a screen is not mirrored until told`() throws {
        let none = Mirror.none
        #expect(!none.isOn)
        #expect(none.point(Point(x: 3, y: 4)) == Point(x: 3, y: 4))
        #expect(
            none.event(.touchDown(touch: 1, at: Point(x: 3, y: 4)))
                == .touchDown(touch: 1, at: Point(x: 3, y: 4)))
        let screen = try Screen()
        #expect(!screen.isMirrored && !screen.mirror.isOn)
        screen.isMirrored = true
        #expect(screen.mirror == Mirror(width: 390))
        try screen.setSize(Size(width: 320, height: 568))
        #expect(screen.mirror == Mirror(width: 320))
    }

    @Test func `events and frames: touches at mirrored points, the other direction, cards and parts`() {
        #expect(
            mirror.event(.touchMove(touch: 2, to: Point(x: 90, y: 1)))
                == .touchMove(touch: 2, to: Point(x: 300, y: 1)))
        #expect(mirror.event(.setLayoutDirection(.rightToLeft)) == .setLayoutDirection(.leftToRight))
        #expect(mirror.event(.advance(seconds: 1)) == .advance(seconds: 1))
        let card = CardSnapshot(
            id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 10), scale: 1, opacity: 1, z: 1,
            isVisible: true,
            isHittable: true)
        let part = PartSnapshot(
            name: "header", frame: Rect(x: 10, y: 0, width: 50, height: 44), opacity: 1, isHittable: true)
        let frame = FrameSnapshot(
            settings: ScreenSettings(),
            components: [
                ComponentSnapshot(
                    kind: .walletCardStack, name: "w", frame: Rect(x: 0, y: 0, width: 100, height: 100),
                    cards: [card],
                    parts: [part])
            ])
        let mirrored = mirror.frame(frame)
        #expect(mirrored.settings.layoutDirection == .rightToLeft)
        #expect(mirrored.components[0].frame.x == 290)
        #expect(mirrored.components[0].cards[0].frame.x == 290)
        #expect(mirrored.components[0].parts[0].frame.x == 330)
    }

    @Test func `G1 x is the distance from the leading edge: from the left in ltr, from the right in rtl`()
        throws
    {
        let screen = try Screen(settings: ScreenSettings(layoutDirection: .rightToLeft))
        let wallet = try WalletCardStack(
            cards: makeCards(2, height: 200), origin: Point(x: 20, y: 0), width: 300)
        try screen.add(wallet)
        #expect(screen.snapshot().components[0].frame.x == 390 - 20 - 300)
        #expect(wallet.cardSnapshots(in: screen.settings).map(\.frame.x) == [70, 70])
        #expect(screen.hitTest(Point(x: 75, y: 10)) != nil)
        #expect(screen.hitTest(Point(x: 25, y: 10)) == nil)
        // It follows the direction and the screen's width as they change.
        screen.setLayoutDirection(.leftToRight)
        #expect(screen.snapshot().components[0].frame.x == 20)
        screen.setLayoutDirection(.rightToLeft)
        try screen.setSize(Size(width: 500, height: 844))
        #expect(screen.snapshot().components[0].frame.x == 500 - 20 - 300)
    }

    @Test
    func
        `G1 N8 a centred stack stays put; an off-centre one is its own mirror image, Show less on the trailing edge`()
        throws
    {
        func frames(_ direction: LayoutDirection, x: Double, width: Double) throws -> ComponentSnapshot {
            let screen = try Screen(settings: ScreenSettings(layoutDirection: direction))
            try screen.add(
                NotificationStack(
                    cards: makeCards(3, height: 70), isExpanded: true, origin: Point(x: x, y: 0), width: width
                ))
            return screen.snapshot().components[0]
        }
        let centred = (
            try frames(.leftToRight, x: 16, width: 358), try frames(.rightToLeft, x: 16, width: 358)
        )
        #expect(centred.0.frame == centred.1.frame && centred.0.cards == centred.1.cards)
        #expect(
            centred.0.part("show_less")?.frame.x == 16 + 358 - 72
                && centred.1.part("show_less")?.frame.x == 16)
        let ltr = try frames(.leftToRight, x: 10, width: 300)
        let rtl = try frames(.rightToLeft, x: 10, width: 300)
        #expect(Mirror(width: 390).component(rtl) == ltr)
        #expect(rtl.part("show_less")?.frame.x == 80)
    }
}
