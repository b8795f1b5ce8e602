// The sandbox's deterministic replacements of Lua's library functions, in C (sandbox*.c): `next`,
// `pairs`, `tostring`, `print`, `string.format`, `table.sort`, `os.time`/`os.date`/`os.clock`,
// `load`, `string.dump`, `warn`, `setmetatable`, `xpcall`, `math.randomseed`, `coroutine.create` and
// `coroutine.wrap` (hooked for the budget), and what stays of `debug`. Written with the
// Lua C API, so their errors are stock Lua's own (the function name the script called, the
// argument number, the script's line). The CLuaSandbox target: it sits on CLuaRuntime's public
// header (a stop's state, the coroutines' budget hook) and nothing below it names it.
#ifndef STACKPLAY_SANDBOX_H
#define STACKPLAY_SANDBOX_H

#include <lua.h>
#include <stddef.h>

/// 2026-01-01T00:00:00Z: what the sandbox's `os.time()` returns and `os.date()` shows by default.
#define STACKPLAY_SANDBOX_EPOCH 1767225600

/// A lua_CFunction, called (under a protected call) once in a fresh state whose standard
/// libraries are open: replaces the functions above in `_G`, `string`, `table`, `math` and `os`
/// (which keeps only `time`, `date`,
/// `clock` and `difftime`), and seeds `math.random`. Arguments: the
/// function that receives the test's output (`print`, and `warn` once on), the seed, and
/// optionally `true` to read tables only through lua_next (what happens on a Lua whose table
/// layout is not the one sandbox_scan.c reads; for tests). So does STACKPLAY_PLAIN_NEXT in the
/// environment, and a build with -DSTACKPLAY_NO_LAYOUT compiles the reading of the layout out.
int stackplay_sandbox_install(lua_State *L);

/// Seeds `math.random` as the sandbox does (`math.randomseed(seed)`), with the library's own
/// function, whatever a script did to the `math` table. Call stackplay_random_capture first,
/// right after the libraries are open. Returns 0 on success (sandbox_random.c).
int stackplay_random_seed(lua_State *L, long long seed);

/// Keeps the library's `math.randomseed` in the registry for stackplay_random_seed.
void stackplay_random_capture(lua_State *L);

/// Copies `math.random`'s state (its generator's words) into `out` (up to `size` bytes); returns
/// the bytes copied, 0 when unknown. Two equal copies mean no number was drawn in between.
size_t stackplay_random_state(lua_State *L, void *out, size_t size);

/// Whether the sandbox reads this Lua's tables by their layout (sandbox_scan.c) in the state `L`
/// (any state with the base library): the check it makes once per state.
int stackplay_sandbox_reads_layout(lua_State *L);

#endif
