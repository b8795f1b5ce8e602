/// A screen (G1): its settings, a virtual clock that moves only when told, the components on it
/// (later ones over earlier ones), and the fingers on it.
///
/// Every input goes through a method here and is reported to `onEvent` after it took effect, so
/// that a trace can record it and a replay can feed it back.
public final class Screen {
    // The stored state every input and frame reads: `@exclusivity(unchecked)` skips the run-time
    // exclusivity checks (a sixth of a touch move, `make bench`); no access here overlaps another.
    @exclusivity(unchecked) public private(set) var settings: ScreenSettings
    @exclusivity(unchecked) public private(set) var components: [any Component] = []
    /// Fingers that are down, by id.
    @exclusivity(unchecked) public private(set) var touches = TouchMap<Touch>()
    @exclusivity(unchecked) private var touchOwners = TouchMap<Int>()
    @exclusivity(unchecked) private var nextTouchID = 1
    /// Called after each input took effect.
    @exclusivity(unchecked) public var onEvent: ((InputEvent) -> Void)?
    /// Called when a finger comes up on a component, with what its gesture gate decided and why
    /// (``GestureVerdict``), before the `touchUp` event is reported.
    public var onVerdict: ((GestureVerdict) -> Void)?
    /// Whether whoever drives this screen sees it through a ``Mirror`` (`stackplay --mirror`,
    /// `stackplay.screen { mirror = true }`): the script's world is the other layout direction,
    /// its x mirrored. The model itself never reads it; the Lua API and traces do.
    public var isMirrored = false
    /// The card ids whoever drives this screen gave as integers, by component name (a Lua
    /// script's `items = { 1, 2 }`): the model keeps every id as a string; the Lua API gives these
    /// back as integers, also in what a touch hit (`screen:tap()`'s `card`).
    public var integerCardIDs: [String: Set<String>] = [:]

    /// The most moves one drag helper makes. Swift code cannot be stopped by a script's CPU budget,
    /// so one call must stay short: 100,000 moves take a few milliseconds.
    public static let maximumDragSteps = 100_000

    /// How long `settle()` waits at most before it reports an animation that never rests.
    public static let defaultSettleLimit = 10.0

    public init(settings: ScreenSettings = ScreenSettings()) throws {
        try StackModelError.requireNonNegative(settings.size.width, "width")
        try StackModelError.requireNonNegative(settings.size.height, "height")
        try StackModelError.requireNonNegative(settings.now, "time")
        self.settings = settings
    }

    public var now: Double { settings.now }

    // MARK: Components

    /// Puts a component on the screen, over those already there.
    public func add(_ component: any Component) throws {
        guard self.component(named: component.name) == nil else {
            throw StackModelError("a component called '\(component.name)' is already on the screen")
        }
        // The component learns the screen's settings (a text size it lays out for, N18).
        component.settingsChanged(from: settings, to: settings)
        components.append(component)
        report(.add(component: component.name))
    }

    /// Checks the invariants (debug builds), then tells `onEvent` of an input that took effect.
    private func report(_ event: InputEvent) {
        checkInvariants(after: event)
        onEvent?(event)
    }

    public func component(named name: String) -> (any Component)? {
        components.first { $0.name.isSameBytes(name) }
    }

    // MARK: An owner's changes to a component

    /// Applies an owner's change to the component `name` (`setExpanded(_:of:)` and the like
    /// are spelled in each component's own files).
    public func change(_ change: OwnerChange, of name: String) throws {
        guard let component = component(named: name) else {
            throw StackModelError("no component called '\(name)' is on the screen")
        }
        try component.apply(change, in: settings)
        report(.change(component: name, change: change))
    }

    // MARK: Time

    /// Moves the clock forward by `seconds` (≥ 0).
    public func advance(by seconds: Double) throws {
        try StackModelError.requireNonNegative(seconds, "seconds")
        settings.now += seconds
        report(.advance(seconds: seconds))
    }

    /// The latest time at which a running animation finishes, if any is still running.
    public var pendingAnimationEnd: Double? {
        let end = components.compactMap(\.animationEndTime).max()
        guard let end, end > settings.now else { return nil }
        return end
    }

    /// Moves the clock until every animation has finished, at most `limit` seconds; returns how far
    /// it moved. An animation that would still run after `limit` is reported, and the clock does
    /// not move.
    @discardableResult
    public func settle(limit: Double = Screen.defaultSettleLimit) throws -> Double {
        try StackModelError.requireNonNegative(limit, "limit")
        guard let end = pendingAnimationEnd else { return 0 }
        let wait = end - settings.now
        guard wait <= limit else {
            let names = components.filter { ($0.animationEndTime ?? 0) > settings.now + limit }.map(\.name)
            throw StackModelError(
                "an animation of \(names.joined(separator: ", ")) did not settle within \(formatNumber(limit)) s"
            )
        }
        try advance(by: wait)
        return wait
    }

    // MARK: Settings

    private func change(_ event: InputEvent, _ update: (inout ScreenSettings) -> Void) {
        let old = settings
        update(&settings)
        for component in components { component.settingsChanged(from: old, to: settings) }
        report(event)
    }

    public func setReduceMotion(_ on: Bool) {
        change(.setReduceMotion(on)) { $0.reduceMotion = on }
    }

    public func setLayoutDirection(_ direction: LayoutDirection) {
        change(.setLayoutDirection(direction)) { $0.layoutDirection = direction }
    }

    public func setDynamicTypeSize(_ size: DynamicTypeSize) {
        change(.setDynamicTypeSize(size)) { $0.dynamicTypeSize = size }
    }

    public func setSize(_ size: Size) throws {
        try StackModelError.requireNonNegative(size.width, "width")
        try StackModelError.requireNonNegative(size.height, "height")
        change(.setSize(size)) { $0.size = size }
        // Components that fill the screen follow it (ContainerFill), each change an event.
        for component in components {
            for change in component.containerChanges(for: size) {
                try self.change(change, of: component.name)
            }
        }
    }

    // MARK: Seeing

    /// Everything on screen now.
    public func snapshot() -> FrameSnapshot {
        FrameSnapshot(settings: settings, components: components.map { $0.snapshot(in: settings) })
    }

    /// The top-most component part under `point` (G4): later components are over earlier ones.
    public func hitTest(_ point: Point) -> Hit? {
        for index in components.indices.reversed() {
            let component = components[index]
            if let target = component.hitTest(point, in: settings) {
                return Hit(componentIndex: index, componentName: component.name, part: target)
            }
        }
        return nil
    }

    /// `hitTest(_:)` for many points of this moment (the audit's cells), each component laid out once.
    func hitTester() -> (Point) -> Hit? {
        let testers = components.indices.reversed().map { index in
            (index, components[index].name, components[index].hitTester(in: settings))
        }
        return { point in
            for (index, name, test) in testers {
                if let target = test(point) {
                    return Hit(componentIndex: index, componentName: name, part: target)
                }
            }
            return nil
        }
    }

    /// What VoiceOver reads, component after component, each in its own order (hidden ones
    /// dropped).
    public func accessibilityElements() -> [(component: String, element: AccessibilityElement)] {
        accessibilityElements { $0.inVoiceOverOrder() }
    }

    /// Every component's elements, component after component, each component's in `order`.
    public func accessibilityElements(
        _ order: ([AccessibilityElement]) -> [AccessibilityElement]
    ) -> [(component: String, element: AccessibilityElement)] {
        components.flatMap { component in
            order(component.accessibilityElements(in: settings)).map { (component.name, $0) }
        }
    }

    // MARK: Touches

    /// A finger goes down at `point`; returns its id and what it landed on.
    @discardableResult
    public func touchDown(at point: Point) throws -> (touch: Int, hit: Hit?) {
        try StackModelError.requireFinite(point.x, "x")
        try StackModelError.requireFinite(point.y, "y")
        let id = nextTouchID
        nextTouchID += 1
        let touch = Touch(id: id, location: point, time: settings.now)
        touches[id] = touch
        let hit = hitTest(point)
        if let hit {
            touchOwners[id] = hit.componentIndex
            components[hit.componentIndex].touchBegan(touch, on: hit.part, in: settings)
        }
        report(.touchDown(touch: id, at: point))
        return (id, hit)
    }

    /// The finger `touch` moves to `point`.
    public func touchMove(_ id: Int, to point: Point) throws {
        try StackModelError.requireFinite(point.x, "x")
        try StackModelError.requireFinite(point.y, "y")
        guard var touch = touches[id] else { throw StackModelError("no finger with id \(id) is down") }
        touch.move(to: point, at: settings.now)
        touches[id] = touch
        if let owner = touchOwners[id] { components[owner].touchMoved(touch, in: settings) }
        report(.touchMove(touch: id, to: point))
    }

    /// The finger `touch` comes up where it is.
    public func touchUp(_ id: Int) throws {
        guard var touch = touches.removeValue(forKey: id) else {
            throw StackModelError("no finger with id \(id) is down")
        }
        touch.time = settings.now
        if let owner = touchOwners.removeValue(forKey: id) {
            components[owner].touchEnded(touch, in: settings)
            if let verdict = components[owner].takeGestureVerdict() {
                onVerdict?(verdict.seen(mirrored: isMirrored))
            }
        }
        report(.touchUp(touch: id))
    }

    /// A tap at `point`: down, then up `duration` seconds later without moving. The same touch
    /// stream as the raw calls, so both paths agree.
    @discardableResult
    public func tap(at point: Point, duration: Double = 0) throws -> Hit? {
        try StackModelError.requireNonNegative(duration, "duration")
        let (id, hit) = try touchDown(at: point)
        if duration > 0 { try advance(by: duration) }
        try touchUp(id)
        return hit
    }

    /// A drag from `start` by `translation`, in `steps` equal moves spread over `duration`
    /// seconds, then up at the end point.
    @discardableResult
    public func drag(from start: Point, by translation: Point, steps: Int = 10, duration: Double = 0) throws
        -> Hit?
    {
        try StackModelError.requireFinite(translation.x, "x")
        try StackModelError.requireFinite(translation.y, "y")
        guard (1...Self.maximumDragSteps).contains(steps) else {
            throw StackModelError("steps must be from 1 to \(Self.maximumDragSteps), got \(steps)")
        }
        try StackModelError.requireNonNegative(duration, "duration")
        let (id, hit) = try touchDown(at: start)
        for step in 1...steps {
            if duration > 0 { try advance(by: duration / Double(steps)) }
            let fraction = Double(step) / Double(steps)
            let point =
                step == steps
                ? Point(x: start.x + translation.x, y: start.y + translation.y)
                : Point(x: start.x + translation.x * fraction, y: start.y + translation.y * fraction)
            try touchMove(id, to: point)
        }
        try touchUp(id)
        return hit
    }

    // MARK: Accessibility

    /// Performs VoiceOver's action `action` on `element` of the component `name` (G6).
    /// `"activate"` is VoiceOver's double tap: a tap at the element's activation point.
    @discardableResult
    public func performAction(_ action: String, on element: String, of name: String) throws -> Bool {
        guard let component = component(named: name) else {
            throw StackModelError("no component called '\(name)' is on the screen")
        }
        if action == "activate" {
            guard
                let target = component.accessibilityElements(in: settings).first(where: {
                    $0.id.isSameBytes(element)
                })
            else { throw StackModelError("\(name) has no accessibility element '\(element)'") }
            guard !target.isHidden else { throw StackModelError("'\(element)' is hidden from VoiceOver") }
            return try tap(at: target.activationPoint) != nil
        }
        let result = try component.performAccessibilityAction(action, on: element, in: settings)
        report(.action(component: name, element: element, name: action))
        return result
    }

    /// The Escape gesture (VoiceOver's scrub or a hardware key), sent to the top-most component
    /// that has something to dismiss, or to `name` alone.
    @discardableResult
    public func escape(_ name: String? = nil) throws -> Bool {
        let targets: [any Component]
        if let name {
            guard let component = component(named: name) else {
                throw StackModelError("no component called '\(name)' is on the screen")
            }
            targets = [component]
        } else {
            targets = components.reversed()
        }
        for component in targets where component.escape(in: settings) {
            report(.escape(component: component.name))
            return true
        }
        return false
    }
}
