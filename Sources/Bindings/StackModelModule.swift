import StackModel

/// Lua: `stackplay.screen { ... }` and the classes of screens and components.
public struct StackModelModule: LuaModule {
    public init() {}

    public func install(in lua: LuaState) throws {
        let session = ScriptSession()
        try lua.defineClass(Screen.self, name: "stackplay.screen", methods: ScreenMethods.methods(session: session))
        try lua.defineClass(
            ComponentHandle<NotificationStack>.self, name: "stackplay.notification_stack",
            methods: NotificationStackMethods.methods())
        try lua.setField("screen", in: "stackplay", .function("screen") { try ScreenMethods.make($0, session: session) })
        try lua.setField("_dump", in: "stackplay", .function("_dump") { _ in [.string(session.dump())] })
        try lua.setField("_reset", in: "stackplay", .function("_reset") { _ in
            session.reset()
            return []
        })
    }
}

/// The component constructors on a screen: `screen:notification_stack { ... }`, ...
enum ComponentFactories {
    static var all: [(String, LuaFunction)] {
        [("notification_stack", NotificationStackMethods.make)]
    }
}
