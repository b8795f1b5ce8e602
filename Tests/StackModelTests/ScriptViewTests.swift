import Testing

@testable import StackModel

/// `ScriptView`: the one seam where a mirrored screen's inputs and readings turn around.
@Suite struct ScriptViewTests {
    /// A 390-wide screen in `world`'s direction with a dismissible stack at x 16, 300 wide.
    static func screen(mirrored: Bool, world: LayoutDirection = .leftToRight) throws -> (
        Screen, NotificationStack
    ) {
        let screen = try Screen(world: ScreenSettings(layoutDirection: world), mirrored: mirrored)
        let stack = try NotificationStack(
            cards: ["a", "b"].map { CardSpec(id: $0, height: 70) }, isExpanded: true, isDismissible: true,
            origin: Point(x: 16, y: 100), width: 300)
        try screen.add(stack)
        try screen.settle()
        return (screen, stack)
    }

    @Test func `a mirrored screen runs the other direction and the view reads the world's`() throws {
        let (screen, _) = try Self.screen(mirrored: true)
        #expect(screen.isMirrored)
        #expect(screen.settings.layoutDirection == .rightToLeft)
        #expect(ScriptView(screen).settings.layoutDirection == .leftToRight)
        let (plain, _) = try Self.screen(mirrored: false, world: .rightToLeft)
        #expect(!plain.isMirrored && plain.settings.layoutDirection == .rightToLeft)
    }

    @Test func `every reading is the mirror image of the screen's, and the world's own when unmirrored`()
        throws
    {
        let (screen, stack) = try Self.screen(mirrored: true)
        let view = ScriptView(screen)
        let mirror = Mirror(width: 390)
        let seen = stack.cardSnapshots(in: screen.settings)
        #expect(view.cards(of: stack) == seen.map(mirror.card))
        #expect(view.card("b", of: stack) == mirror.card(seen[1]))
        #expect(view.card("zz", of: stack) == nil)
        #expect(view.frame(of: stack) == mirror.rect(stack.snapshot(in: screen.settings).frame))
        #expect(
            view.part("header", of: stack)
                == stack.snapshot(in: screen.settings).part("header").map(mirror.part))
        #expect(view.snapshot() == mirror.frame(screen.snapshot()))
        #expect(
            view.accessibilityElements().map(\.element)
                == screen.accessibilityElements { $0.inScriptOrder() }.map { mirror.element($0.element) })
        #expect(
            view.accessibilityElements(of: stack)
                == stack.accessibilityElements(in: screen.settings).inScriptOrder().map(mirror.element))
        #expect(view.reading(Point(x: 10, y: 2)) == Point(x: 380, y: 2))
        let (plain, plainStack) = try Self.screen(mirrored: false)
        #expect(ScriptView(plain).cards(of: plainStack) == plainStack.cardSnapshots(in: plain.settings))
        #expect(ScriptView(plain).snapshot() == plain.snapshot())
    }

    @Test func `a gesture in the world is its mirror image on the screen, and lands on the same card`() throws
    {
        let (plain, plainStack) = try Self.screen(mirrored: false)
        let (screen, stack) = try Self.screen(mirrored: true)
        let world = ScriptView(plain).card("a", of: plainStack)!.frame.center
        #expect(ScriptView(screen).hitTest(world)?.part == .card("a"))
        #expect(ScriptView(plain).hitTest(world)?.part == .card("a"))
        // Swiping the card towards the world's leading edge dismisses it in both.
        try ScriptView(plain).drag(from: world, by: Point(x: -250, y: 0))
        try ScriptView(screen).drag(from: world, by: Point(x: -250, y: 0))
        try plain.settle()
        try screen.settle()
        #expect(plainStack.dismissed == ["a"])
        #expect(stack.dismissed == ["a"])
        // From a point the model gives (on the screen), only the translation turns around.
        let (other, otherStack) = try Self.screen(mirrored: true)
        let start = try otherStack.point(of: .card("b"), in: other.settings)
        try ScriptView(other).drag(fromScreenPoint: start, by: Point(x: -250, y: 0))
        try other.settle()
        #expect(otherStack.dismissed == ["b"])
    }

    @Test func `the fast path's move is the view's move`() throws {
        let (screen, _) = try Self.screen(mirrored: true)
        var events: [InputEvent] = []
        screen.onEvent = { events.append($0) }
        let (finger, _) = try ScriptView(screen).touchDown(at: Point(x: 30, y: 150))
        try ScriptView(screen).touchMove(finger, to: Point(x: 40, y: 151))
        try ScriptView.touchMove(finger, to: Point(x: 40, y: 151), on: screen)
        #expect(
            events.dropFirst() == [
                .touchMove(touch: finger, to: Point(x: 350, y: 151)),
                .touchMove(touch: finger, to: Point(x: 350, y: 151)),
            ])
    }

    @Test func `the direction given is the world's`() throws {
        let (screen, _) = try Self.screen(mirrored: true)
        ScriptView(screen).setLayoutDirection(.rightToLeft)
        #expect(screen.settings.layoutDirection == .leftToRight)
        #expect(ScriptView(screen).settings.layoutDirection == .rightToLeft)
        ScriptView(unmirrored: screen).setLayoutDirection(.rightToLeft)
        #expect(screen.settings.layoutDirection == .rightToLeft)
    }
}
