// The Lua 5.4 C API as Swift sees it. Lua's function-like macros do not import into Swift, so
// each one used by Bindings is re-declared here as a `static inline` function.
#ifndef STACKPLAY_CLUA_SHIM_H
#define STACKPLAY_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

static inline void stackplay_lua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void stackplay_lua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int stackplay_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcallk(L, nargs, nresults, msgh, 0, NULL);
}
static inline const char *stackplay_lua_tostring(lua_State *L, int i) { return lua_tolstring(L, i, NULL); }
static inline int stackplay_lua_upvalueindex(int i) { return LUA_REGISTRYINDEX - i; }
static inline int stackplay_lua_registryindex(void) { return LUA_REGISTRYINDEX; }

#endif
