import CLua
import CLuaRuntime
import LuaRuntime
import Testing

@testable import Bindings

extension BindingsTests {
    /// stackplay as a library in a state it did not create, as `require "stackplay"` from lua5.4
    /// does (`make test-lua-module` checks the built module itself).
    @Suite struct HostState {
        /// A state as lua5.4 makes one, with the module (``LuaLibrary/open(_:)``) in the global
        /// `module` and a busted-like `before_each` that stackplay must leave alone.
        func withHost(_ body: (LuaState) throws -> Void) throws {
            let state = try #require(luaL_newstate())
            defer { lua_close(state) }
            luaL_openlibs(state)
            lua_pushstring(state, "busted's")
            lua_setglobal(state, "before_each")
            #expect(LuaLibrary.open(state) == 1)
            let host = LuaState(borrowing: state)
            lua_setglobal(state, "module")
            try body(host)
        }

        @Test("N11 R1 a right-to-left swipe past 110 pt, with the module's functions")
        func swipe() throws {
            try withHost { host in
                let results = try host.run(
                    """
                    local screen = module.screen { layout_direction = "rtl" }
                    local stack = screen:notification_stack {
                      items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true }
                    stack:tap(); screen:settle()
                    stack:drag("calendar", { x = 111 }); screen:settle()
                    return module.show(stack:ids()), type(module.version), type(module.replay)
                    """)
                #expect(results.map(\.string) == [#"{ "messages", "mail" }"#, "string", "function"])
            }
        }

        @Test func errorsAreRaisedAsInTheRunner() throws {
            try withHost { host in
                let results = try host.run(
                    """
                    local screen = module.screen {}
                    return select(2, pcall(screen.notification_stack, screen, { spacng = 1 }))
                    """)
                #expect(
                    results.map(\.string) == [
                        "bad argument #1 to 'notification_stack' (unknown option 'spacng' (did you mean 'spacing'?))"
                    ])
            }
        }

        @Test func theHostsGlobalsStayTheHosts() throws {
            try withHost { host in
                let results = try host.run(
                    "return before_each, rawget(_G, 'stackplay'), rawget(_G, 'test'), rawget(_G, 'expect')")
                #expect(results.map(\.string) == ["busted's", nil, nil, nil])
                #expect(host.memoryUsed == 0)
                #expect(!host.isStopped)
            }
        }
    }
}
