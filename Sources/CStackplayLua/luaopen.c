// The Lua C module's entry point: `require "stackplay"` calls luaopen_stackplay.
//
// It is C because it is the one place where a Swift failure becomes a Lua error: the Swift side
// (stackplay_open_library in StackplayLua) pushes the message and returns STACKPLAY_RAISE (-2),
// and this raises it after the Swift frames have returned, so that Lua's longjmp never crosses
// them (LUA_EMBEDDING.md).
#include <lua.h>

int stackplay_open_library(lua_State *L);

int luaopen_stackplay(lua_State *L) {
    int results = stackplay_open_library(L);
    if (results < 0) return lua_error(L);
    return results;
}
