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

    public init(
        defaults: ScreenDefaults = ScreenDefaults(), recordsTraces: Bool = false, updatesGolden: Bool = false,
        golden: GoldenPolicy = GoldenPolicy()
    ) {
        self.defaults = defaults
        self.recordsTraces = recordsTraces
        self.updatesGolden = updatesGolden
        self.golden = golden
    }

    /// Every name a script can call on the API: `stackplay.screen`, the methods of screens and
    /// components, and the prelude's matchers. `stackplay check` reports calls to other names.
    public static var apiNames: (fields: Set<String>, methods: Set<String>) {
        var methods = Set(ScreenMethods.methods(session: ScriptSession(), defaults: ScreenDefaults()).keys)
        for (_, names) in ComponentFactories.methodNames { methods.formUnion(names) }
        methods.formUnion(matchers)
        return (["screen", "version", "replay", "show"], methods)
    }

    /// The methods of `expect(...)` (the prelude's; a test keeps the two lists equal).
    public static let matchers: Set<String> = [
        "to_equal", "to_be_near", "to_be_truthy", "to_be_falsy", "to_be_nil", "to_raise", "to_match_trace",
        "to_be_greater_than", "to_be_greater_than_or_equal", "to_be_less_than", "to_be_less_than_or_equal",
        "to_be_between", "to_contain", "to_have_length", "to_be_type", "to_match", "never", "to_not",
    ]

    /// The option names of each call that takes an options table, by the call's name:
    /// `stackplay.screen { ... }`, `screen:notification_stack { ... }`, a drag's `{ x =, y = }` and
    /// `{ steps =, duration = }`. `stackplay check` checks the tables it can see in the source.
    public static var optionNames: [String: [String]] {
        let gesture = ["x", "y", "steps", "duration"]
        return [
            "screen": ScreenMethods.screenOptions,
            "notification_stack": NotificationStackMethods.options,
            "wallet_card_stack": WalletCardStackMethods.options,
            "sticky_stacked_cards": StickyStackedCardsMethods.options,
            "set_size": ["width", "height"],
            "set_items": ["items", "card_height"],
            "replay": ["events"],
            "tap": gesture, "drag": gesture, "scroll": gesture, "hit_test": ["x", "y"],
            "touch_down": ["x", "y"], "touch_move": ["x", "y"],
            "test": ["tags"], "skip": ["tags"], "only": ["tags"],
        ]
    }

    static let notificationStack = MethodTable(
        className: "stackplay.notification_stack", methods: NotificationStackMethods.methods())
    static let walletCardStack = MethodTable(
        className: "stackplay.wallet_card_stack", methods: WalletCardStackMethods.methods())
    static let stickyStackedCards = MethodTable(
        className: "stackplay.sticky_stacked_cards", methods: StickyStackedCardsMethods.methods())

    public func install(in lua: LuaState) throws {
        let session = lua.session
        session.recordsTraces = recordsTraces
        session.updatesGolden = updatesGolden
        lua.setMemoryMeter { session.footprint() }
        let defaults = defaults
        let files = ScriptFiles(root: lua.scriptsRoot, golden: golden)
        try lua.defineClass(
            Screen.self, name: "stackplay.screen",
            methods: ScreenMethods.methods(session: session, defaults: defaults))
        // The components' methods hold nothing of a state: boxed once a process.
        try lua.defineClass(ComponentHandle<NotificationStack>.self, table: Self.notificationStack)
        try lua.defineClass(ComponentHandle<WalletCardStack>.self, table: Self.walletCardStack)
        try lua.defineClass(ComponentHandle<StickyStackedCards>.self, table: Self.stickyStackedCards)
        try lua.setField(
            "screen", in: "stackplay",
            .function("screen") { try ScreenMethods.make($0, session: session, defaults: defaults) })
        try lua.setField(
            "replay", in: "stackplay",
            .function("replay") { try TraceMethods.replay($0, session: session, files: files) })
        lua.internals["golden"] = .function("to_match_trace") {
            try TraceMethods.golden($0, session: session, files: files)
        }
    }
}

/// The component constructors on a screen: `screen:notification_stack { ... }`, ...
enum ComponentFactories {
    static var all: [(String, LuaFunction)] {
        [
            ("notification_stack", NotificationStackMethods.make),
            ("wallet_card_stack", WalletCardStackMethods.make),
            ("sticky_stacked_cards", StickyStackedCardsMethods.make),
        ]
    }

    /// Each component kind's method names.
    static var methodNames: [(String, Set<String>)] {
        [
            ("notification_stack", Set(NotificationStackMethods.methods().keys)),
            ("wallet_card_stack", Set(WalletCardStackMethods.methods().keys)),
            ("sticky_stacked_cards", Set(StickyStackedCardsMethods.methods().keys)),
        ]
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
    public static func unknownSize(_ name: String) -> String {
        let names = DynamicTypeSize.allCases.map(\.shortName)
        if let near = nearestName(to: name, in: names) {
            return "unknown size '\(name)' (did you mean '\(near)'?)"
        }
        return "unknown size '\(name)' (sizes: \(names.joined(separator: ", ")))"
    }

    /// `"'ltr' or 'rtl' expected, got 'rlt'"`.
    public static func unknownDirection(_ name: String) -> String { "'ltr' or 'rtl' expected, got '\(name)'" }
}
