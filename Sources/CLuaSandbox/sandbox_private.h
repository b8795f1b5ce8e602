// What the sandbox's files share, inside CLuaSandbox (not its public header; no other target
// includes it): the state and the upvalues every replacement closure has, and the functions one
// file gives another.
// Every function is a C closure with the same upvalues:
//   1 the sandbox's state (sb_state: the last object number given, warn's switch; its user value
//     is the metatable of sb_build's scratch memory),
//   2 `ids`: object -> its number, weak-keyed (tables, functions, coroutines, userdata; strings
//     shown by %p too),
//   3 `caches`: table -> its sorted key cache (sandbox_next.c), weak in keys and values,
//   4 the sandbox's `next` (for `pairs`),
//   5 the function that appends to the test's captured output (`print`, `warn`),
//   6 the stock function replaced (a C function called in this frame), or nil.
#ifndef STACKPLAY_SANDBOX_PRIVATE_H
#define STACKPLAY_SANDBOX_PRIVATE_H

#include "CLuaRuntime.h"
#include "sandbox.h"
#include "sandbox_time.h"

#include <stddef.h>
#include <stdint.h>

/// The sorted keys of one table (sandbox_next.c): its keys recorded in the table's slot order at
/// `keys[base + 1 .. base + n]` (a Lua table: a big cache's own, or the ring's pool), `order` the
/// sorted places, `slot` where each key sat in the table (layout mode).
typedef struct sb_cache {
    const void *table;   // the table it was made or last checked for (lua_topointer); NULL: none
    const void *keys;    // the key table's object (lua_topointer)
    uint32_t n;          // keys recorded
    uint32_t base;       // the first key is keys[base + 1]
    uint32_t hint;       // the sorted place (1-based) of the key `next` returned last; 0: none
    uint32_t first;      // while trusted: the keys at sorted places before it are gone
    uint32_t asize;      // layout: the table's array size when checked (slot numbers past it are nodes)
    uint32_t epoch;      // big caches: the collector epoch they were last kept alive in (`live`)
    uint64_t credit;     // slots a re-check in next(t, k) may still read (sandbox_next.c)
    unsigned char trust; // the bits set in the table's flags when checked (0: cannot be trusted)
    unsigned char small; // a ring entry (SB_SMALL keys at most), not a userdata of its own
    uint64_t tick;       // ring entries: when used last
    uint32_t *slot;      // [n] place in slot order -> slot number (array slots, then nodes)
    uint32_t *order;     // [n] sorted place -> place in slot order (1-based)
} sb_cache;

#define SB_SMALL 16 // tables of at most this many keys are sorted into the ring, with no allocation
#define SB_RING 8   // ring entries: traversals of small tables in progress at once without sorting again

typedef struct sb_ring_entry {
    sb_cache c;
    uint32_t slot[SB_SMALL];
    uint32_t order[SB_SMALL];
} sb_ring_entry;

typedef struct sb_state {
    lua_Integer last_id; // the last object number given
    int warn_on;         // warn("@on") was called (off by default, as in lua.c)
    unsigned int pivot;  // table.sort's fixed pivot sequence for unbalanced partitions
    int layout;          // sandbox_scan.c reads tables' layout (checked at install)
    int trust;           // and may mark a checked table in its flags (checked at install)
    uint32_t epoch;      // collection cycles seen (the sentinel's finalizer counts them)
    int sentinel;        // a sentinel is armed (its finalizer runs at the end of the next cycle)
    sb_cache *last;      // the cache `next` used last, held by next's upvalues until the cycle ends
    uint64_t tick;       // ring use counter
    const void *tm_gc;   // the interned "__gc" and "__mode" (fixed strings), for the trust bits
    const void *tm_mode;
    sb_ring_entry ring[SB_RING];
} sb_state;

#define SB_STATE 1
#define SB_IDS 2
#define SB_CACHES 3
#define SB_NEXT 4
#define SB_WRITE 5
#define SB_RAW 6
#define SB_UPVALUES 6

static inline sb_state *sb_state_of(lua_State *L) { return (sb_state *)lua_touserdata(L, lua_upvalueindex(SB_STATE)); }

/// The stock C function this closure replaces, for a call in the same frame.
static inline lua_CFunction sb_raw(lua_State *L) { return lua_tocfunction(L, lua_upvalueindex(SB_RAW)); }

static inline int sb_is_object(int type) {
    return type == LUA_TTABLE || type == LUA_TFUNCTION || type == LUA_TUSERDATA || type == LUA_TTHREAD ||
           type == LUA_TLIGHTUSERDATA;
}

// MARK: Object numbers (sandbox_names.c)

/// The number of the object at `idx`, given now if it has none yet.
lua_Integer sb_object_id(lua_State *L, int idx);
/// luaL_tolstring with object numbers for addresses; pushes the text.
const char *sb_tolstring(lua_State *L, int idx, size_t *len);
/// Calls the output function with the string on top (popped).
void sb_write(lua_State *L);
int sb_tostring(lua_State *L);
int sb_print(lua_State *L);
int sb_format(lua_State *L);

// MARK: The key order (sandbox_order.c)

typedef struct sb_key {
    uint64_t a;            // integers and floats: their bits; strings: the first 8 bytes, big-endian; else a number
    const char *s;         // strings: the bytes (the key stays referenced by the key array while they are used)
    uint32_t len;          // strings: the length (a longer string compares by its first 2^32 - 1 bytes, then by
                           // that length: still a total order); numbers: 1 for a float
    uint32_t slot : 29;    // the key's place in the key array
    uint32_t rank : 3;     // 1 number, 2 string, 3 boolean, 4 any other value
} sb_key;


/// The documented order: <0, 0 or >0.
int sb_compare(const sb_key *x, const sb_key *y);
/// Sorts `e[0..n)` into the documented order, using `tmp` (n entries).
void sb_sort_entries(sb_key *e, sb_key *tmp, size_t n);

// MARK: Reading a table's layout (sandbox_scan.c)

/// Whether this Lua's tables have the layout sandbox_scan.c reads (checked on a probe table).
int sb_layout_matches(lua_State *L);
/// Whether a table's flags keep a mark that every insertion of a key clears (checked on probes).
int sb_trust_matches(lua_State *L);
/// Whether sb_layout_push_plain copies this Lua's number and boolean values as lua_next gives them
/// (checked on a probe table), and no other value.
int sb_values_match(lua_State *L);
/// Describes the key at `idx` for the sort (may give an object its number).
void sb_key_of(lua_State *L, int idx, sb_key *k);
/// Describes `keys[i + 1]` (the table keys, read by its layout: lua_topointer of a key array) into
/// `k`, slot i + 1, but for an object (rank 0: sb_describe's work).
void sb_describe_at(const void *keys, size_t i, sb_key *k);
/// Describes `keys[base + 1 .. base + n]` (all in its array part) into `e[0..n)`, slots 1..n: the
/// entries whose rank is 0 (the others were described as they were collected).
void sb_describe(lua_State *L, int keys, uint32_t base, sb_key *e, size_t n);
/// The table's array size (slot numbers from it on are nodes).
uint32_t sb_layout_asize(const void *table);
/// The live slots of `table` in slot order into `out` (unless NULL; at most `max`); returns their
/// count, or max + 1 when there are more.
uint32_t sb_layout_slots(const void *table, uint32_t *out, uint32_t max);
/// Checks the cache against its table exactly: every live slot holds the key recorded for it.
/// Returns 1 when so, and the metamethod-name keys found (1 "__gc", 2 "__mode") in `names`.
int sb_layout_verify(const sb_state *s, const void *table, const sb_cache *c, int *names);
/// The metamethod-name keys among keys[base + 1 .. base + n] (a key table): 1 "__gc", 2 "__mode".
int sb_layout_names(const sb_state *s, const void *keys, uint32_t base, uint32_t n);
// (sandbox_layout.h: sb_layout_live, sb_layout_flags, sb_layout_mark, sb_layout_is_key.)

// MARK: Traversal (sandbox_next.c)

int sb_next(lua_State *L);
int sb_pairs(lua_State *L);
/// Pushes the sandbox's `next`, a closure over the sandbox's state, `ids` and `caches` (at those indices),
/// with its caches, the ring's key pool and the collector sentinel that ends its epochs.
void sb_next_push(lua_State *L, int state, int ids, int caches);
/// `__gc` of sb_build's scratch memory.
int sb_scratch_gc(lua_State *L);

// MARK: The rest (sandbox_sort.c, sandbox_load.c)

int sb_sort(lua_State *L);
int sb_load(lua_State *L);
int sb_dump(lua_State *L);
int sb_warn(lua_State *L);
int sb_check_gc(lua_State *L, int mt, int arg);
int sb_getinfo(lua_State *L);
int sb_debug_setmetatable(lua_State *L);
int sb_upvalue(lua_State *L);
int sb_upvaluejoin(lua_State *L);
int sb_cocreate(lua_State *L);
int sb_cowrap(lua_State *L);

#endif
