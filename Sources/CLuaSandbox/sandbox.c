// The sandbox's deterministic library functions (declared in include/sandbox.h). Everything a
// script can reach gives the same values on every run and machine, and only what must change
// changes: each function here is stock Lua 5.4's, or calls stock's own C function in the same C
// frame (so `bad argument #2 to 'format'` names what the script called, at the script's line),
// and differs only where stock would show an address, the clock or the hash order.
//
// Each concept is its own file, sharing sandbox_private.h: object numbers for tostring/print/format
// (sandbox_names.c), the key order (sandbox_order.c), next/pairs (sandbox_next.c), table.sort
// (sandbox_sort.c), load/dump/warn (sandbox_load.c), os.* (sandbox_time.c), what stays of `debug`,
// the `__gc` rule and the budget in coroutines (sandbox_debug.c). This file keeps what
// runs outside the budgets and the installing.
#include "sandbox_private.h"

#include "CSystemCalls.h"

#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

// MARK: What runs outside the budgets

/// `setmetatable(t, mt)`: stock's, refusing a metatable whose `__gc` would run code (Lua runs
/// finalizers with hooks off, where the CPU budget cannot stop them; sandbox_debug.c).
static int sb_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) sb_check_gc(L, 2, 2);
    return sb_raw(L)(L);
}

/// The message handler xpcall installs: the script's, unless a budget has stopped the script
/// (then the stop goes on unwinding, with no Lua run outside the hook).
static int sb_handler(lua_State *L) {
    if (stackplay_stopped(L)) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sb_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_handler, 1);
    lua_replace(L, 2);
    return sb_raw(L)(L);
}

/// `math.randomseed([x [, y]])`: stock's; without arguments it takes its seed from the seeded
/// sequence (math.random(0, maxinteger)), not the clock. Upvalues: 1 stock's random state (which
/// stock's randomseed, called in this frame, reads), 2 stock's math.random, 3 stock's randomseed.
static int sb_randomseed(lua_State *L) {
    if (lua_isnone(L, 1)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushinteger(L, 0);
        lua_pushinteger(L, LUA_MAXINTEGER);
        lua_call(L, 2, 1);
    }
    return lua_tocfunction(L, lua_upvalueindex(3))(L);
}

// MARK: Installing

/// Pushes `fn` as a closure with the sandbox's upvalues (see the top of this file); `raw` is the
/// index of the stock function it calls, or 0.
static void sb_push(lua_State *L, lua_CFunction fn, int raw) {
    for (int i = 1; i <= SB_UPVALUES - 1; i++) lua_pushvalue(L, i + 2);
    if (raw) lua_pushvalue(L, raw); else lua_pushnil(L);
    lua_pushcclosure(L, fn, SB_UPVALUES);
}

/// Replaces `table[name]` (the table at `table`) with `fn`, which may call the stock one.
static void sb_replace(lua_State *L, int table, const char *name, lua_CFunction fn) {
    lua_getfield(L, table, name);
    int raw = lua_gettop(L);
    sb_push(L, fn, raw);
    lua_setfield(L, table, name);
    lua_pop(L, 1);
}

int stackplay_sandbox_install(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_Integer seed = luaL_checkinteger(L, 2);
    int api_only = lua_toboolean(L, 3);
    lua_settop(L, 2);
    // 3..7: the upvalues 1..5
    sb_state *s = (sb_state *)lua_newuserdatauv(L, sizeof(sb_state), 1);
    memset(s, 0, sizeof *s);
    s->pivot = 0x2545f491u;
    // STACKPLAY_PLAIN_NEXT: `next` and `pairs` read tables through `lua_next` only, never Lua's
    // private layout (docs/design/speed-tricks.md): the plain path CI runs the suite on.
    s->layout = !api_only && !stackplay_switch_on("STACKPLAY_PLAIN_NEXT") && sb_layout_matches(L);
    lua_createtable(L, 0, 1); // the metatable of sb_build's scratch memory
    lua_pushcfunction(L, sb_scratch_gc);
    lua_setfield(L, -2, "__gc");
    lua_setiuservalue(L, -2, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "kv");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    sb_next_push(L, 3, 4, 5);
    lua_pushvalue(L, 1);

    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_pushvalue(L, 6);
    lua_setfield(L, g, "next");
    static const struct { const char *name; lua_CFunction fn; } globals[] = {
        {"pairs", sb_pairs}, {"tostring", sb_tostring}, {"print", sb_print}, {"load", sb_load},
        {"warn", sb_warn}, {"setmetatable", sb_setmetatable}, {"xpcall", sb_xpcall}};
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++) sb_replace(L, g, globals[i].name, globals[i].fn);

    lua_getfield(L, g, "string");
    sb_replace(L, lua_gettop(L), "format", sb_format);
    sb_replace(L, lua_gettop(L), "dump", sb_dump);
    lua_pop(L, 1);
    lua_getfield(L, g, "table");
    sb_replace(L, lua_gettop(L), "sort", sb_sort);
    lua_pop(L, 1);

    lua_getfield(L, g, "math");
    int math = lua_gettop(L);
    lua_getfield(L, math, "randomseed");
    lua_getupvalue(L, -1, 1);
    lua_getfield(L, math, "random");
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, sb_randomseed, 3);
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, math, "randomseed");
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    // os keeps only time, date, clock and difftime (stock's: arithmetic), in the same table
    // (package.loaded's), so that messages name 'os.date' as stock's do.
    lua_getfield(L, g, "os");
    int os = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, os)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "difftime") == 0) continue;
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, os);
    }
    static const struct { const char *name; lua_CFunction fn; } os_functions[] = {
        {"time", sb_time}, {"date", sb_date}, {"clock", sb_clock}};
    for (size_t i = 0; i < sizeof os_functions / sizeof os_functions[0]; i++) {
        sb_push(L, os_functions[i].fn, 0);
        lua_setfield(L, os, os_functions[i].name);
    }
    lua_pop(L, 1);

    // coroutines get the budget's hook; `debug` keeps what reads without reaching the runner
    lua_getfield(L, g, "coroutine");
    sb_replace(L, lua_gettop(L), "create", sb_cocreate);
    sb_replace(L, lua_gettop(L), "wrap", sb_cowrap);
    lua_pop(L, 1);
    lua_pushcfunction(L, luaopen_debug);
    lua_call(L, 0, 1);
    int stock = lua_gettop(L);
    lua_createtable(L, 0, 9);
    static const struct { const char *name; lua_CFunction fn; } debug_functions[] = {
        {"traceback", NULL}, {"getinfo", sb_getinfo}, {"setmetatable", sb_debug_setmetatable},
        {"getupvalue", sb_upvalue}, {"setupvalue", sb_upvalue}, {"upvalueid", sb_upvalue},
        {"upvaluejoin", sb_upvaluejoin}};
    for (size_t i = 0; i < sizeof debug_functions / sizeof debug_functions[0]; i++) {
        lua_getfield(L, stock, debug_functions[i].name);
        if (debug_functions[i].fn) {
            sb_push(L, debug_functions[i].fn, lua_gettop(L));
            lua_remove(L, -2);
        }
        lua_setfield(L, -2, debug_functions[i].name);
    }
    lua_getfield(L, g, "getmetatable"); // the base one: a protected metatable stays protected
    lua_setfield(L, -2, "getmetatable");
    lua_setfield(L, g, "debug");
    lua_pop(L, 1);
    // the collector in lua.c's mode (stock lua5.4 runs generational)
    lua_gc(L, LUA_GCGEN, 0, 0);
    return 0;
}
