// Snapshot-restored states (issue 21): a state whose every Lua allocation is served from one arena
// at a fixed address, so that a copy of the arena's used part (a snapshot) can be copied back over it
// and every internal pointer of the state is valid again. The bodies are in arena.c.
//
// What lives outside the arena and is restored with it: the state's guard (runtime.c's budgets and
// counters, saved with each snapshot) and the Swift objects Lua userdata hold. Each userdata holds
// one retain; a retain taken after a snapshot is recorded in that snapshot's ledger, so that a
// restore releases exactly the retains the discarded Lua objects held, and a `__gc` run during a test
// never releases an object the snapshot still points at (that retain belongs to the snapshot).
#ifndef STACKPLAY_ARENA_H
#define STACKPLAY_ARENA_H

#include "CLuaRuntime.h"

/// One arena: an address range reserved with mmap (MAP_FIXED_NOREPLACE at a slot's fixed address),
/// its allocator's bookkeeping (free lists, bump pointer) inside it.
typedef struct stackplay_arena stackplay_arena;

/// How many snapshots a state can hold at once (the worker uses two: after the prelude, after a
/// file's top level).
#define STACKPLAY_SNAPSHOT_LEVELS 4

/// Reserves an arena able to hold `limit` bytes of Lua memory (0: no budget, refused). NULL when it
/// cannot be made: `why` then says so ("the arena's address is taken", "built with
/// AddressSanitizer", ...), and the caller makes a fresh state instead (its blocks from the pool
/// allocator of runtime.c, or from malloc under AddressSanitizer).
stackplay_arena *stackplay_arena_open(size_t limit, char *why, size_t why_size);

/// 1 when this build has snapshot-restored states at all (0 under AddressSanitizer).
int stackplay_arena_compiled(void);

/// Whether the arena sits at its slot's fixed address (else the kernel chose one; snapshots work
/// the same within the process).
int stackplay_arena_fixed(const stackplay_arena *arena);

/// The start of the arena's range and the bytes of it in use (bookkeeping included).
void *stackplay_arena_base(const stackplay_arena *arena);
size_t stackplay_arena_used(const stackplay_arena *arena);

/// Lua's realloc within the arena: `osize` is the block's old size as Lua passes it. NULL when the
/// arena is full (then Lua reports "not enough memory").
void *stackplay_arena_realloc(stackplay_arena *arena, void *ptr, size_t osize, size_t nsize);

/// A new state in a new arena (stackplay_newstate's, with the same budgets), or NULL with `why`.
lua_State *stackplay_newstate_arena(size_t limit, double cpu_budget, stackplay_dispatch_fn dispatch,
                                    void (*release)(void *), char *why, size_t why_size);

/// The arena of `L`, or NULL for a malloc-backed or a host's state.
stackplay_arena *stackplay_arena_of(lua_State *L);

/// Takes a snapshot of `L` (its arena's used part and its guard). Returns its level (1, 2, ...), or
/// 0 when it cannot: no arena, a Lua call is running, every level is taken, or out of memory.
int stackplay_snapshot_take(lua_State *L);

/// Restores snapshot `level` (dropping the ones above it) and releases the Swift objects the
/// discarded Lua objects held. Returns 0 on success; -1 when a Lua call is running on `L` (nothing
/// changes then), -2 when there is no such snapshot.
int stackplay_snapshot_restore(lua_State *L, int level);

/// How many snapshots `L` holds.
int stackplay_snapshot_levels(lua_State *L);

/// Retains taken since the newest snapshot that are still held (Swift objects made since then
/// that Lua userdata point to). A file's top level that made any cannot be snapshotted.
size_t stackplay_snapshot_retains(lua_State *L);

/// Stops (`stop` 1) or restarts (0) the collector of `L`: a runner call made right after a snapshot
/// (the listing of a file's tests) that would otherwise collect, marking every object of the
/// snapshot, writes only its own new objects (a lazy snapshot then saves none of the file's pages).
void stackplay_collector_hold(lua_State *L, int stop);

/// Seeds `math.random` as the sandbox does (`math.randomseed(seed)`), with the library's own
/// function, whatever a script did to the `math` table. Call stackplay_random_capture first,
/// right after the libraries are open. Returns 0 on success.
int stackplay_random_seed(lua_State *L, long long seed);

/// Keeps the library's `math.randomseed` in the registry for stackplay_random_seed.
void stackplay_random_capture(lua_State *L);

/// Copies `math.random`'s state (its generator's words) into `out` (up to `size` bytes); returns
/// the bytes copied, 0 when unknown. Two equal copies mean no number was drawn in between.
size_t stackplay_random_state(lua_State *L, void *out, size_t size);

// What runtime.c and arena.c call each other with (not for Swift).

/// The guard of `L` (runtime.c's stackplay_guard) as bytes, for a snapshot to save and restore.
void *stackplay_guard_bytes(lua_State *L, size_t *size);

/// How many stackplay_pcall calls are running on `L`.
int stackplay_guard_depth(lua_State *L);

/// A userdata of `L` now holds a retain of `object`.
void stackplay_arena_retained(stackplay_arena *arena, void *object);

/// A userdata of `L` let go of `object` (`__gc`, or an explicit release): releases it now unless
/// the retain belongs to a snapshot.
void stackplay_arena_release(stackplay_arena *arena, void *object, void (*release)(void *));

/// Makes `L` the arena's state; `release` balances the retains its userdata hold.
void stackplay_arena_attach(stackplay_arena *arena, lua_State *L, void (*release)(void *));

/// Before lua_close: back to the oldest snapshot, the ledgers' retains released, tracking off, so
/// that every `__gc` of the closing state releases once. Frees the snapshots.
void stackplay_arena_closing(lua_State *L, stackplay_arena *arena);

/// Unmaps the arena (after lua_close).
void stackplay_arena_close(stackplay_arena *arena);

#endif
