// The Lua 5.4 C API as Swift sees it: Lua's function-like macros do not import into Swift, so each
// one the runtime uses is re-declared here as a one-line `static inline` function. Nothing else:
// the C side of the boundary (trampolines, allocator, hooks, message handler) is
// Sources/CLuaRuntime/runtime.c.
#ifndef STACKPLAY_CLUA_SHIM_H
#define STACKPLAY_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

// MARK: Macros as functions

static inline void stackplay_lua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void stackplay_lua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int stackplay_lua_pcall(lua_State *L, int n, int r, int h) { return lua_pcallk(L, n, r, h, 0, NULL); }
static inline const char *stackplay_lua_tostring(lua_State *L, int i) { return lua_tolstring(L, i, NULL); }
static inline int stackplay_lua_upvalueindex(int i) { return LUA_REGISTRYINDEX - i; }
static inline int stackplay_lua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int stackplay_lua_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline void *stackplay_lua_getextraspace(lua_State *L) { return lua_getextraspace(L); }
static inline int stackplay_lua_multret(void) { return LUA_MULTRET; }

#endif
