// The Lua C module's entry point, `require "stackplay"`.
#ifndef STACKPLAY_LUAOPEN_H
#define STACKPLAY_LUAOPEN_H

struct lua_State;

/// Lua: `require "stackplay"`. Pushes the module table; raises (from C) if it cannot be built.
int luaopen_stackplay(struct lua_State *L);

#endif
