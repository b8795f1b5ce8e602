// math.random from outside the sandbox's functions (declared in include/sandbox.h): the library's
// own `math.randomseed` kept where a script cannot replace it, seeding with it, and the
// generator's state read for a comparison (the runner's snapshot policy: a file's top level that
// drew numbers is not snapshotted). Written with the Lua C API only.
#include "sandbox.h"

#include <string.h>

/// The registry key of the library's own `math.randomseed`.
static const char stackplay_randomseed_key = 0;

void stackplay_random_capture(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushliteral(L, "math");
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushliteral(L, "randomseed");
        lua_rawget(L, -2);
        if (lua_tocfunction(L, -1)) {
            lua_rawsetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key);
        } else {
            lua_settop(L, -2);
        }
    }
    lua_settop(L, -3);
}

int stackplay_random_seed(lua_State *L, long long seed) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key) != LUA_TFUNCTION) {
        lua_settop(L, -2);
        return -1;
    }
    lua_pushinteger(L, (lua_Integer)seed);
    // A C function given an integer: it cannot raise, and no hook runs inside it.
    return lua_pcall(L, 1, 0, 0) == LUA_OK ? 0 : (lua_settop(L, -2), -1);
}

size_t stackplay_random_state(lua_State *L, void *out, size_t size) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key) != LUA_TFUNCTION) {
        lua_settop(L, -2);
        return 0;
    }
    size_t copied = 0;
    if (lua_getupvalue(L, -1, 1)) {
        const void *state = lua_touserdata(L, -1);
        size_t length = lua_rawlen(L, -1);
        if (state) {
            copied = length < size ? length : size;
            memcpy(out, state, copied);
        }
        lua_settop(L, -2);
    }
    lua_settop(L, -2);
    return copied;
}
