import StackModel

/// Lua: `stackplay.screen { ... }` and the classes of screens and components.
public struct StackModelModule: LuaModule {
    public let defaults: ScreenDefaults
    /// Whether every screen a script makes is recorded as a trace (`stackplay._traces()`).
    public let recordsTraces: Bool
    /// `--update`: `expect_trace` writes its golden trace again instead of comparing.
    public let updatesGolden: Bool

    public init(
        defaults: ScreenDefaults = ScreenDefaults(), recordsTraces: Bool = false, updatesGolden: Bool = false
    ) {
        self.defaults = defaults
        self.recordsTraces = recordsTraces
        self.updatesGolden = updatesGolden
    }

    /// Every name a script can call on the API: `stackplay.screen`, the methods of screens and
    /// components, and the prelude's matchers. `stackplay check` reports calls to other names.
    public static var apiNames: (fields: Set<String>, methods: Set<String>) {
        var methods = Set(ScreenMethods.methods(session: ScriptSession(), defaults: ScreenDefaults()).keys)
        for (_, names) in ComponentFactories.methodNames { methods.formUnion(names) }
        methods.formUnion([
            "to_equal", "to_be_near", "to_be_truthy", "to_be_falsy", "to_raise", "to_match_trace", "never",
            "to_not",
        ])
        return (["screen", "version", "replay"], methods)
    }

    public func install(in lua: LuaState) throws {
        let session = ScriptSession(recordsTraces: recordsTraces, updatesGolden: updatesGolden)
        lua.setMemoryMeter { session.footprint() }
        let defaults = defaults
        try lua.defineClass(
            Screen.self, name: "stackplay.screen",
            methods: ScreenMethods.methods(session: session, defaults: defaults))
        try lua.defineClass(
            ComponentHandle<NotificationStack>.self, name: "stackplay.notification_stack",
            methods: NotificationStackMethods.methods())
        try lua.defineClass(
            ComponentHandle<WalletCardStack>.self, name: "stackplay.wallet_card_stack",
            methods: WalletCardStackMethods.methods())
        try lua.defineClass(
            ComponentHandle<StickyStackedCards>.self, name: "stackplay.sticky_stacked_cards",
            methods: StickyStackedCardsMethods.methods())
        try lua.setField(
            "screen", in: "stackplay",
            .function("screen") { try ScreenMethods.make($0, session: session, defaults: defaults) })
        try lua.setField("_dump", in: "stackplay", .function("_dump") { _ in [.string(session.dump())] })
        try lua.setField(
            "replay", in: "stackplay", .function("replay") { try TraceMethods.replay($0, session: session) })
        try lua.setField(
            "_traces", in: "stackplay", .function("_traces") { _ in TraceMethods.traces(session: session) })
        try lua.setField(
            "_golden", in: "stackplay", .function("_golden") { try TraceMethods.golden($0, session: session) }
        )
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

/// The screen size `stackplay.screen {}` gets when a script gives none: 390 × 844 unless the
/// project's `.stackplay.lua` says otherwise.
public struct ScreenDefaults: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double? = nil, height: Double? = nil) {
        self.width = width ?? 390
        self.height = height ?? 844
    }
}
