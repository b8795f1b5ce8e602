// What the sandbox keeps of `debug`, the `__gc` rule of setmetatable, and the CPU budget inside
// coroutines (declared in sandbox_private.h).
//
// `debug` keeps what does not reach the runner: traceback, getinfo (without the `func` of a stack
// level: the runner's own functions are on the stack below the script), the upvalues of the
// script's own Lua functions (what Penlight's setfenv/getfenv use), getmetatable
// and setmetatable for tables, both keeping a protected metatable (`__metatable`) protected as
// the base functions do: stackplay's own objects lock theirs, and their `__gc` called by hand
// would release a Swift object twice. Hooks, locals,
// upvalues, the registry and user values stay out of reach: they would turn the budgets off or
// hand the script the runner's state.
#include "sandbox_private.h"

#include <lauxlib.h>
#include <string.h>

// MARK: __gc

/// Refuses a metatable whose `__gc` would run code: a function, or any value that could be
/// given a `__call` (tables, userdata, strings). Booleans and numbers (no metatable a script can
/// reach) register no code: 5.4 accepts them and they stay allowed.
int sb_check_gc(lua_State *L, int mt, int arg) {
    lua_pushliteral(L, "__gc");
    int t = lua_rawget(L, mt);
    lua_pop(L, 1);
    if (t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER) return 0;
    return luaL_argerror(L, arg, "stackplay does not run __gc finalizers: they would run outside the CPU budget");
}

// MARK: debug

/// Whether the function at `idx` is the script's: a Lua function not of stackplay's own chunks
/// (named `=stackplay/...`, whose upvalues are the runner's). C functions never are (the
/// sandbox's hold the stock functions they wrap).
static int sb_script_function(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TFUNCTION || lua_iscfunction(L, idx)) return 0;
    lua_Debug ar;
    lua_pushvalue(L, idx);
    lua_getinfo(L, ">S", &ar);
    return strncmp(ar.source, "=stackplay/", 11) != 0;
}

/// `debug.getinfo([thread,] f [, what])`: stock's; asked about a stack level, `func` only when it
/// is the script's own function (Penlight's getfenv reads its caller's).
int sb_getinfo(lua_State *L) {
    int arg = lua_type(L, 1) == LUA_TTHREAD ? 2 : 1;
    int level = lua_type(L, arg) == LUA_TNUMBER;
    int n = sb_raw(L)(L);
    if (level && n == 1 && lua_type(L, -1) == LUA_TTABLE) {
        lua_getfield(L, -1, "func");
        int keep = sb_script_function(L, -1);
        lua_pop(L, 1);
        if (!keep) {
            lua_pushnil(L);
            lua_setfield(L, -2, "func");
        }
    }
    return n;
}

/// `debug.setmetatable(value, mt)`: for tables, as `setmetatable` (a protected metatable stays);
/// other types keep their metatables (a number's `__call` would run as a `__gc`).
int sb_debug_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (lua_type(L, 1) != LUA_TTABLE) {
        return luaL_argerror(L, 1, "stackplay scripts set the metatables of tables only");
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) {
        return luaL_error(L, "cannot change a protected metatable");
    }
    if (t == LUA_TTABLE) sb_check_gc(L, 2, 2);
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

// MARK: Upvalues

/// Refuses the function argument `arg` unless it is the script's (sb_script_function).
static void sb_check_script_function(lua_State *L, int arg) {
    luaL_checktype(L, arg, LUA_TFUNCTION);
    if (!sb_script_function(L, arg)) {
        luaL_argerror(L, arg, "stackplay keeps the upvalues of its own and of C functions out of reach");
    }
}

/// `debug.getupvalue`, `debug.setupvalue`, `debug.upvalueid`: stock's, for the script's functions.
int sb_upvalue(lua_State *L) {
    sb_check_script_function(L, 1);
    return sb_raw(L)(L);
}

/// `debug.upvaluejoin(f1, n1, f2, n2)`: stock's, for the script's functions.
int sb_upvaluejoin(lua_State *L) {
    sb_check_script_function(L, 1);
    sb_check_script_function(L, 3);
    return sb_raw(L)(L);
}

// MARK: Coroutines

/// A coroutine runs its own hooks: lua_newthread copies the creating thread's, and the budget's
/// watchdog arms the main thread's. So each coroutine gets the count hook that checks the CPU
/// clock (every hook_count instructions), and a loop inside it stops at the budget, at its line
/// (CLuaRuntime's stackplay_hook_coroutine: the guard is the runtime's own).
static void sb_hook_thread(lua_State *L, lua_State *co) { stackplay_hook_coroutine(L, co); }

/// `coroutine.create(f)`: stock's, the new thread hooked.
int sb_cocreate(lua_State *L) {
    int n = sb_raw(L)(L);
    sb_hook_thread(L, lua_tothread(L, -1));
    return n;
}

/// `coroutine.wrap(f)`: stock's; its thread (the function's upvalue) hooked.
int sb_cowrap(lua_State *L) {
    int n = sb_raw(L)(L);
    if (lua_getupvalue(L, -1, 1) != NULL) {
        sb_hook_thread(L, lua_tothread(L, -1));
        lua_pop(L, 1);
    }
    return n;
}
