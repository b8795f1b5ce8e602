import LuaRuntime
import StackModel
import Traces

/// Lua: `stackplay.screen { ... }` and the classes of screens and components.
public struct StackModelModule: LuaModule {
    public let defaults: ScreenDefaults
    /// Whether every screen a script makes is recorded as a trace (the runner collects them).
    public let recordsTraces: Bool
    /// `--update`: `expect_trace` writes its golden trace again instead of comparing.
    public let updatesGolden: Bool
    /// `--ci` and `--tolerance` for `to_match_trace` (its `update` comes from `updatesGolden`).
    public let golden: GoldenPolicy
    /// The component kinds scripts can make, replay and compare.
    public let kinds: LuaComponentKinds
    /// `--audit`: every screen is audited after each step, and the first issue fails the test.
    public let audit: AuditOptions?

    public init(
        defaults: ScreenDefaults = ScreenDefaults(), recordsTraces: Bool = false, updatesGolden: Bool = false,
        golden: GoldenPolicy = GoldenPolicy(), kinds: LuaComponentKinds = .standard,
        audit: AuditOptions? = nil
    ) {
        self.audit = audit
        self.defaults = defaults
        self.recordsTraces = recordsTraces
        self.updatesGolden = updatesGolden
        self.golden = golden
        self.kinds = kinds
    }

    /// Every name a script can call on the API: `stackplay.screen`, the methods of screens and
    /// components, and the prelude's matchers. `stackplay check` reports calls to other names.
    public static var apiNames: (fields: Set<String>, methods: Set<String>) { apiNames(kinds: .standard) }

    /// The names of the API with the component kinds `kinds`.
    public static func apiNames(kinds: LuaComponentKinds) -> (fields: Set<String>, methods: Set<String>) {
        var methods = Set(
            ScreenMethods.methods(session: ScriptSession(), defaults: ScreenDefaults(), kinds: kinds).keys)
        for kind in kinds.types { methods.formUnion(kind.methods().keys) }
        methods.formUnion(matchers)
        return (["screen", "version", "replay", "show"], methods)
    }

    /// The methods of `expect(...)` (the prelude's; a test keeps the two lists equal).
    public static let matchers: Set<String> = [
        "to_equal", "to_be_near", "to_be_truthy", "to_be_falsy", "to_be_nil", "to_raise", "to_match_trace",
        "to_be_greater_than", "to_be_greater_than_or_equal", "to_be_less_than", "to_be_less_than_or_equal",
        "to_be_between", "to_contain", "to_have_length", "to_be_type", "to_match", "never", "to_not",
        "to_pass_audit",
    ]

    /// The option names of each call that takes an options table, by the call's name:
    /// `stackplay.screen { ... }`, `screen:notification_stack { ... }`, a drag's `{ x =, y = }` and
    /// `{ steps =, duration = }`. `stackplay check` checks the tables it can see in the source.
    public static var optionNames: [String: [String]] { optionNames(kinds: .standard) }

    /// The option names of each call with the component kinds `kinds`.
    public static func optionNames(kinds: LuaComponentKinds) -> [String: [String]] {
        let gesture = ["x", "y", "steps", "duration"]
        var names = [
            "screen": ScreenMethods.screenOptions,
            "set_size": ["width", "height"],
            "set_items": ["items", "card_height"],
            "replay": ["events"],
            // `force` is a component's tap and drag by card id (actionability); the screen's by
            // point refuse it when they run.
            "tap": gesture + ["force"], "drag": gesture + ["force"], "scroll": gesture,
            "hit_test": ["x", "y"],
            "touch_down": ["x", "y"], "touch_move": ["x", "y"],
            "test": ["tags"], "skip": ["tags"], "only": ["tags"],
            "audit": AuditMethods.optionNames, "to_pass_audit": AuditMethods.optionNames,
        ]
        for kind in kinds.types { names[kind.luaName] = kind.optionNames }
        return names
    }

    public func install(in lua: LuaState) throws {
        let session = lua.session
        // A run `--mirror` compares with its twin records every screen (``MirrorCheck``).
        session.recordsTraces = recordsTraces || lua.session.variant.checksMirror
        session.requestsTraces = recordsTraces
        session.updatesGolden = updatesGolden
        session.audit = audit
        lua.setMemoryMeter { session.footprint() }
        try lua.intern(LuaSnapshot.CardField.keys)
        let defaults = lua.session.variant.applied(to: self.defaults)
        let kinds = kinds
        let files = ScriptFiles(root: lua.scriptsRoot, golden: golden, kinds: kinds)
        try lua.defineClass(
            Screen.self, name: "stackplay.screen",
            methods: session.auditing(
                ScreenMethods.methods(session: session, defaults: defaults, kinds: kinds)),
            fast: session.audit == nil ? ScreenMethods.fast : [:])
        // The components' methods hold nothing of a state, boxed once a process (``MethodTable``),
        // unless `--audit` wraps them in this session's checks.
        for (kind, table) in zip(kinds.types, kinds.methodTables) {
            if session.audit == nil {
                try kind.defineClass(in: lua, table: table)
            } else {
                try kind.defineClass(in: lua)
            }
        }
        try lua.setField(
            "screen", in: "stackplay",
            .function("screen") { try ScreenMethods.make($0, session: session, defaults: defaults) })
        try lua.setField(
            "replay", in: "stackplay",
            .function("replay") {
                try TraceMethods.replay($0, session: session, files: files, mirrored: defaults.mirror)
            })
        lua.internals["audit"] = .function(
            LuaSwiftFunction(name: "to_pass_audit", isMethod: true) {
                try AuditMethods.expectation($0, session: session)
            })
        // `stackplay explore`: the prelude hands over the screen an exploration's setup made.
        lua.internals["explored"] = .function("setup") { a in
            guard let screen = try? a.object(at: 1, as: Screen.self) else {
                throw LuaError("an exploration's setup must return a screen (stackplay.screen { ... })")
            }
            session.explored = screen
            return []
        }
        lua.internals["golden"] = .function("to_match_trace") {
            try TraceMethods.golden($0, session: session, files: files)
        }
    }
}

/// What `stackplay.screen {}` gets for the settings a script does not give: 390 × 844,
/// left to right, Reduce Motion off, Dynamic Type large, unless the project's `.stackplay.lua`
/// says otherwise (`screen = { layout_direction = "rtl", dynamic_type = "AX3" }`).
public struct ScreenDefaults: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var layoutDirection: LayoutDirection
    public var reduceMotion: Bool
    public var dynamicTypeSize: DynamicTypeSize
    /// Whether screens are mirrored (`--mirror`'s second run of each test): see ``Mirror``.
    public var mirror = false

    public init(
        width: Double? = nil, height: Double? = nil, layoutDirection: LayoutDirection? = nil,
        reduceMotion: Bool? = nil, dynamicTypeSize: DynamicTypeSize? = nil
    ) {
        self.width = width ?? 390
        self.height = height ?? 844
        self.layoutDirection = layoutDirection ?? .leftToRight
        self.reduceMotion = reduceMotion ?? false
        self.dynamicTypeSize = dynamicTypeSize ?? .large
    }

    /// The settings a screen takes, by their Lua names: what `.stackplay.lua`'s `screen` accepts.
    public static let keys = ["width", "height", "layout_direction", "reduce_motion", "dynamic_type"]

    /// `"unknown size 'AX9' (did you mean 'AX5'?)"`, or the list of sizes when none is near.
    public static func unknownSize(_ name: String) -> String { DynamicTypeSize.unknownName(name) }

    /// `"'ltr' or 'rtl' expected, got 'rlt'"`.
    public static func unknownDirection(_ name: String) -> String { LayoutDirection.unknownName(name) }
}
