// Snapshot-restored states (issue 21), the CLuaSnapshot target: a state whose every Lua allocation
// is served from one arena at a fixed address, so that a copy of the arena's used part (a snapshot)
// can be copied back over it and every internal pointer of the state is valid again. The bodies
// are in arena.c (arena_check.c: the invariant checks). It sits on CLuaRuntime: the arena registers
// itself as the state's block source (stackplay_newstate_from), and CLuaRuntime never names it.
//
// What lives outside the arena and is restored with it: the state's guard (CLuaRuntime's budgets and
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
/// allocator of CLuaRuntime's runtime.c, or from malloc under AddressSanitizer).
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

/// Unmaps the arena (after lua_close, or of an arena no state took).
void stackplay_arena_close(stackplay_arena *arena);

// MARK: Invariant checks (arena_check.c; docs/design/arena.md, "Invariants")

/// Whether this build has the checks after every take and restore (STACKPLAY_ARENA_CHECKS: debug
/// builds, not with NDEBUG): 1, or 0 (the switch below then changes nothing).
int stackplay_arena_checks_compiled(void);

/// Turns the checks on (1) or off (0) for the arena of `L` (from its next snapshot on): each take
/// records the checksum of the arena's bytes, each restore compares the restored bytes with it and
/// walks the heap (stackplay_arena_verify), and a failure ends the process with abort() and
/// "stackplay: arena invariant broken ..." on stderr. An arena starts with them on when the build
/// has them and STACKPLAY_ARENA_CHECKS is on in the environment (`make invariants`). Does nothing
/// without an arena or without the checks compiled in.
void stackplay_arena_checking(lua_State *L, int on);

/// Checks the arena of `L` now: the snapshots' levels and sizes, the ledgers' counts, the heap's
/// bounds, every small free list (blocks in the used range, aligned, the walk ending) and every bin
/// of large chunks (in range, free, in the right bin, linked both ways, the chunk after it
/// agreeing, the bins' bitmap), no two free blocks overlapping. With `restored` 1 (right after a take or a restore, before any
/// Lua runs) also that the arena's used part is the newest snapshot's size and its bytes hash to
/// the checksum recorded at that snapshot's take (when one was: checks on). Returns 0 when every
/// check holds, else -1 with the first broken one in `why`. Never aborts; -1 without an arena.
int stackplay_arena_verify(lua_State *L, int restored, char *why, size_t why_size);

/// For the tests of the checks only: flips (XOR 0xff) the byte `offset` bytes from the arena's
/// base, within its used part; -1 when there is no arena or `offset` is past it. Twice undoes it.
int stackplay_arena_test_flip_byte(lua_State *L, size_t offset);

/// For the tests of the checks only: flips the byte `offset` of the newest snapshot's copy (what a
/// restore copies back); -1 when there is none, it is a lazy copy, or `offset` is past it.
int stackplay_arena_test_flip_snapshot_byte(lua_State *L, size_t offset);

/// For the tests of the checks only: flips bit 3 of the head of the first non-empty small free
/// list (the block it names is then misaligned); -1 when every list is empty. Twice undoes it.
int stackplay_arena_test_flip_free_link(lua_State *L);

#endif
