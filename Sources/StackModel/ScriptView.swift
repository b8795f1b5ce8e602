/// A screen as whoever drives it sees it (the Lua API, the explorer): the one seam where the
/// screen's ``Mirror`` is applied. On a mirrored screen (`stackplay --mirror`) every point,
/// translation and layout direction given goes through the mirror on the way in, and every frame,
/// point and setting read goes through it on the way out, so a caller writes and reads its own
/// world and never mirrors by hand. On a screen that is not mirrored the view changes nothing.
///
/// The mirror is taken across the screen's width at the moment of each call. Inputs that hold no
/// x (the clock, settings other than the direction, accessibility actions, owner changes) go to
/// ``screen`` as they are.
public struct ScriptView {
    public let screen: Screen
    /// How far left of its mirror image a point given lands on a mirrored screen (0: exactly on
    /// it). The explorer aims at edges, which hit testing treats half-open, so it keeps its
    /// touches a hair inside the edge's mirror image.
    public let nudge: Double
    private let followsMirror: Bool

    public init(_ screen: Screen, nudge: Double = 0) {
        self.screen = screen
        self.nudge = nudge
        followsMirror = true
    }

    /// The screen as it is, whether or not it is mirrored: for a caller that reads its points
    /// off the screen itself (the explorer's own run, which aims at the frames it sees).
    public init(unmirrored screen: Screen) {
        self.screen = screen
        nudge = 0
        followsMirror = false
    }

    public var mirror: Mirror { followsMirror ? screen.mirror : .none }

    /// A point given in the caller's world, on the screen.
    public func point(_ point: Point) -> Point {
        let mirror = mirror
        guard mirror.isOn, nudge != 0 else { return mirror.point(point) }
        return Point(x: mirror.x(point.x) - nudge, y: point.y)
    }

    // MARK: Inputs

    @discardableResult
    public func tap(at point: Point, duration: Double = 0) throws -> Hit? {
        try screen.tap(at: self.point(point), duration: duration)
    }

    @discardableResult
    public func touchDown(at point: Point) throws -> (touch: Int, hit: Hit?) {
        try screen.touchDown(at: self.point(point))
    }

    public func touchMove(_ id: Int, to point: Point) throws {
        try screen.touchMove(id, to: self.point(point))
    }

    /// `ScriptView(screen).touchMove(id, to: point)` without making the view: the Lua API's fast
    /// `touch_move` path, where making a view costs about 6% of a move (callgrind, `make bench`).
    public static func touchMove(_ id: Int, to point: Point, on screen: Screen) throws {
        try screen.touchMove(id, to: screen.mirror.point(point))
    }

    /// A drag from `start` by `translation`, both in the caller's world.
    @discardableResult
    public func drag(from start: Point, by translation: Point, steps: Int = 10, duration: Double = 0) throws
        -> Hit?
    {
        let mirror = mirror
        return try screen.drag(
            from: point(start), by: mirror.translation(translation), steps: steps, duration: duration)
    }

    /// A drag from `start`, a point on the screen as a component gives it (`point(of:)`), by a
    /// translation in the caller's world.
    @discardableResult
    public func drag(
        fromScreenPoint start: Point, by translation: Point, steps: Int = 10, duration: Double = 0
    )
        throws -> Hit?
    {
        try screen.drag(from: start, by: mirror.translation(translation), steps: steps, duration: duration)
    }

    public func hitTest(_ point: Point) -> Hit? { screen.hitTest(self.point(point)) }

    /// The caller's world's direction; a mirrored screen runs the other one.
    public func setLayoutDirection(_ direction: LayoutDirection) {
        screen.setLayoutDirection(mirror.direction(direction))
    }

    // MARK: Readings

    /// The settings in the caller's world: its layout direction.
    public var settings: ScreenSettings { mirror.settings(screen.settings) }

    /// Everything on screen now, every frame in the caller's world.
    public func snapshot() -> FrameSnapshot { mirror.frame(screen.snapshot()) }

    /// What VoiceOver reads, then what it is hidden from (``inScriptOrder()``), frames and
    /// activation points in the caller's world.
    public func accessibilityElements() -> [(component: String, element: AccessibilityElement)] {
        let mirror = mirror
        return screen.accessibilityElements { $0.inScriptOrder() }.map {
            ($0.component, mirror.element($0.element))
        }
    }

    /// A point on the screen (`point(of:)`), in the caller's world.
    public func reading(_ point: Point) -> Point { mirror.point(point) }

    /// `component`'s cards, frames in the caller's world.
    public func cards(of component: any Component) -> [CardSnapshot] {
        let mirror = mirror
        return component.cardSnapshots(in: screen.settings).map { mirror.card($0) }
    }

    /// `component`'s card `id`, its frame in the caller's world, or nil when it has none.
    public func card(_ id: String, of component: any Component) -> CardSnapshot? {
        guard let card = component.cardSnapshots(in: screen.settings).first(where: { $0.id.isSameBytes(id) })
        else {
            return nil
        }
        return mirror.card(card)
    }

    /// `component`'s cards on their way out (G8), frames in the caller's world.
    public func leaving(of component: any Component) -> [CardSnapshot] {
        let mirror = mirror
        return component.snapshot(in: screen.settings).leaving.map { mirror.card($0) }
    }

    /// `component`'s frame in the caller's world.
    public func frame(of component: any Component) -> Rect {
        mirror.rect(component.snapshot(in: screen.settings).frame)
    }

    /// `component`'s part `name`, if it shows, in the caller's world.
    public func part(_ name: String, of component: any Component) -> PartSnapshot? {
        guard let part = component.snapshot(in: screen.settings).part(name) else { return nil }
        return mirror.part(part)
    }

    /// `component`'s elements in VoiceOver's order, then its hidden ones (``inScriptOrder()``), in
    /// the caller's world.
    public func accessibilityElements(of component: any Component) -> [AccessibilityElement] {
        let mirror = mirror
        return component.accessibilityElements(in: screen.settings).inScriptOrder().map {
            mirror.element($0)
        }
    }
}

extension Screen {
    /// A screen for a caller whose world has `settings`: mirrored, it runs the other layout
    /// direction underneath and is seen through its ``Mirror`` (``isMirrored``).
    public convenience init(world settings: ScreenSettings, mirrored: Bool) throws {
        try self.init(settings: mirrored ? Mirror(width: settings.size.width).settings(settings) : settings)
        isMirrored = mirrored
    }
}
