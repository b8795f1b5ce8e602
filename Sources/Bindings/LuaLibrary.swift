import LuaRuntime

/// stackplay as a Lua library: `local stackplay = require "stackplay"` in a host's own Lua 5.4
/// state (stock `lua5.4`, busted, an application that embeds Lua).
///
/// The module is the table scripts know as `stackplay`: `screen`, `replay`, `version` and `show`,
/// with every component, gesture and observation, and the same error messages. The host's state
/// stays the host's: there is no sandbox, no CPU or memory budget, no determinism layer (`pairs`,
/// `math.random`, `os.time` are the host's), and no `test`/`expect` (busted has its own).
/// `stackplay.replay` reads traces relative to the working folder, confined to it.
public enum LuaLibrary {
    /// Builds the module in `state` and pushes it: returns 1, or ``STACKPLAY_RAISE`` with the error
    /// message pushed, which the C `luaopen_stackplay` raises after this has returned.
    public static func open(_ state: OpaquePointer) -> Int32 {
        let lua = LuaState(borrowing: state)
        lua.scriptsRoot = "."
        lua.session.keepsScreens = false
        do {
            for module: any LuaModule in [CoreModule(), StackModelModule(), PreludeModule()] {
                try module.install(in: lua)
            }
            guard lua.pushGlobal("stackplay") == LuaStack.tableType else {
                throw LuaError("stackplay: the module table was not made")
            }
            return 1
        } catch {
            lua.stack.pushString("\(error)")
            return LuaStack.raise
        }
    }
}
