import CLua
import CLuaRuntime

/// A host's state (``LuaState/init(borrowing:)``): what stackplay adds stays out of the host's
/// globals.
///
/// The modules and the prelude write globals (`stackplay`, `test`, `expect`, ...). In a host's
/// state they write them into a table of stackplay's own, kept in the registry, whose `__index` is
/// the host's global table: stackplay's chunks still see `string`, `type` and the rest, and the
/// host's `before_each` (busted's) or `expect` are never replaced. ``LuaLibrary`` returns its
/// `stackplay` field as the module.
extension LuaState {
    /// The registry key of a host state's private globals.
    private final class HostGlobalsKey {}

    /// Pushes the table that globals are read from and written to: the state's global table, or in
    /// a host's state stackplay's own.
    package func pushGlobals() {
        if isHost {
            lua_rawgetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(HostGlobalsKey.self))
        } else {
            lua_rawgeti(stack.L, stackplay_lua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        }
    }

    /// Makes the private globals: `setmetatable({}, { __index = _G })`, in the registry.
    package func makeHostGlobals() {
        stackplay_lua_newtable(stack.L)
        stackplay_lua_newtable(stack.L)
        lua_rawgeti(stack.L, stackplay_lua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        stack.setField("__index", in: -2)
        _ = lua_setmetatable(stack.L, -2)
        lua_rawsetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(HostGlobalsKey.self))
    }

    /// Gives the chunk on top of the stack the private globals as its `_ENV` (its first upvalue).
    package func setChunkGlobals() {
        pushGlobals()
        _ = lua_setupvalue(stack.L, -2, 1)
    }

    /// Pushes the global `name` of the private globals (raw) and returns its Lua type.
    package func pushGlobal(_ name: String) -> Int32 {
        pushGlobals()
        stack.pushField(name, of: -1)
        lua_rotate(stack.L, -2, 1)
        stack.pop(1)
        return lua_type(stack.L, -1)
    }
}
