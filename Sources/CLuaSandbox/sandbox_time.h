// What sandbox.c installs from sandbox_time.c (inside CLuaSandbox, not its public header).
#ifndef STACKPLAY_SANDBOX_TIME_H
#define STACKPLAY_SANDBOX_TIME_H

#include <lua.h>

// The sandbox's os functions (sandbox_time.c), installed by stackplay_sandbox_install.
/// `os.clock()`: 0, the sandbox's fixed clock.
int sb_clock(lua_State *L);
/// `os.time([t])`: the fixed epoch, or `t` read as UTC as stock does on a UTC machine.
int sb_time(lua_State *L);
/// `os.date([format [, time]])`: in UTC, at the fixed epoch by default.
int sb_date(lua_State *L);

#endif
