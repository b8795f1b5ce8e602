import LuaRuntime
import StackModel

/// Lua: the methods of a screen (`stackplay.screen { ... }`).
enum ScreenMethods {
    static let screenOptions = [
        "width", "height", "layout_direction", "reduce_motion", "dynamic_type", "record", "mirror",
    ]
    static let directions: [(String, LayoutDirection)] = [("ltr", .leftToRight), ("rtl", .rightToLeft)]

    /// Lua: `stackplay.screen { width = 390, height = 844, layout_direction = "ltr", reduce_motion = false, dynamic_type = "large" }`.
    static func make(_ arguments: LuaArguments, session: ScriptSession, defaults: ScreenDefaults) throws
        -> [LuaValue]
    {
        let options = try LuaOptions(arguments, at: 1, known: screenOptions)
        let mirrored = try options.boolean("mirror", default: defaults.mirror) || session.mirrorsScreens
        let settings = ScreenSettings(
            size: Size(
                width: try options.number("width", default: defaults.width, allowNegative: false),
                height: try options.number("height", default: defaults.height, allowNegative: false)),
            layoutDirection: try options.choice(
                "layout_direction", directions, default: defaults.layoutDirection),
            reduceMotion: try options.boolean("reduce_motion", default: defaults.reduceMotion),
            dynamicTypeSize: try dynamicType(options, default: defaults.dynamicTypeSize))
        // The script gives its own world's direction; a mirrored screen runs the other one.
        let screen = try arguments.model { try Screen(world: settings, mirrored: mirrored) }
        session.track(screen, record: try options.boolean("record", default: false))
        session.screenFixes(ownSettings(options, settings))
        return [.object(screen)]
    }

    /// The settings a screen's options give it themselves, as a `--matrix` variant writes them.
    private static func ownSettings(_ options: LuaOptions, _ settings: ScreenSettings) -> [String: String] {
        var own: [String: String] = [:]
        if options.has("layout_direction") { own["layout_direction"] = settings.layoutDirection.rawValue }
        if options.has("dynamic_type") { own["dynamic_type"] = settings.dynamicTypeSize.shortName }
        if options.has("reduce_motion") { own["reduce_motion"] = settings.reduceMotion ? "on" : "off" }
        if options.has("width") { own["width"] = formatNumber(settings.size.width) }
        if options.has("height") { own["height"] = formatNumber(settings.size.height) }
        return own
    }

    static func dynamicType(_ options: LuaOptions, default standard: DynamicTypeSize) throws
        -> DynamicTypeSize
    {
        guard let name = try options.optionalString("dynamic_type") else { return standard }
        guard let size = DynamicTypeSize(name: name) else {
            throw options.error("dynamic_type", ScreenDefaults.unknownSize(name))
        }
        return size
    }

    static func screen(_ arguments: LuaArguments) throws -> Screen {
        try arguments.object(at: 1, as: Screen.self)
    }

    /// The screen as the script sees it (``ScriptView``): every method that takes or gives an x
    /// or a direction goes through it.
    static func view(_ arguments: LuaArguments) throws -> ScriptView {
        ScriptView(try screen(arguments))
    }

    /// The hot methods' fast paths (``FastMethod``), which the screen's class uses unless `--audit`
    /// wraps its methods. Each takes only the common shape of its arguments (an integer finger, two
    /// finite numbers) and otherwise falls back to its closure in ``methods(session:defaults:kinds:)``.
    static var fast: [String: FastMethod] { ["touch_move": touchMove, "touch_up": touchUp] }

    /// `screen:touch_move(finger, x, y)`.
    private static let touchMove: FastMethod = { state, object in
        guard let lua = state else { return LuaStack.fallback }
        let stack = LuaStack(lua)
        guard let finger = stack.rawInteger(at: 2), let x = stack.rawNumber(at: 3),
            let y = stack.rawNumber(at: 4), x.isFinite, y.isFinite
        else { return LuaStack.fallback }
        let s = Unmanaged<Screen>.fromOpaque(object!).takeUnretainedValue()
        // `touchMove` throws (an unknown finger) before it changes anything: the closure says why.
        do { try ScriptView.touchMove(finger, to: Point(x: x, y: y), on: s) } catch {
            return LuaStack.fallback
        }
        return 0
    }

    /// `screen:touch_up(finger)`.
    private static let touchUp: FastMethod = { state, object in
        guard let lua = state, let finger = LuaStack(lua).rawInteger(at: 2) else { return LuaStack.fallback }
        let s = Unmanaged<Screen>.fromOpaque(object!).takeUnretainedValue()
        // `touchUp` throws (a finger that is not down) before it changes anything.
        do { try s.touchUp(finger) } catch { return LuaStack.fallback }
        return 0
    }

    static func methods(
        session: ScriptSession, defaults: ScreenDefaults, kinds: LuaComponentKinds = .standard
    )
        -> [String: LuaFunction]
    {
        var methods: [String: LuaFunction] = [
            // Time (G1)
            "advance": { a in
                let seconds = try a.nonNegative(at: 2)
                try a.model { try screen(a).advance(by: seconds) }
                return []
            },
            "settle": { a in
                let limit = a.isNil(at: 2) ? Screen.defaultSettleLimit : try a.nonNegative(at: 2)
                return [.number(try a.model { try screen(a).settle(limit: limit) })]
            },
            "now": { a in [.number(try screen(a).now)] },
            // Settings
            "set_reduce_motion": { a in
                try screen(a).setReduceMotion(try a.boolean(at: 2))
                return []
            },
            "toggle_reduce_motion": { a in
                let s = try screen(a)
                s.setReduceMotion(!s.settings.reduceMotion)
                return [.boolean(s.settings.reduceMotion)]
            },
            "set_layout_direction": { a in
                let name = try a.string(at: 2)
                guard let direction = LayoutDirection(name: name) else {
                    throw a.error(at: 2, ScreenDefaults.unknownDirection(name))
                }
                try view(a).setLayoutDirection(direction)
                return []
            },
            "set_dynamic_type": { a in
                let name = try a.string(at: 2)
                guard let size = DynamicTypeSize(name: name) else {
                    throw a.error(at: 2, ScreenDefaults.unknownSize(name))
                }
                try screen(a).setDynamicTypeSize(size)
                return []
            },
            "set_size": { a in
                let options = try LuaOptions(a, at: 2, known: ["width", "height"])
                let s = try screen(a)
                let size = Size(
                    width: try options.number("width", default: s.settings.size.width, allowNegative: false),
                    height: try options.number(
                        "height", default: s.settings.size.height, allowNegative: false))
                try a.model { try s.setSize(size) }
                return []
            },
            "settings": { a in [LuaSnapshot.settings(try view(a).settings)] },
            "mirrored": { a in
                session.asksMirror = true
                return [.boolean(try screen(a).isMirrored)]
            },
            // Touches (G4, G5)
            "tap": { a in
                let (point, next) = try a.point(at: 2)
                let duration = try a.tapDuration(at: next)
                let v = try view(a)
                return [
                    LuaSnapshot.hit(
                        try a.model { try v.tap(at: point, duration: duration) }, on: try screen(a))
                ]
            },
            "touch_down": { a in
                let (point, _) = try a.point(at: 2)
                let v = try view(a)
                let (touch, hit) = try a.model { try v.touchDown(at: point) }
                return [.integer(touch), LuaSnapshot.hit(hit, on: try screen(a))]
            },
            "touch_move": { a in
                let touch = try a.integer(at: 2)
                let (point, _) = try a.point(at: 3)
                let v = try view(a)
                try a.model(argument: 2) { try v.touchMove(touch, to: point) }
                return []
            },
            "touch_up": { a in
                let touch = try a.integer(at: 2)
                try a.model(argument: 2) { try screen(a).touchUp(touch) }
                return []
            },
            "drag": { a in
                let (start, next) = try a.point(at: 2)
                let translation = try a.translation(at: next)
                let (steps, duration) = try a.gestureOptions(at: next + 1)
                let v = try view(a)
                return [
                    LuaSnapshot.hit(
                        try a.model {
                            try v.drag(from: start, by: translation, steps: steps, duration: duration)
                        }, on: try screen(a))
                ]
            },
            "hit_test": { a in
                let (point, _) = try a.point(at: 2)
                return [LuaSnapshot.hit(try view(a).hitTest(point), on: try screen(a))]
            },
            // VoiceOver (G6)
            "escape": { a in [.boolean(try a.model { try screen(a).escape() })] },
            "accessibility": { a in
                return [
                    .array(
                        try view(a).accessibilityElements().map {
                            LuaSnapshot.element($0.element, component: $0.component)
                        })
                ]
            },
            // Observations
            "snapshot": { a in
                let frame = try view(a).snapshot()
                return [
                    .table([
                        "time": .number(frame.time), "settings": LuaSnapshot.settings(frame.settings),
                        "components": .array(frame.components.map(LuaSnapshot.component)),
                    ])
                ]
            },
            "dump": { a in [.string(LuaSnapshot.dump(try screen(a)))] },
            "audit": { a in try AuditMethods.audit(a) },
            "trace": { a in
                guard let recorder = session.recorder(of: try screen(a)) else {
                    throw a.error(at: 1, TraceMethods.notRecorded)
                }
                return [.string(recorder.text)]
            },
        ]
        for kind in kinds.types { methods[kind.luaName] = kind.factory }
        // Lua: `screen:component(name)`: the component called `name`, as its kind's handle.
        methods["component"] = { a in
            let s = try screen(a)
            let name = try a.string(at: 2)
            guard let component = s.component(named: name), let handle = kinds.handle(component, on: s) else {
                let names = s.components.map(\.name)
                var detail = "no component called '\(name)' is on the screen"
                if let near = nearestName(to: name, in: names) { detail += " (did you mean '\(near)'?)" }
                throw a.error(at: 2, detail)
            }
            return [handle]
        }
        return methods
    }
}
