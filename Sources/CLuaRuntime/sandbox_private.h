// What the sandbox's files share, inside CLuaRuntime (not its public header): the state and the
// upvalues every replacement closure has, and the functions one file gives another.
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
#include "sandbox_time.h"

#include <stddef.h>
#include <stdint.h>

typedef struct sb_state {
    lua_Integer last_id; // the last object number given
    int warn_on;         // warn("@on") was called (off by default, as in lua.c)
    unsigned int pivot;  // table.sort's fixed pivot sequence for unbalanced partitions
    int layout;          // sandbox_scan.c reads tables' layout (checked at install)
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

// MARK: One pass over a table (sandbox_scan.c)

/// Whether this Lua's tables have the layout sandbox_scan.c reads (checked on a probe table).
int sb_layout_matches(lua_State *L);
/// Counts the keys of the table at `t` and sums their fingerprint terms.
lua_Integer sb_scan(lua_State *L, int t, uint64_t *print);
/// Describes the key at `idx` for the sort (may give an object its number).
void sb_key_of(lua_State *L, int idx, sb_key *k);
/// Describes `keys[i + 1]` (the table keys, read by its layout: lua_topointer of a key array) into
/// `k`, slot i + 1, but for an object (rank 0: sb_describe's work).
void sb_describe_at(const void *keys, size_t i, sb_key *k);
/// Describes `keys[1..n]` (a key array, all in its array part) into `e[0..n)`, slots 1..n, where
/// sb_describe_at did not (all of them without the layout), and returns their fingerprint (as
/// sb_scan sums it) if `print_wanted`, else 0.
uint64_t sb_describe(lua_State *L, int keys, sb_key *e, size_t n, int print_wanted);
/// The fingerprint term of `keys[i]` (a key array, as sb_describe's).
uint64_t sb_key_term(lua_State *L, int keys, lua_Integer i);
/// A hint to the processor, from the layout: the key after `keys[i + 1]` (0-based `i`: the next
/// key `next` will return) is read soon, and so is the node of `table` where `keys[i + 1]`, a
/// short string, is looked up. `n`: the keys in the array.
void sb_prefetch(const void *table, const void *keys, size_t i, size_t n);

// MARK: Traversal (sandbox_next.c)

int sb_next(lua_State *L);
int sb_pairs(lua_State *L);
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
