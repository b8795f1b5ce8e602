// `make bench`'s floor: what a fresh Lua state costs in plain C.
#ifndef STACKPLAY_BENCH_BASELINE_H
#define STACKPLAY_BENCH_BASELINE_H

/// `rounds` times: luaL_newstate, luaL_openlibs, load and run a one-line chunk, lua_close.
/// Returns the sum of the chunk's results (so that nothing is optimised away), or -1 on an error.
long stackplay_bench_fresh_states(long rounds);

#endif
