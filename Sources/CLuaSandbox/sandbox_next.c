// `next` and `pairs` (sandbox_private.h): keys in the documented order (sandbox_order.c), objects
// numbered in the order stackplay first named them (tostring, print, %s/%p, or the traversal that
// first met it). Design:
//   * A table's keys, sorted once, are a cache (sb_cache): the keys in the table's slot order in a
//     Lua table (which keeps them alive, so that an address in it names one object), the sorted
//     places, and where each key sat in the table. Tables of at most SB_SMALL keys are sorted into
//     a ring of SB_RING entries inside the sandbox's state, their keys in one pool (weak in values),
//     with no allocation: a freshly built small table costs a C sort. Bigger tables get a userdata
//     of their own, found through `caches` (weak in keys and values).
//   * A cache is never trusted on a guess: next(t, nil) checks it against the table exactly (every
//     live slot must hold the key recorded for that slot: sb_layout_verify; without the layout,
//     lua_next's keys must be a subsequence of the recorded ones), then marks the table in its
//     flags (sandbox_scan.c: Lua clears that mark when any key is inserted). While the mark holds,
//     the table has no key the cache lacks and every recorded key is in its slot, so next(t, k)
//     answers from the cache with no check and next(t) from the first key not yet gone; once a key
//     was inserted, next(t, k) checks again (a traversal abandoned, keys added, then next(t, k)
//     sees them), at most once per `n` steps since the last next(t) (inserting during a traversal
//     is undefined by the manual: this keeps that case linear).
//   * Tables built alike share a sort: before sorting a small table, a ring entry whose traversal
//     ended (hint 0) and whose recorded keys sit in exactly this table's slots (sb_layout_verify,
//     the same check as above) is taken over for it. The order depends on the keys only.
//   * next(t, k) finds k at the cache's hint (the key it returned last) in O(1), else by binary
//     search, then returns the first later key still present in t: fields assigned nil during the
//     traversal are skipped, as the manual allows. A key not in the cache is checked with the raw
//     lua_next (stock's "invalid key to 'next'"); a live key newer than the cache sorts again.
//     On a marked table a number or boolean value is copied from its slot (sb_layout_push_plain,
//     checked at install by sb_values_match, sandbox_scan.c); any other value is looked up.
//   * Lifetime: a big cache used since the last collection cycle is kept alive through the next
//     one (`live`, weak in keys, dropped by the sentinel's finalizer at the end of each cycle),
//     then only weakly: a collection step inside a loop never sorts again, and a traversal stopped
//     early holds nothing alive after two cycles. The ring's pool holds its keys weakly (strings,
//     which no collection can show, stay until the entry is reused).
#include "sandbox_layout.h"

#include <lauxlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// `next`'s own upvalues, after the sandbox's state (1) and `ids` (2).
#define SB_NEXT_CACHES 3   // table -> its big cache, weak in keys and values
#define SB_NEXT_LIVE 4     // table -> its big cache, used this cycle; weak in keys; nil until needed
#define SB_NEXT_LAST 5     // the big cache of sb_state.last (kept alive until the cycle ends)
#define SB_NEXT_KEYS 6     // the key table of sb_state.last (its own, or the pool)
#define SB_NEXT_POOL 7     // the ring's keys, SB_SMALL per entry, weak in values
#define SB_NEXT_SENTINEL 8 // the sentinel's metatable
#define SB_NEXT_UPVALUES 8

/// Scratch memory from the state's allocator (counted by the memory budget, no work for the
/// garbage collector), freed by sb_build_big or, after an error, by this userdata's `__gc`.
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

// MARK: The collector's cycles

/// Arms a sentinel: an empty userdata whose finalizer (sb_sentinel_gc) runs at the end of the next
/// collection cycle that finds it unreachable. `mt`: the sentinel's metatable.
static void sb_arm(lua_State *L, sb_state *s, int mt) {
    mt = lua_absindex(L, mt);
    lua_newuserdatauv(L, 0, 0);
    lua_pushvalue(L, mt);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    s->sentinel = 1;
}

/// The end of a collection cycle: a new epoch. `next` lets go of its last cache and of `live` (what
/// was used in the cycle survived it), and a new sentinel waits for the next cycle (an allocation:
/// if it fails, the next slow `next` arms one). Upvalues: the sandbox's state, `next`.
static int sb_sentinel_gc(lua_State *L) {
    sb_state *s = (sb_state *)lua_touserdata(L, lua_upvalueindex(1));
    s->sentinel = 0;
    s->epoch++;
    s->last = NULL;
    for (int i = SB_NEXT_LIVE; i <= SB_NEXT_KEYS; i++) {
        lua_pushnil(L);
        lua_setupvalue(L, lua_upvalueindex(2), i);
    }
    if (lua_getmetatable(L, 1)) sb_arm(L, s, -1);
    return 0;
}

// MARK: Finding, checking and adopting a cache

static int sb_trusted(const sb_state *s, const sb_cache *c, const void *t) {
    return s->trust && c->trust && c->table == t && sb_layout_flags(t, c->trust) == c->trust;
}

/// Keeps the big cache at `cache` alive through the end of this cycle (`live`).
static void sb_keep(lua_State *L, sb_state *s, sb_cache *c, int cache) {
    uint32_t epoch = s->epoch;
    if (c->small || c->epoch == epoch + 1) return;
    cache = lua_absindex(L, cache);
    if (lua_type(L, lua_upvalueindex(SB_NEXT_LIVE)) != LUA_TTABLE) {
        lua_createtable(L, 0, 1);
        lua_getmetatable(L, lua_upvalueindex(SB_IDS)); // weak in keys
        lua_setmetatable(L, -2);
        lua_replace(L, lua_upvalueindex(SB_NEXT_LIVE));
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, cache);
    lua_rawset(L, lua_upvalueindex(SB_NEXT_LIVE));
    c->epoch = epoch + 1; // an epoch that ended meanwhile keeps it again at its next use
}

/// Makes `c` (the userdata at `cache`, nil for a ring entry; its key table at `keys`) `next`'s
/// last cache, kept alive while it is.
static void sb_use(lua_State *L, sb_state *s, sb_cache *c, int cache, int keys) {
    if (s->last != c) {
        lua_pushvalue(L, cache);
        lua_replace(L, lua_upvalueindex(SB_NEXT_LAST));
        lua_pushvalue(L, keys);
        lua_replace(L, lua_upvalueindex(SB_NEXT_KEYS));
        s->last = c;
    }
    if (c->small) {
        c->tick = ++s->tick; // the ring gives up the entry used longest ago
    } else {
        sb_keep(L, s, c, cache);
    }
}

/// The cache of the table at 1, pushed at 3 (its userdata, or nil for a ring entry) and 4 (its key
/// table); NULL, with nothing pushed, when it has none. The stack holds 2 values.
static sb_cache *sb_lookup(lua_State *L, sb_state *s) {
    const void *t = lua_topointer(L, 1);
    sb_cache *c = s->last;
    if (c && c->table == t) {
        lua_pushvalue(L, lua_upvalueindex(SB_NEXT_LAST));
        lua_pushvalue(L, lua_upvalueindex(SB_NEXT_KEYS));
        return c;
    }
    for (int i = 0; i < SB_RING; i++) {
        if (s->ring[i].c.table != t) continue;
        lua_pushnil(L);
        lua_pushvalue(L, lua_upvalueindex(SB_NEXT_POOL));
        return &s->ring[i].c;
    }
    if (s->trust && !sb_layout_flags(t, SB_FLAG_SANDBOX)) return NULL; // never adopted: no big cache
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(SB_NEXT_CACHES)) == LUA_TUSERDATA) {
        c = (sb_cache *)lua_touserdata(L, -1);
        if (c->table == t) {
            lua_getiuservalue(L, -1, 1);
            return c;
        }
    }
    lua_settop(L, 2);
    return NULL;
}

/// Whether the table at 1 has no live key that the cache (key table at `keys`) lacks, every such
/// key in the slot recorded for it (layout); `names`: its "__gc" (1) and "__mode" (2) keys.
static int sb_check(lua_State *L, const sb_state *s, const sb_cache *c, int keys, int *names) {
    *names = 3;
    if (s->layout) return sb_layout_verify(s, lua_topointer(L, 1), c, names);
    uint32_t i = 0; // lua_next's keys must come in the recorded (slot) order, some gone
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        int same = 0;
        while (!same && i < c->n) {
            lua_rawgeti(L, keys, (lua_Integer)(c->base + ++i));
            same = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        }
        if (!same) {
            lua_pop(L, 1);
            return 0;
        }
    }
    return 1;
}

/// The cache `c` (at 3, key table at 4) describes the table at 1 now: marks the table (the trust
/// bits: the sandbox's and that of a metamethod whose name is no key), unmarks every other cache
/// naming it, and makes it `next`'s last.
static void sb_adopt(lua_State *L, sb_state *s, sb_cache *c, int names) {
    const void *t = lua_topointer(L, 1);
    int marked = s->trust && sb_layout_flags(t, SB_FLAG_SANDBOX);
    for (int i = 0; i < SB_RING; i++)
        if (&s->ring[i].c != c && s->ring[i].c.table == t) s->ring[i].c.table = NULL;
    if (c->small && marked) { // a big cache made before would claim it
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        lua_rawset(L, lua_upvalueindex(SB_NEXT_CACHES));
    }
    c->table = t;
    c->first = 1;
    c->credit = c->n;
    c->trust = 0;
    if (s->trust) {
        unsigned char bit = !(names & 1) ? 0x04 : !(names & 2) ? 0x08 : 0; // TM_GC's, TM_MODE's
        if (bit) {
            c->trust = (unsigned char)(SB_FLAG_SANDBOX | bit);
            sb_layout_mark(t, c->trust);
        }
    }
    sb_use(L, s, c, 3, 4);
}

// MARK: Sorting

/// Sorts the keys of the table at 1 (at most SB_SMALL, in `slots`) into the ring's least recently
/// used entry; pushes nil and the pool at 3 and 4.
static sb_cache *sb_build_small(lua_State *L, sb_state *s, const uint32_t *slots, uint32_t n) {
    sb_ring_entry *e = &s->ring[0];
    for (int i = 1; i < SB_RING; i++)
        if (s->ring[i].c.tick < e->c.tick) e = &s->ring[i];
    uint32_t base = (uint32_t)(e - s->ring) * SB_SMALL, old = e->c.n;
    if (s->last == &e->c) s->last = NULL;
    memset(&e->c, 0, sizeof e->c);
    e->c.small = 1;
    e->c.slot = e->slot;
    e->c.order = e->order;
    e->c.base = base;
    e->c.tick = ++s->tick;
    lua_settop(L, 2);
    lua_pushnil(L);
    lua_pushvalue(L, lua_upvalueindex(SB_NEXT_POOL));
    e->c.keys = lua_topointer(L, 4);
    uint32_t i = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (i == n) {
            lua_pop(L, 2);
            break;
        }
        lua_copy(L, -2, -1);
        lua_rawseti(L, 4, (lua_Integer)(base + ++i));
    }
    for (uint32_t j = i + 1; j <= old; j++) { // what the entry held before
        lua_pushnil(L);
        lua_rawseti(L, 4, (lua_Integer)(base + j));
    }
    sb_key keys[SB_SMALL];
    for (uint32_t j = 0; j < i; j++) keys[j].rank = 0;
    sb_describe(L, 4, base, keys, i);
    for (uint32_t a = 1; a < i; a++) { // insertion sort: at most SB_SMALL keys
        sb_key k = keys[a];
        uint32_t b = a;
        for (; b > 0 && sb_compare(&keys[b - 1], &k) > 0; b--) keys[b] = keys[b - 1];
        keys[b] = k;
    }
    for (uint32_t j = 0; j < i; j++) {
        e->order[j] = keys[j].slot;
        e->slot[j] = slots[j];
    }
    e->c.n = i;
    e->c.asize = sb_layout_asize(lua_topointer(L, 1));
    return &e->c;
}

/// Sorts the keys of the table at 1 (`count` of them) into a new big cache, stored in `caches`;
/// pushes it and its key table at 3 and 4. The key table is filled in the table's slot order by one
/// raw traversal, which also describes each key for the sort while its memory is fresh (no
/// allocation, so no collection, while it runs: the scratch memory is taken before).
static sb_cache *sb_build_big(lua_State *L, sb_state *s, uint32_t count) {
    if (count >= (1u << 28)) luaL_error(L, "table too big to traverse");
    lua_settop(L, 2);
    size_t capacity = count > 0 ? count : 1;
    sb_cache *c = (sb_cache *)lua_newuserdatauv(L, sizeof(sb_cache) + 2 * capacity * sizeof(uint32_t), 1);
    memset(c, 0, sizeof *c);
    c->slot = (uint32_t *)(c + 1);
    c->order = c->slot + capacity;
    lua_createtable(L, (int)count, 0);
    lua_pushvalue(L, 4);
    lua_setiuservalue(L, 3, 1);
    c->keys = lua_topointer(L, 4);
    sb_scratch *scratch = (sb_scratch *)lua_newuserdatauv(L, sizeof(sb_scratch), 0);
    scratch->p = NULL;
    scratch->size = 0;
    lua_getiuservalue(L, lua_upvalueindex(1), 1);
    lua_setmetatable(L, -2);
    sb_key *entries = (sb_key *)sb_scratch_grow(L, scratch, 2 * capacity * sizeof(sb_key));
    // a collection since `count` may have cleared entries of a weak table, never added any
    const void *t = lua_topointer(L, 1);
    if (s->layout) {
        c->asize = sb_layout_asize(t);
        count = sb_layout_slots(t, c->slot, count);
    }
    uint32_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (n == count) luaL_error(L, "table changed while traversing it");
        lua_copy(L, -2, -1);
        lua_rawseti(L, 4, (lua_Integer)++n);
        entries[n - 1].rank = 0;
        if (s->layout) sb_describe_at(c->keys, n - 1, &entries[n - 1]);
    }
    sb_describe(L, 4, 0, entries, n); // the objects: their numbers (a string's bytes stay in `keys`)
    sb_sort_entries(entries, entries + capacity, n);
    for (uint32_t j = 0; j < n; j++) c->order[j] = entries[j].slot;
    c->n = n;
    sb_scratch_free(L, scratch);
    lua_settop(L, 4);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 3);
    lua_rawset(L, lua_upvalueindex(SB_NEXT_CACHES));
    return c;
}

/// A ring entry whose traversal ended (its hint is 0) and whose recorded keys are exactly those of
/// the table at 1, in the same slots (`count` live ones at `slots`; sb_layout_verify compares every
/// slot's key with the recorded one): the same keys, so the same order. Many tables built alike
/// (records of one shape) share one sort. Returns it adopted for the table, with nil and the pool
/// pushed at 3 and 4; NULL, with nothing pushed, when no entry fits.
static sb_cache *sb_reuse_small(lua_State *L, sb_state *s, const uint32_t *slots, uint32_t count) {
    const void *t = lua_topointer(L, 1);
    for (int i = 0; i < SB_RING; i++) {
        sb_cache *c = &s->ring[i].c;
        int names;
        if (c->n != count || c->hint != 0 || c->slot[0] != slots[0] || c->slot[count - 1] != slots[count - 1])
            continue;
        if (!sb_layout_verify(s, t, c, &names)) continue;
        lua_settop(L, 2);
        lua_pushnil(L);
        lua_pushvalue(L, lua_upvalueindex(SB_NEXT_POOL));
        sb_adopt(L, s, c, names);
        return c;
    }
    return NULL;
}

/// Sorts the keys of the table at 1 (stack: 2 values) into a cache, adopted; pushes it at 3 and 4.
static sb_cache *sb_build(lua_State *L, sb_state *s) {
    const void *t = lua_topointer(L, 1);
    uint32_t slots[SB_SMALL], count;
    sb_cache *c;
    if (s->trust && (count = sb_layout_slots(t, slots, SB_SMALL)) <= SB_SMALL) {
        if (count > 0 && (c = sb_reuse_small(L, s, slots, count)) != NULL) return c;
        c = sb_build_small(L, s, slots, count);
    } else {
        if (s->layout) {
            count = sb_layout_slots(t, NULL, UINT32_MAX - 1);
        } else {
            count = 0;
            lua_pushnil(L);
            while (lua_next(L, 1)) {
                lua_pop(L, 1);
                count++;
            }
        }
        c = sb_build_big(L, s, count);
    }
    sb_adopt(L, s, c, s->trust ? sb_layout_names(s, c->keys, c->base, c->n) : 3);
    return c;
}

// MARK: Traversal

/// Returns from `next` the key at the first sorted place after `place` still in the table at 1,
/// and its value; nil at the end. `keys`: the index of the cache's key table. `trusted`: the table
/// is marked for `c` (sb_trusted), so a recorded key is present when its slot holds a value.
static inline __attribute__((always_inline)) int sb_after(lua_State *L, sb_cache *c, int keys, uint32_t place, int trusted) {
    for (uint32_t j = place + 1; j <= c->n; j++) {
        uint32_t i = c->order[j - 1];
        if (trusted) {
            uint32_t slot = c->slot[i - 1];
            if (!sb_layout_live(c->table, c->asize, slot)) continue;
            lua_rawgeti(L, keys, (lua_Integer)(c->base + i));
            if (sb_layout_push_plain(L, c->table, c->asize, slot)) {
                // a number or a boolean: copied from its slot
            } else if (slot < c->asize) {
                lua_rawgeti(L, 1, (lua_Integer)slot + 1);
            } else {
                lua_pushvalue(L, -1);
                lua_rawget(L, 1);
            }
        } else {
            lua_rawgeti(L, keys, (lua_Integer)(c->base + i));
            lua_pushvalue(L, -1);
            if (lua_rawget(L, 1) == LUA_TNIL) {
                lua_pop(L, 2);
                continue;
            }
        }
        c->hint = j;
        if (trusted && j < c->n && !c->small) {
            uint32_t later = c->order[j];
            sb_layout_prefetch(c->table, c->asize, c->keys, c->base + later, c->slot[later - 1]);
        }
        return 2;
    }
    c->hint = 0;
    lua_pushnil(L);
    return 1;
}

/// next(t): the first key not yet gone, from `first` on (trusted), else from the start.
static int sb_first(lua_State *L, sb_cache *c, int keys, int trusted) {
    int r = sb_after(L, c, keys, trusted ? c->first - 1 : 0, trusted);
    if (trusted) c->first = r == 2 ? c->hint : c->n + 1;
    return r;
}

/// The first sorted place whose key is not less than the key at 2; sets `*found` when that key is
/// it.
static uint32_t sb_search(lua_State *L, const sb_cache *c, int keys, int *found) {
    sb_key k, m;
    sb_key_of(L, 2, &k);
    uint32_t lo = 1, hi = c->n + 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        lua_rawgeti(L, keys, (lua_Integer)(c->base + c->order[mid - 1]));
        sb_key_of(L, -1, &m);
        int order = sb_compare(&m, &k);
        lua_pop(L, 1);
        if (order < 0) lo = mid + 1; else hi = mid;
    }
    *found = 0;
    if (lo <= c->n) {
        lua_rawgeti(L, keys, (lua_Integer)(c->base + c->order[lo - 1]));
        *found = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
    }
    return lo;
}

/// `next` when the fast path cannot answer: finds, checks, sorts as needed.
static int sb_next_slow(lua_State *L, sb_state *s) {
    if (lua_type(L, 1) != LUA_TTABLE) luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (!s->sentinel) sb_arm(L, s, lua_upvalueindex(SB_NEXT_SENTINEL));
    const void *t = lua_topointer(L, 1);
    if (lua_isnil(L, 2)) {
        sb_cache *c = sb_lookup(L, s);
        if (c && sb_trusted(s, c, t)) {
            sb_use(L, s, c, 3, 4);
            return sb_first(L, c, 4, 1);
        }
        if (s->layout ? sb_layout_slots(t, NULL, 0) == 0 : (lua_pushnil(L), !lua_next(L, 1))) {
            lua_pushnil(L); // an empty table: one raw step
            return 1;
        }
        int names;
        if (c) {
            lua_settop(L, 4);
            if (sb_check(L, s, c, 4, &names)) {
                sb_adopt(L, s, c, names);
            } else {
                c = NULL;
            }
        }
        if (!c) c = sb_build(L, s);
        return sb_first(L, c, 4, sb_trusted(s, c, t));
    }
    if (lua_type(L, 2) == LUA_TNUMBER && !lua_isinteger(L, 2)) {
        // A float with an integer value is never a key (tables keep it as the integer): stock's
        // lua_next raises "invalid key to 'next'" for it, as for any key not in the table.
        int integral;
        (void)lua_tointegerx(L, 2, &integral);
        if (integral) lua_next(L, 1);
    }
    sb_cache *c = sb_lookup(L, s);
    if (!c) {
        c = sb_build(L, s);
    } else if (!sb_trusted(s, c, t) && c->credit >= c->n) {
        // keys were inserted since the check (or, without the mark, may have been): check again,
        // so that a traversal abandoned, keys added, then next(t, k) sees them
        int names;
        c->credit -= c->n;
        if (sb_check(L, s, c, 4, &names)) {
            uint64_t credit = c->credit;
            sb_adopt(L, s, c, names);
            c->credit = credit;
        } else {
            c = sb_build(L, s);
        }
    } else {
        sb_use(L, s, c, 3, 4);
    }
    c->credit++;
    int trusted = sb_trusted(s, c, t);
    if (c->hint >= 1 && c->hint <= c->n) {
        lua_rawgeti(L, 4, (lua_Integer)(c->base + c->order[c->hint - 1]));
        int same = lua_rawequal(L, -1, 2);
        lua_pop(L, 1);
        if (same) return sb_after(L, c, 4, c->hint, trusted);
    }
    int found;
    uint32_t place = sb_search(L, c, 4, &found);
    if (found) return sb_after(L, c, 4, place, trusted);
    // Not a key of the cache: stock's check (raises "invalid key to 'next'" for a key that was
    // never in the table), and a live key newer than the cache sorts the keys again.
    lua_pushvalue(L, 2);
    if (lua_next(L, 1)) lua_pop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, 1) != LUA_TNIL) {
        lua_settop(L, 2);
        c = sb_build(L, s);
        trusted = sb_trusted(s, c, t);
        place = sb_search(L, c, 4, &found);
        return sb_after(L, c, 4, found ? place : place - 1, trusted);
    }
    lua_pop(L, 1);
    return sb_after(L, c, 4, place - 1, trusted);
}

int sb_next(lua_State *L) {
    sb_state *s = sb_state_of(L);
    sb_cache *c = s->last;
    // The fast path: the table `next` used last, marked (no key inserted since its check).
    if (c != NULL && lua_type(L, 1) == LUA_TTABLE && c->table == lua_topointer(L, 1) && c->trust &&
        sb_layout_flags(c->table, c->trust) == c->trust) {
        int keys = lua_upvalueindex(SB_NEXT_KEYS);
        const void *p = lua_topointer(L, 2); // an object's address, a light userdata or C function's
        if (p == NULL) {
            int type = lua_type(L, 2);
            if (type <= LUA_TNIL) return sb_first(L, c, keys, 1);
            if (c->hint >= 1 && sb_layout_is_key(L, 2, type, c->keys, c->base + c->order[c->hint - 1])) {
                c->credit++;
                return sb_after(L, c, keys, c->hint, 1);
            }
        } else if (c->hint >= 1 && sb_layout_is_object(p, c->keys, c->base + c->order[c->hint - 1])) {
            c->credit++;
            return sb_after(L, c, keys, c->hint, 1);
        }
    }
    return sb_next_slow(L, s);
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

void sb_next_push(lua_State *L, int state, int ids, int caches) {
    state = lua_absindex(L, state);
    sb_state *s = (sb_state *)lua_touserdata(L, state);
    lua_pushliteral(L, "__gc"); // fixed strings: never collected, never moved
    s->tm_gc = lua_topointer(L, -1);
    lua_pushliteral(L, "__mode");
    s->tm_mode = lua_topointer(L, -1);
    lua_pop(L, 2);
    s->trust = s->layout && sb_trust_matches(L) && sb_values_match(L);
    lua_pushvalue(L, state);
    lua_pushvalue(L, ids);
    lua_pushvalue(L, caches);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_createtable(L, SB_RING * SB_SMALL, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_createtable(L, 0, 1);
    lua_pushcclosure(L, sb_next, SB_NEXT_UPVALUES);
    lua_getupvalue(L, -1, SB_NEXT_SENTINEL);
    lua_pushvalue(L, state);
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, sb_sentinel_gc, 2);
    lua_setfield(L, -2, "__gc");
    sb_arm(L, s, -1);
    lua_pop(L, 1);
}
