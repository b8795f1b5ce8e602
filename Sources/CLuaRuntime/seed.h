// The fixed string-hash seed of every state stackplay makes (seed.c), inside CLuaRuntime.
#ifndef STACKPLAY_SEED_H
#define STACKPLAY_SEED_H

#include <lua.h>

/// The seed every state's string hash uses.
#define STACKPLAY_HASH_SEED 0x5eed5eedu

/// Gives the state `L`, just made by lua_newstate(alloc, ud) and nothing else done with it, the
/// string-hash seed STACKPLAY_HASH_SEED, rehashing the strings it already holds. 1 when done; 0
/// when this Lua's private layout is not the one read here (nothing is changed then).
int stackplay_fix_hash_seed(lua_State *L, lua_Alloc alloc, void *ud);

/// The string-hash seed of `L`'s global state, or 0 when the layout does not match.
unsigned int stackplay_hash_seed(lua_State *L);

#endif
