// What the sandbox keeps of `debug`, the `__gc` rule of setmetatable, and the CPU budget inside
// coroutines (declared in sandbox_private.h).
//
// `debug` keeps what reads without reaching the runner: traceback, getinfo (without the `func`
// of a stack level: the runner's own functions are on the stack below the script), getmetatable
// and setmetatable for tables, both keeping a protected metatable (`__metatable`) protected as
// the base functions do: stackplay's own objects lock theirs, and their `__gc` called by hand
// would release a Swift object twice. Hooks, locals,
// upvalues, the registry and user values stay out of reach: they would turn the budgets off or
// hand the script the runner's state.
#include "guard.h"
#include "sandbox_private.h"

#include <lauxlib.h>

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

/// `debug.getinfo([thread,] f [, what])`: stock's, without `func` when `f` is a stack level.
int sb_getinfo(lua_State *L) {
    int arg = lua_type(L, 1) == LUA_TTHREAD ? 2 : 1;
    int level = lua_type(L, arg) == LUA_TNUMBER;
    int n = sb_raw(L)(L);
    if (level && n == 1 && lua_type(L, -1) == LUA_TTABLE) {
        lua_pushnil(L);
        lua_setfield(L, -2, "func");
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

// MARK: Coroutines

/// A coroutine runs its own hooks: lua_newthread copies the creating thread's, and the budget's
/// watchdog arms the main thread's. So each coroutine gets the count hook that checks the CPU
/// clock (every hook_count instructions), and a loop inside it stops at the budget, at its line.
static void sb_hook_thread(lua_State *L, lua_State *co) {
    // Only in stackplay's own states (whose allocator's data is the guard): a bare state has none.
    void *guard;
    lua_getallocf(L, &guard);
    if (guard == NULL || guard != *(void **)lua_getextraspace(L)) return;
    stackplay_guard *g = guard;
    if (g->cpu_budget <= 0 || co == NULL) return;
    if (lua_gethook(co) != NULL && lua_gethookmask(co) != 0) return;  // inherited (a stopped state's)
    lua_sethook(co, stackplay_hook, LUA_MASKCOUNT, g->hook_count);
}

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
