import CLua
import CLuaRuntime
import CLuaSandbox

extension LuaState {
    /// Replaces the library functions that would show addresses, the clock or the hash order with
    /// the deterministic ones of `Sources/CLuaSandbox/sandbox.c` (stackplay_sandbox_install),
    /// which send `print` and `warn` to `write` and seed `math.random` with `seed`.
    package func installDeterministicLibrary(write: LuaValue, seed: Int) throws(LuaFailure) {
        let state = stack.L
        let base = lua_gettop(state)
        do {
            try stack.ensure(4)
            lua_pushcclosure(state, stackplay_sandbox_install, 0)
            try stack.push(write)
        } catch {
            lua_settop(state, base)
            throw LuaFailure(kind: .error, message: "\(error)")
        }
        lua_pushinteger(state, lua_Integer(seed))
        let status = stackplay_pcall(state, 2, 0)
        defer { lua_settop(state, base) }
        if status != LUA_OK { throw LuaFailure(kind: .error, message: stack.popErrorMessage()) }
    }
}
