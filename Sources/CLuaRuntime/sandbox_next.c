// `next` and `pairs` (sandbox_private.h): keys in the documented order (sandbox_order.c), objects
// numbered in the order stackplay first named them (tostring, print, %s/%p, or the traversal that
// first met it). Design:
//   * A table's keys, sorted once, are a cache: a userdata (count, fingerprint, hint) whose user
//     value is the array of the keys in order. `caches` holds it weakly in keys AND values (and
//     at [1] the cache used last, so a traversal finds it without hashing), so the cache lives at
//     most until the next garbage collection: a traversal stopped early holds nothing alive (a
//     weak table's entries can go; 10^6 keys hold nothing after the next cycle). A traversal that
//     outlives its cache rebuilds it and goes on from where it was (binary search).
//   * Building: the keys are counted (sb_scan), one raw lua_next pass collects them into an array
//     of that size and describes each for the sort as it goes (sandbox_scan.c); the sort (a radix
//     sort on the bits in which the keys' first 8 bytes or values differ, then exact comparisons
//     where those tie) works on scratch memory from the state's allocator, counted by the memory
//     budget and freed at once; then the array is permuted into order in place.
//   * next(t, k) finds k at the cache's hint (the key it returned last) in O(1), else by binary
//     search, then returns the first later key still present in t (rawget): fields assigned nil
//     during the traversal are skipped, as the manual allows. A key not in the cache is checked
//     with the raw lua_next (stock's "invalid key to 'next'"); a live key newer than the cache
//     rebuilds it.
//   * next(t, nil) on an empty table is one raw lua_next. Otherwise it validates the cache by one
//     linear pass (sb_scan: the key count and a fingerprint, the sum of a bijective 64-bit mix of
//     each key's identity: its value for numbers and booleans, its object otherwise, which cannot
//     be reused while the cache holds the key), and sorts only when the keys changed. That pass
//     reads the table's slots, not its keys (about 0.3 ms for 10^5 keys): so a traversal of an
//     unchanged table costs one cheap pass more than stock's, a changed one a C sort.
#include "sandbox_private.h"

#include <lauxlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sb_cache {
    const void *table;  // the table's object (lua_topointer), for the last-used check
    lua_Integer n;      // keys in the array (some may have left the table since)
    uint64_t print;     // the fingerprint of the keys when sorted
    lua_Integer hint;   // the place of the key `next` returned last; 0: none
    const void *hint_key; // that key's object (lua_topointer), NULL for numbers and booleans
    const void *layout; // the key array's object when tables are read by their layout, else NULL
    lua_Integer gone;   // the first `gone` keys in order were found gone from the table (sb_gone)
    uint64_t gone_print; // the fingerprint of those keys
} sb_cache;

/// Scratch memory from the state's allocator (counted by the memory budget, no work for the
/// garbage collector), freed by sb_build or, after an error, by this userdata's `__gc`.
typedef struct sb_scratch {
    void *p;
    size_t size;
} sb_scratch;

static void sb_scratch_free(lua_State *L, sb_scratch *s) {
    if (!s->p) return;
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    alloc(ud, s->p, s->size, 0);
    s->p = NULL;
    s->size = 0;
}

int sb_scratch_gc(lua_State *L) {
    sb_scratch_free(L, (sb_scratch *)lua_touserdata(L, 1));
    return 0;
}

/// Grows the scratch block to `size` bytes, keeping its contents.
static void *sb_scratch_grow(lua_State *L, sb_scratch *s, size_t size) {
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    void *p = alloc(ud, s->p, s->p ? s->size : 0, size);
    if (!p) luaL_error(L, "not enough memory");
    s->p = p;
    s->size = size;
    return p;
}

/// Puts the key array at `keys` in the order of `e` (e[i].slot: the place of the (i+1)-th key),
/// in place, one cycle of the permutation at a time; clears the slots. So `next` reads its keys
/// one after the other, not all over the array.
static void sb_permute(lua_State *L, int keys, sb_key *e, size_t n) {
    for (size_t start = 0; start < n; start++) {
        if (e[start].slot == 0) continue;
        if (e[start].slot == start + 1) {
            e[start].slot = 0;
            continue;
        }
        lua_rawgeti(L, keys, (lua_Integer)start + 1);
        size_t place = start;
        while (e[place].slot != start + 1) {
            size_t from = e[place].slot - 1;
            lua_rawgeti(L, keys, (lua_Integer)from + 1);
            lua_rawseti(L, keys, (lua_Integer)place + 1);
            e[place].slot = 0;
            place = from;
        }
        lua_rawseti(L, keys, (lua_Integer)place + 1);
        e[place].slot = 0;
    }
}

/// Sorts the keys of the table at 1 into a new cache, stored in `caches`; pushes the cache and
/// its key array. One pass counts the keys (sb_scan); one raw traversal collects them into an array
/// of that size (in Lua's order, with no allocation, so no collection, while it runs) and
/// describes them for the sort on scratch memory (objects get their numbers after it,
/// sb_describe); the sorted array then replaces Lua's order (sb_permute).
static sb_cache *sb_build(lua_State *L) {
    uint64_t print;
    lua_Integer count = sb_scan(L, 1, &print);
    if (count >= (1 << 28)) luaL_error(L, "table too big to traverse");
    lua_createtable(L, (int)count, 0);
    int keys = lua_gettop(L);
    sb_scratch *scratch = (sb_scratch *)lua_newuserdatauv(L, sizeof(sb_scratch), 0);
    scratch->p = NULL;
    scratch->size = 0;
    lua_getiuservalue(L, lua_upvalueindex(SB_STATE), 1);
    lua_setmetatable(L, -2);
    int buffer = lua_gettop(L);
    size_t capacity = count > 0 ? (size_t)count : 1;
    sb_key *entries = (sb_key *)sb_scratch_grow(L, scratch, 2 * capacity * sizeof(sb_key));
    // a collection since sb_scan may have cleared entries of a weak table, never added any
    // Each key is described as it is collected, while the key's memory is fresh from lua_next.
    const void *layout = sb_state_of(L)->layout ? lua_topointer(L, keys) : NULL;
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (n == capacity) luaL_error(L, "table changed while traversing it");
        lua_copy(L, -2, -1);
        lua_rawseti(L, keys, (lua_Integer)++n);
        entries[n - 1].rank = 0;
        if (layout) sb_describe_at(layout, n - 1, &entries[n - 1]);
    }
    // a string's bytes stay referenced by `keys`; the fingerprint is sb_scan's unless keys went
    uint64_t described = sb_describe(L, keys, entries, n, n != (size_t)count);
    if (n != (size_t)count) print = described;
    sb_sort_entries(entries, entries + capacity, n);
    sb_permute(L, keys, entries, n);
    sb_cache *c = (sb_cache *)lua_newuserdatauv(L, sizeof(sb_cache), 1);
    c->table = lua_topointer(L, 1);
    c->n = (lua_Integer)n;
    c->print = print;
    c->hint = 0;
    c->hint_key = NULL;
    c->gone = 0;
    c->gone_print = 0;
    c->layout = layout;
    sb_scratch_free(L, scratch);
    lua_pushvalue(L, keys);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, lua_upvalueindex(SB_CACHES));
    lua_pushvalue(L, -1);
    lua_rawseti(L, lua_upvalueindex(SB_CACHES), 1);
    lua_pushvalue(L, keys);
    lua_remove(L, buffer);
    lua_remove(L, keys);
    return c;
}

/// Pushes the i-th key (1-based) in order of the cache `c` whose key array is at `keys`.
static void sb_push_key(lua_State *L, const sb_cache *c, int keys, lua_Integer i) {
    (void)c;
    lua_rawgeti(L, keys, i);
}

/// Pushes the cache of the table at 1 and its key array and returns it, or pushes nothing and
/// returns NULL when it has none. `caches[1]` is the cache used last (weak as every value there:
/// it goes with its table, so the object it names cannot be another table at the same address).
static sb_cache *sb_cached(lua_State *L) {
    if (lua_rawgeti(L, lua_upvalueindex(SB_CACHES), 1) == LUA_TUSERDATA) {
        sb_cache *c = (sb_cache *)lua_touserdata(L, -1);
        if (c->table == lua_topointer(L, 1)) {
            lua_getiuservalue(L, -1, 1);
            return c;
        }
    }
    lua_pop(L, 1);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(SB_CACHES)) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        return NULL;
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, lua_upvalueindex(SB_CACHES), 1);
    lua_getiuservalue(L, -1, 1);
    return (sb_cache *)lua_touserdata(L, -2);
}

/// The first place in the sorted `keys` whose key is not less than the key at 2; sets `*found`
/// when that key is it.
static lua_Integer sb_search(lua_State *L, const sb_cache *c, int keys, int *found) {
    lua_Integer n = c->n;
    sb_key k, m;
    sb_key_of(L, 2, &k);
    lua_Integer lo = 1, hi = n + 1;
    while (lo < hi) {
        lua_Integer mid = lo + (hi - lo) / 2;
        sb_push_key(L, c, keys, mid);
        sb_key_of(L, -1, &m);
        int c = sb_compare(&m, &k);
        lua_pop(L, 1);
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    *found = 0;
    if (lo <= n) {
        sb_push_key(L, c, keys, lo);
        *found = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
    }
    return lo;
}

/// Returns from `next`: the first key at a place after `place` still in the table, and its value.
static int sb_next_after(lua_State *L, sb_cache *c, int keys, lua_Integer place) {
    for (lua_Integer j = place + 1; j <= c->n; j++) {
        sb_push_key(L, c, keys, j);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL) {
            c->hint = j;
            c->hint_key = lua_topointer(L, -2);
            if (c->layout && j < c->n) sb_prefetch(c->table, c->layout, (size_t)j, (size_t)c->n);
            return 2;
        }
        lua_pop(L, 2);
    }
    c->hint = 0;
    c->hint_key = NULL;
    lua_pushnil(L);
    return 1;
}

/// Counts the keys in order, from the first not yet found gone, that are gone from the table at 1
/// (up to the first one still there), into `c->gone` and `c->gone_print`. So clearing a table in
/// order during a traversal, checking `next(t) == nil` at each step, sorts nothing again: the
/// table's keys are the cache's but those first ones when the count and fingerprint say so.
static void sb_gone(lua_State *L, sb_cache *c, int keys) {
    while (c->gone < c->n) {
        lua_rawgeti(L, keys, c->gone + 1);
        int there = lua_rawget(L, 1) != LUA_TNIL;
        lua_pop(L, 1);
        if (there) return;
        c->gone_print += sb_key_term(L, keys, c->gone + 1);
        c->gone++;
    }
}

int sb_next(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_gettop(L) != 2) lua_settop(L, 2);
    if (lua_isnil(L, 2)) {
        lua_pushnil(L);
        if (!lua_next(L, 1)) {
            lua_pushnil(L);
            return 1;
        }
        lua_settop(L, 2);
        sb_cache *c = sb_cached(L);
        lua_Integer from = 0;
        if (c) {
            uint64_t print;
            lua_Integer n = sb_scan(L, 1, &print);
            if (n == c->n && print == c->print) {
                c->gone = 0;
                c->gone_print = 0;
            } else if (sb_gone(L, c, lua_gettop(L)), n + c->gone == c->n && print + c->gone_print == c->print) {
                from = c->gone; // the keys are the cached ones but the first `gone`
            } else {
                lua_settop(L, 2);
                c = NULL;
            }
        }
        if (!c) c = sb_build(L);
        return sb_next_after(L, c, lua_gettop(L), from);
    }
    if (lua_type(L, 2) == LUA_TNUMBER && !lua_isinteger(L, 2)) {
        // A float with an integer value is never a key (tables keep it as the integer): stock's
        // lua_next raises "invalid key to 'next'" for it, as for any key not in the table.
        int integral;
        (void)lua_tointegerx(L, 2, &integral);
        if (integral) lua_next(L, 1);
    }
    sb_cache *c = sb_cached(L);
    if (!c) c = sb_build(L);
    int keys = lua_gettop(L);
    if (c->hint_key != NULL) {
        if (lua_topointer(L, 2) == c->hint_key) return sb_next_after(L, c, keys, c->hint);
    } else if (c->hint >= 1 && c->hint <= c->n) {
        sb_push_key(L, c, keys, c->hint);
        int same = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
        if (same) return sb_next_after(L, c, keys, c->hint);
    }
    int found;
    lua_Integer place = sb_search(L, c, keys, &found);
    if (found) return sb_next_after(L, c, keys, place);
    // Not a key of the cache: stock's check (raises "invalid key to 'next'" for a key that was
    // never in the table), and a live key newer than the cache sorts the keys again.
    lua_pushvalue(L, 2);
    if (lua_next(L, 1)) lua_pop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, 1) != LUA_TNIL) {
        lua_settop(L, 2);
        c = sb_build(L);
        keys = lua_gettop(L);
        place = sb_search(L, c, keys, &found);
        return sb_next_after(L, c, keys, found ? place : place - 1);
    }
    lua_pop(L, 1);
    return sb_next_after(L, c, keys, place - 1);
}

static int sb_pairs_continue(lua_State *L, int status, lua_KContext k) {
    (void)L; (void)status; (void)k;
    return 3;
}

int sb_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) {
        lua_pushvalue(L, lua_upvalueindex(SB_NEXT));
        lua_pushvalue(L, 1);
        lua_pushnil(L);
    } else {
        lua_pushvalue(L, 1);
        lua_callk(L, 1, 3, 0, sb_pairs_continue);
    }
    return 3;
}
