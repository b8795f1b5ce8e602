// The sandbox's deterministic library functions (declared in include/sandbox.h). Everything a
// script can reach gives the same values on every run and machine, and only what must change
// changes: each function here is stock Lua 5.4's, or calls stock's own C function in the same C
// frame (so `bad argument #2 to 'format'` names what the script called, at the script's line),
// and differs only where stock would show an address, the clock or the hash order.
//
// Every function is a C closure with the same upvalues:
//   1 the sandbox's state (sb_state: the last object number given, warn's switch; its user value
//     is the metatable of sb_build's scratch memory),
//   2 `ids`: object -> its number, weak-keyed (tables, functions, coroutines, userdata; strings
//     shown by %p too),
//   3 `caches`: table -> its sorted key cache (see "Traversal" below), weak in keys and values,
//   4 the sandbox's `next` (for `pairs`),
//   5 the function that appends to the test's captured output (`print`, `warn`),
//   6 the stock function replaced (a C function called in this frame), or nil.
//
// Traversal. `next` and `pairs` visit keys in one documented order: numbers ascending (integers
// and floats together), then strings in byte order, then false, true, then every other key by its
// object number (given in the order stackplay first named the object: tostring, print, %s/%p, or
// the traversal that first met it). Design:
//   * A table's keys, sorted once, are a cache: a userdata (count, fingerprint, hint, and the
//     sorted order as places in the key array) whose user value is the array of keys in Lua's
//     raw order. `caches` holds it weakly in keys AND values (and at [1] the cache used last, so
//     a traversal finds it without hashing), so the cache lives at most until the next garbage
//     collection: a traversal stopped early holds nothing alive (a weak table's entries can go;
//     10^6 keys hold nothing after the next cycle). A traversal that outlives its cache rebuilds
//     it and goes on from where it was (binary search).
//   * Building: one raw lua_next pass collects the keys; the sort (a radix sort on each key's
//     first 8 bytes or its value, then exact comparisons where those tie) works on scratch memory
//     from the state's allocator, counted by the memory budget and freed at once.
//   * next(t, k) finds k at the cache's hint (the key it returned last) in O(1), else by binary
//     search, then returns the first later key still present in t (rawget): fields assigned nil
//     during the traversal are skipped, as the manual allows. A key not in the cache is checked
//     with the raw lua_next (stock's "invalid key to 'next'"); a live key newer than the cache
//     rebuilds it.
//   * next(t, nil) on an empty table is one raw lua_next. Otherwise it validates the cache by one
//     linear scan (the key count and a fingerprint: the sum of a bijective 64-bit mix of each
//     key's identity, its value for numbers and booleans, its object pointer otherwise, which
//     cannot be reused while the cache holds the key), and sorts only when the keys changed.
//     So a traversal of an unchanged table costs two linear passes, a changed one a C sort.
//     (Lua's C API cannot tell in less than a traversal whether a table's keys changed, and the
//     first key in order depends on all of them: next(t) on a non-empty table is that one scan.)
#include "CLuaRuntime.h"
#include "sandbox_time.h"

#include <lauxlib.h>
#include <lualib.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sb_state {
    lua_Integer last_id; // the last object number given
    int warn_on;         // warn("@on") was called (off by default, as in lua.c)
    unsigned int pivot;  // table.sort's fixed pivot sequence for unbalanced partitions
} sb_state;

#define SB_STATE 1
#define SB_IDS 2
#define SB_CACHES 3
#define SB_NEXT 4
#define SB_WRITE 5
#define SB_RAW 6
#define SB_UPVALUES 6

static sb_state *sb_state_of(lua_State *L) { return (sb_state *)lua_touserdata(L, lua_upvalueindex(SB_STATE)); }

/// The stock C function this closure replaces, for a call in the same frame.
static lua_CFunction sb_raw(lua_State *L) { return lua_tocfunction(L, lua_upvalueindex(SB_RAW)); }

// MARK: Object numbers

/// The number of the object at `idx`, given now if it has none yet.
static lua_Integer sb_object_id(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, lua_upvalueindex(SB_IDS)) == LUA_TNUMBER) {
        lua_Integer id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        return id;
    }
    lua_pop(L, 1);
    lua_Integer id = ++sb_state_of(L)->last_id;
    lua_pushvalue(L, idx);
    lua_pushinteger(L, id);
    lua_rawset(L, lua_upvalueindex(SB_IDS));
    return id;
}

static int sb_is_object(int type) {
    return type == LUA_TTABLE || type == LUA_TFUNCTION || type == LUA_TUSERDATA || type == LUA_TTHREAD ||
           type == LUA_TLIGHTUSERDATA;
}

/// luaL_tolstring with object numbers for addresses: `__tostring` as stock (its result never
/// rewritten), `__name` names the kind, "table: 3" instead of "table: 0x55...". Pushes the text.
static const char *sb_tolstring(lua_State *L, int idx, size_t *len) {
    idx = lua_absindex(L, idx);
    if (luaL_callmeta(L, idx, "__tostring")) {
        if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
        return lua_tolstring(L, -1, len);
    }
    if (!sb_is_object(lua_type(L, idx))) return luaL_tolstring(L, idx, len);
    int named = luaL_getmetafield(L, idx, "__name");
    const char *kind = named == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, idx);
    lua_pushfstring(L, "%s: %I", kind, (LUAI_UACINT)sb_object_id(L, idx));
    if (named != LUA_TNIL) lua_remove(L, -2);
    return lua_tolstring(L, -1, len);
}

static int sb_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    sb_tolstring(L, 1, NULL);
    return 1;
}

/// Calls the output function with the string on top (popped).
static void sb_write(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(SB_WRITE));
    lua_rotate(L, -2, 1);
    lua_call(L, 1, 0);
}

/// `print`: each piece is handed to the captured output as it is, with a tab between and a
/// newline after, never joined first: printing a 10^8-byte string makes no copy of it, and the
/// output keeps what its cap allows.
static int sb_print(lua_State *L) {
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        if (i > 1) {
            lua_pushliteral(L, "\t");
            sb_write(L);
        }
        sb_tolstring(L, i, NULL);
        sb_write(L);
    }
    lua_pushliteral(L, "\n");
    sb_write(L);
    return 0;
}

// MARK: Traversal

/// A key as the sort sees it (24 bytes: the sort moves these).
typedef struct sb_key {
    uint64_t a;            // integers and floats: their bits; strings: the first 8 bytes, big-endian; else a number
    const char *s;         // strings: the bytes (the key stays referenced by the key array while they are used)
    uint32_t len;          // strings: the length (a longer string compares by its first 2^32 - 1 bytes, then by
                           // that length: still a total order); numbers: 1 for a float
    uint32_t slot : 29;    // the key's place in the key array
    uint32_t rank : 3;     // 1 number, 2 string, 3 boolean, 4 any other value
} sb_key;

/// Describes the key at `idx` (may give an object its number).
static void sb_key_of(lua_State *L, int idx, sb_key *k) {
    k->s = NULL;
    k->len = 0;
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        k->rank = 1;
        if (lua_isinteger(L, idx)) {
            k->a = (uint64_t)lua_tointeger(L, idx);
        } else {
            lua_Number f = lua_tonumber(L, idx);
            k->len = 1;
            memcpy(&k->a, &f, sizeof f);
        }
        break;
    case LUA_TSTRING: {
        size_t len;
        k->rank = 2;
        k->s = lua_tolstring(L, idx, &len);
        k->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
        uint64_t a = 0;
        for (size_t i = 0; i < 8; i++) a = (a << 8) | (i < len ? (unsigned char)k->s[i] : 0);
        k->a = a;
        break;
    }
    case LUA_TBOOLEAN:
        k->rank = 3;
        k->a = (uint64_t)lua_toboolean(L, idx);
        break;
    default:
        k->rank = 4;
        k->a = (uint64_t)sb_object_id(L, idx);
        break;
    }
}

static lua_Integer sb_int(const sb_key *k) { return (lua_Integer)k->a; }
static lua_Number sb_float(const sb_key *k) {
    lua_Number f;
    memcpy(&f, &k->a, sizeof f);
    return f;
}

/// The sign of i - f, exactly (f is never NaN: NaN is no key).
static int sb_int_float(lua_Integer i, lua_Number f) {
    lua_Number d = (lua_Number)i;
    if (d < f) return -1;
    if (d > f) return 1;
    // d == f: f is a whole number; 2^63 is past every integer, anything else converts exactly.
    if (f >= 9223372036854775808.0) return -1;
    lua_Integer j = (lua_Integer)f;
    return (i > j) - (i < j);
}

static int sb_compare(const sb_key *x, const sb_key *y) {
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    switch (x->rank) {
    case 1:
        if (!x->len && !y->len) return (sb_int(x) > sb_int(y)) - (sb_int(x) < sb_int(y));
        if (x->len && y->len) return (sb_float(x) > sb_float(y)) - (sb_float(x) < sb_float(y));
        if (!x->len) return sb_int_float(sb_int(x), sb_float(y));
        return -sb_int_float(sb_int(y), sb_float(x));
    case 2: {
        if (x->a != y->a) return x->a < y->a ? -1 : 1;
        size_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->s, y->s, n);
        if (c != 0) return c < 0 ? -1 : 1;
        return (x->len > y->len) - (x->len < y->len);
    }
    default: return (x->a > y->a) - (x->a < y->a);
    }
}

static int sb_compare_entries(const void *x, const void *y) {
    return sb_compare((const sb_key *)x, (const sb_key *)y);
}

/// LSD radix sort of `e[0..n)` by `a ^ flip`, `bits` (8 or 16) at a time, skipping digits all
/// keys share, using `tmp` (n entries); stable, so equal keys keep their order.
static void sb_radix(sb_key *e, sb_key *tmp, size_t n, uint64_t flip, int bits) {
    size_t buckets = (size_t)1 << bits, digits = 64 / (size_t)bits;
    uint64_t mask = buckets - 1;
    size_t *counts = (size_t *)calloc(digits * buckets, sizeof(size_t));
    if (!counts) { qsort(e, n, sizeof(sb_key), sb_compare_entries); return; }
    for (size_t i = 0; i < n; i++) {
        uint64_t a = e[i].a ^ flip;
        for (size_t d = 0; d < digits; d++) counts[d * buckets + ((a >> (bits * d)) & mask)]++;
    }
    sb_key *from = e, *to = tmp;
    for (size_t d = 0; d < digits; d++) {
        size_t *count = counts + d * buckets;
        if (count[((from[0].a ^ flip) >> (bits * d)) & mask] == n) continue; // every key has this digit
        size_t sum = 0;
        for (size_t v = 0; v < buckets; v++) {
            size_t c = count[v];
            count[v] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) to[count[((from[i].a ^ flip) >> (bits * d)) & mask]++] = from[i];
        sb_key *swap = from;
        from = to;
        to = swap;
    }
    free(counts);
    if (from != e) memcpy(e, from, n * sizeof(sb_key));
}

/// Sorts `e[0..n)` into the documented order (sb_compare), using `tmp` (n entries): grouped by
/// rank, then integers, strings (by their first 8 bytes) and objects (by number) by radix sort,
/// strings that share their first 8 bytes, floats and booleans by qsort.
static void sb_sort_entries(sb_key *e, sb_key *tmp, size_t n) {
    size_t start[6] = {0};
    for (size_t i = 0; i < n; i++) start[e[i].rank + 1]++;
    for (int r = 1; r <= 5; r++) start[r] += start[r - 1];
    size_t place[5];
    memcpy(place, start, sizeof place);
    for (size_t i = 0; i < n; i++) tmp[place[e[i].rank]++] = e[i];
    memcpy(e, tmp, n * sizeof(sb_key));
    for (int rank = 1; rank <= 4; rank++) {
        sb_key *part = e + start[rank];
        size_t m = start[rank + 1] - start[rank];
        if (m < 2) continue;
        int floats = 0;
        for (size_t i = 0; rank == 1 && i < m && !floats; i++) floats = part[i].len != 0;
        if (rank == 3 || floats || m < 64) {
            qsort(part, m, sizeof(sb_key), sb_compare_entries);
            continue;
        }
        sb_radix(part, tmp, m, rank == 1 ? 0x8000000000000000ull : 0, m >= 65536 ? 16 : 8);
        if (rank != 2) continue;
        for (size_t i = 0; i < m;) {
            size_t j = i + 1;
            while (j < m && part[j].a == part[i].a) j++;
            if (j - i > 1) qsort(part + i, j - i, sizeof(sb_key), sb_compare_entries);
            i = j;
        }
    }
}

/// splitmix64's finalizer: a bijection of 64-bit words.
static uint64_t sb_mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/// The fingerprint term of the key at `idx`: its identity, mixed.
static uint64_t sb_fingerprint(lua_State *L, int idx) {
    const void *object = lua_topointer(L, idx);
    if (object) return sb_mix((uint64_t)(uintptr_t)object);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) return sb_mix((uint64_t)lua_tointeger(L, idx) ^ 0x1111111111111111ull);
        {
            lua_Number f = lua_tonumber(L, idx);
            uint64_t bits;
            memcpy(&bits, &f, sizeof bits);
            return sb_mix(bits ^ 0x2222222222222222ull);
        }
    default: return sb_mix((uint64_t)lua_toboolean(L, idx) ^ 0x3333333333333333ull);
    }
}

typedef struct sb_cache {
    const void *table;  // the table's object (lua_topointer), for the last-used check
    lua_Integer n;      // keys in the array (some may have left the table since)
    uint64_t print;     // the fingerprint of the keys when sorted
    lua_Integer hint;   // the place of the key `next` returned last; 0: none
    const void *hint_key; // that key's object (lua_topointer), NULL for numbers and booleans
    unsigned int order[]; // order[i - 1]: the place in the key array of the i-th key in order
} sb_cache;

/// Counts the keys of the table at `t` and sums their fingerprints.
static lua_Integer sb_scan(lua_State *L, int t, uint64_t *print) {
    lua_Integer n = 0;
    uint64_t sum = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        sum += sb_fingerprint(L, -1);
        n++;
    }
    *print = sum;
    return n;
}

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

static int sb_scratch_gc(lua_State *L) {
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

/// Sorts the keys of the table at 1 into a new cache, stored in `caches`; pushes the cache and
/// its key array. One raw traversal collects the keys into the array (in Lua's order), counts them,
/// sums their fingerprints and describes them for the sort; the cache keeps the sorted order as
/// places in that array.
static sb_cache *sb_build(lua_State *L) {
    lua_newtable(L);
    int keys = lua_gettop(L);
    sb_scratch *scratch = (sb_scratch *)lua_newuserdatauv(L, sizeof(sb_scratch), 0);
    scratch->p = NULL;
    scratch->size = 0;
    lua_getiuservalue(L, lua_upvalueindex(SB_STATE), 1);
    lua_setmetatable(L, -2);
    int buffer = lua_gettop(L);
    size_t capacity = 256;
    sb_key *entries = (sb_key *)sb_scratch_grow(L, scratch, 2 * capacity * sizeof(sb_key));
    size_t n = 0;
    uint64_t print = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        print += sb_fingerprint(L, -1);
        if (n == capacity) {
            if (capacity > ((size_t)-1) / (4 * sizeof(sb_key)) || capacity >= (1u << 28))
                luaL_error(L, "table too big to traverse");
            capacity *= 2;
            entries = (sb_key *)sb_scratch_grow(L, scratch, 2 * capacity * sizeof(sb_key));
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, (lua_Integer)(n + 1));
        sb_key_of(L, -1, &entries[n]); // a string's bytes stay referenced by `keys`
        entries[n].slot = (uint32_t)(n + 1);
        n++;
    }
    sb_sort_entries(entries, entries + capacity, n);
    sb_cache *c = (sb_cache *)lua_newuserdatauv(L, sizeof(sb_cache) + n * sizeof(unsigned int), 1);
    c->table = lua_topointer(L, 1);
    c->n = (lua_Integer)n;
    c->print = print;
    c->hint = 0;
    c->hint_key = NULL;
    for (size_t i = 0; i < n; i++) c->order[i] = entries[i].slot;
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
    lua_rawgeti(L, keys, c->order[i - 1]);
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
            return 2;
        }
        lua_pop(L, 2);
    }
    c->hint = 0;
    c->hint_key = NULL;
    lua_pushnil(L);
    return 1;
}

static int sb_next(lua_State *L) {
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
        if (c) {
            uint64_t print;
            lua_Integer n = sb_scan(L, 1, &print);
            if (n != c->n || print != c->print) {
                lua_settop(L, 2);
                c = NULL;
            }
        }
        if (!c) c = sb_build(L);
        return sb_next_after(L, c, lua_gettop(L), 0);
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

static int sb_pairs(lua_State *L) {
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

// MARK: string.format

/// Whether `spec` (after '%', through the conversion letter 'p') is a form stock accepts for %p:
/// '-' flags, then a width of at most two digits not starting with 0, no precision.
static int sb_valid_p(const char *spec, size_t len) {
    if (len >= 21) return 0;
    size_t i = 0;
    while (spec[i] == '-') i++;
    if (spec[i] != '0') {
        for (int d = 0; d < 2 && spec[i] >= '0' && spec[i] <= '9'; d++) i++;
    }
    return spec[i] == 'p';
}

static const char sb_spec_chars[] = "-+ #0123456789.";

/// Whether the format has a %p conversion.
static int sb_has_p(const char *f, size_t len) {
    const char *end = f + len;
    for (const char *p = memchr(f, '%', len); p; p = memchr(p, '%', (size_t)(end - p))) {
        p++;
        if (p < end && *p == '%') { p++; continue; }
        while (p < end && *p && strchr(sb_spec_chars, *p)) p++;
        if (p < end && *p == 'p') return 1;
    }
    return 0;
}

/// `string.format`: stock's, except that `%s` of an object without `__tostring` gives its
/// numbered name, and `%p` gives that name (a string's by number too, "(null)" for values that are
/// not objects) with the width and flags the script gave: never an address.
static int sb_format(lua_State *L) {
    lua_CFunction raw = sb_raw(L);
    int top = lua_gettop(L);
    size_t len;
    const char *f = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &len) : NULL;
    if (f == NULL) return raw(L);
    int objects = 0;
    for (int i = 2; i <= top && !objects; i++) objects = sb_is_object(lua_type(L, i));
    if (!objects && !sb_has_p(f, len)) return raw(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *end = f + len;
    int arg = 1;
    while (f < end) {
        if (*f != '%') { luaL_addchar(&b, *f++); continue; }
        if (f + 1 < end && f[1] == '%') { luaL_addlstring(&b, f, 2); f += 2; continue; }
        const char *spec = f + 1;
        const char *conv = spec;
        while (conv < end && *conv && strchr(sb_spec_chars, *conv)) conv++;
        if (conv >= end) { luaL_addlstring(&b, f, (size_t)(end - f)); break; }
        arg++;
        if (*conv == 's' && arg <= top && sb_is_object(lua_type(L, arg))) {
            sb_tolstring(L, arg, NULL);
            lua_replace(L, arg);
            luaL_addlstring(&b, f, (size_t)(conv - f + 1));
        } else if (*conv == 'p' && arg <= top) {
            if (sb_valid_p(spec, (size_t)(conv - spec + 1))) {
                int type = lua_type(L, arg);
                if (sb_is_object(type) || type == LUA_TSTRING) {
                    lua_pushfstring(L, "%s: %I", luaL_typename(L, arg), (LUAI_UACINT)sb_object_id(L, arg));
                } else {
                    lua_pushliteral(L, "(null)");
                }
                lua_replace(L, arg);
                luaL_addlstring(&b, f, (size_t)(conv - f));
                luaL_addchar(&b, 's');
            } else {
                // Stock raises its own message for this form; no address can show.
                lua_pushnil(L);
                lua_replace(L, arg);
                luaL_addlstring(&b, f, (size_t)(conv - f + 1));
            }
        } else {
            luaL_addlstring(&b, f, (size_t)(conv - f + 1));
        }
        f = conv + 1;
    }
    luaL_pushresult(&b);
    lua_replace(L, 1);
    return raw(L);
}

// MARK: table.sort

// Lua 5.4's own quicksort (median of three, the same element moves and comparator calls, its
// errors), with one change: where stock picks a random pivot for an unbalanced partition
// (seeded from clock() and time()), this one takes the next number of a fixed sequence.

typedef unsigned int sb_index;

static int sb_sort_less(lua_State *L, int a, int b) {
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a - 1);
    lua_pushvalue(L, b - 2);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/// t[i] = top, t[j] = the value below it.
static void sb_set2(lua_State *L, sb_index i, sb_index j) {
    lua_seti(L, 1, i);
    lua_seti(L, 1, j);
}

static sb_index sb_partition(lua_State *L, sb_index lo, sb_index up) {
    sb_index i = lo;
    sb_index j = up - 1;
    for (;;) {
        while (lua_geti(L, 1, ++i), sb_sort_less(L, -1, -2)) {
            if (i == up - 1) luaL_error(L, "invalid order function for sorting");
            lua_pop(L, 1);
        }
        while (lua_geti(L, 1, --j), sb_sort_less(L, -3, -1)) {
            if (j < i) luaL_error(L, "invalid order function for sorting");
            lua_pop(L, 1);
        }
        if (j < i) {
            lua_pop(L, 1);
            sb_set2(L, up - 1, i);
            return i;
        }
        sb_set2(L, i, j);
    }
}

static void sb_auxsort(lua_State *L, sb_index lo, sb_index up, unsigned int rnd) {
    while (lo < up) {
        lua_geti(L, 1, lo);
        lua_geti(L, 1, up);
        if (sb_sort_less(L, -1, -2)) sb_set2(L, lo, up);
        else lua_pop(L, 2);
        if (up - lo == 1) break;
        sb_index p;
        if (up - lo < 100u || rnd == 0) {
            p = (lo + up) / 2;
        } else {
            sb_index r4 = (up - lo) / 4;
            p = rnd % (r4 * 2) + (lo + r4);
        }
        lua_geti(L, 1, p);
        lua_geti(L, 1, lo);
        if (sb_sort_less(L, -2, -1)) {
            sb_set2(L, p, lo);
        } else {
            lua_pop(L, 1);
            lua_geti(L, 1, up);
            if (sb_sort_less(L, -1, -2)) sb_set2(L, p, up);
            else lua_pop(L, 2);
        }
        if (up - lo == 2) break;
        lua_geti(L, 1, p);
        lua_pushvalue(L, -1);
        lua_geti(L, 1, up - 1);
        sb_set2(L, p, up - 1);
        p = sb_partition(L, lo, up);
        sb_index n;
        if (p - lo < up - p) {
            sb_auxsort(L, lo, p - 1, rnd);
            n = p - lo;
            lo = p + 1;
        } else {
            sb_auxsort(L, p + 1, up, rnd);
            n = up - p;
            up = p - 1;
        }
        if ((up - lo) / 128 > n) {
            sb_state *s = sb_state_of(L);
            s->pivot = s->pivot * 1103515245u + 12345u;
            rnd = s->pivot | 1u;
        }
    }
}

static int sb_sort(lua_State *L) {
    // as stock: a table, or a value whose metatable gives __index, __newindex and __len
    if (lua_type(L, 1) != LUA_TTABLE) {
        int ok = lua_getmetatable(L, 1);
        if (ok) {
            lua_pushliteral(L, "__index");
            ok = lua_rawget(L, -2) != LUA_TNIL;
            lua_pushliteral(L, "__newindex");
            ok = ok && lua_rawget(L, -3) != LUA_TNIL;
            lua_pushliteral(L, "__len");
            ok = ok && lua_rawget(L, -4) != LUA_TNIL;
            lua_pop(L, 4);
        }
        if (!ok) luaL_checktype(L, 1, LUA_TTABLE);
    }
    lua_Integer n = luaL_len(L, 1);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        sb_auxsort(L, 1, (sb_index)n, 0);
    }
    return 0;
}

// MARK: Loading, dumping, warnings

typedef struct sb_reader {
    const char *s;   // a string chunk, or NULL for a reader function (at 1)
    size_t len;
    int done;
    int first;       // no piece read yet
    char *mode;      // the mode lua_load checks; becomes "t" when the chunk is binary
} sb_reader;

static const char *sb_read(lua_State *L, void *data, size_t *size) {
    sb_reader *r = (sb_reader *)data;
    const char *piece;
    if (r->s) {
        if (r->done) { *size = 0; return NULL; }
        r->done = 1;
        piece = r->s;
        *size = r->len;
    } else {
        luaL_checkstack(L, 2, "too many nested functions");
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            *size = 0;
            return NULL;
        }
        if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
        lua_replace(L, 4);
        piece = lua_tolstring(L, 4, size);
    }
    if (r->first && *size > 0) {
        r->first = 0;
        // Binary chunks never load: lua_load reads the mode after this first byte.
        if (piece[0] == LUA_SIGNATURE[0]) strcpy(r->mode, "t");
    }
    return piece;
}

/// Under a protected call without a message handler (so that a parser error, even "C stack
/// overflow", comes back as text): 1 the chunk, 2 its name, 3 the reader (light userdata).
static int sb_load_protected(lua_State *L) {
    sb_reader *r = (sb_reader *)lua_touserdata(L, 3);
    lua_settop(L, 4);
    if (lua_load(L, sb_read, r, lua_tostring(L, 2), r->mode) != LUA_OK) return lua_error(L);
    return 1;
}

/// `load(chunk [, chunkname [, mode [, env]]])`: stock's, its mode honoured, except that a binary
/// chunk is refused whatever the mode ("attempt to load a binary chunk (mode is 't')").
static int sb_load(lua_State *L) {
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    const char *mode = luaL_optstring(L, 3, "bt");
    int env = !lua_isnone(L, 4) ? 4 : 0;
    const char *name;
    if (s != NULL) {
        name = luaL_optstring(L, 2, s);
    } else {
        name = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
    }
    size_t mode_len = strlen(mode);
    char *mode_copy = (char *)lua_newuserdatauv(L, mode_len + 2, 0);
    memcpy(mode_copy, mode, mode_len + 1);
    sb_reader r = {s, len, 0, 1, mode_copy};
    lua_pushcfunction(L, sb_load_protected);
    lua_pushvalue(L, 1);
    lua_pushstring(L, name);
    lua_pushlightuserdata(L, &r);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env != 0) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/// `string.dump(f)`: stock's, refusing stackplay's own Lua functions as it refuses C functions.
static int sb_dump(lua_State *L) {
    if (lua_type(L, 1) == LUA_TFUNCTION && !lua_iscfunction(L, 1)) {
        lua_Debug ar;
        lua_pushvalue(L, 1);
        lua_getinfo(L, ">S", &ar);
        if (strncmp(ar.source, "=stackplay/", 11) == 0) return luaL_error(L, "unable to dump given function");
    }
    return sb_raw(L)(L);
}

/// `warn(msg1, ...)`: as stock, into the test's output ("Lua warning: ..."), off until "@on".
static int sb_warn(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checkstring(L, 1);
    for (int i = 2; i <= n; i++) luaL_checkstring(L, i);
    sb_state *s = sb_state_of(L);
    const char *first = lua_tostring(L, 1);
    if (n == 1 && first[0] == '@') {
        if (strcmp(first + 1, "on") == 0) s->warn_on = 1;
        else if (strcmp(first + 1, "off") == 0) s->warn_on = 0;
        return 0;
    }
    if (!s->warn_on) return 0;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "Lua warning: ");
    for (int i = 1; i <= n; i++) {
        lua_pushvalue(L, i);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    sb_write(L);
    return 0;
}

// MARK: What runs outside the budgets

/// `setmetatable(t, mt)`: stock's, refusing a metatable with `__gc` (Lua runs finalizers with hooks
/// off, where the CPU budget cannot stop them).
static int sb_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int gc = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (gc) {
            return luaL_argerror(
                L, 2, "stackplay does not run __gc finalizers: they would run outside the CPU budget");
        }
    }
    return sb_raw(L)(L);
}

/// The message handler xpcall installs: the script's, unless a budget has stopped the script
/// (then the stop goes on unwinding, with no Lua run outside the hook).
static int sb_handler(lua_State *L) {
    if (stackplay_stopped(L)) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sb_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_handler, 1);
    lua_replace(L, 2);
    return sb_raw(L)(L);
}

/// `math.randomseed([x [, y]])`: stock's; without arguments it takes its seed from the seeded
/// sequence (math.random(0, maxinteger)), not the clock. Upvalues: 1 stock's random state (which
/// stock's randomseed, called in this frame, reads), 2 stock's math.random, 3 stock's randomseed.
static int sb_randomseed(lua_State *L) {
    if (lua_isnone(L, 1)) {
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushinteger(L, 0);
        lua_pushinteger(L, LUA_MAXINTEGER);
        lua_call(L, 2, 1);
    }
    return lua_tocfunction(L, lua_upvalueindex(3))(L);
}

// MARK: Installing

/// Pushes `fn` as a closure with the sandbox's upvalues (see the top of this file); `raw` is the
/// index of the stock function it calls, or 0.
static void sb_push(lua_State *L, lua_CFunction fn, int raw) {
    for (int i = 1; i <= SB_UPVALUES - 1; i++) lua_pushvalue(L, i + 2);
    if (raw) lua_pushvalue(L, raw); else lua_pushnil(L);
    lua_pushcclosure(L, fn, SB_UPVALUES);
}

/// Replaces `table[name]` (the table at `table`) with `fn`, which may call the stock one.
static void sb_replace(lua_State *L, int table, const char *name, lua_CFunction fn) {
    lua_getfield(L, table, name);
    int raw = lua_gettop(L);
    sb_push(L, fn, raw);
    lua_setfield(L, table, name);
    lua_pop(L, 1);
}

int stackplay_sandbox_install(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_Integer seed = luaL_checkinteger(L, 2);
    lua_settop(L, 2);
    // 3..7: the upvalues 1..5
    sb_state *s = (sb_state *)lua_newuserdatauv(L, sizeof(sb_state), 1);
    memset(s, 0, sizeof *s);
    s->pivot = 0x2545f491u;
    lua_createtable(L, 0, 1); // the metatable of sb_build's scratch memory
    lua_pushcfunction(L, sb_scratch_gc);
    lua_setfield(L, -2, "__gc");
    lua_setiuservalue(L, -2, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "kv");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    lua_pushcclosure(L, sb_next, 3);
    lua_pushvalue(L, 1);

    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_pushvalue(L, 6);
    lua_setfield(L, g, "next");
    static const struct { const char *name; lua_CFunction fn; } globals[] = {
        {"pairs", sb_pairs}, {"tostring", sb_tostring}, {"print", sb_print}, {"load", sb_load},
        {"warn", sb_warn}, {"setmetatable", sb_setmetatable}, {"xpcall", sb_xpcall}};
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++) sb_replace(L, g, globals[i].name, globals[i].fn);

    lua_getfield(L, g, "string");
    sb_replace(L, lua_gettop(L), "format", sb_format);
    sb_replace(L, lua_gettop(L), "dump", sb_dump);
    lua_pop(L, 1);
    lua_getfield(L, g, "table");
    sb_replace(L, lua_gettop(L), "sort", sb_sort);
    lua_pop(L, 1);

    lua_getfield(L, g, "math");
    int math = lua_gettop(L);
    lua_getfield(L, math, "randomseed");
    lua_getupvalue(L, -1, 1);
    lua_getfield(L, math, "random");
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, sb_randomseed, 3);
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, math, "randomseed");
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    // os keeps only time, date, clock and difftime (stock's: arithmetic), in the same table
    // (package.loaded's), so that messages name 'os.date' as stock's do.
    lua_getfield(L, g, "os");
    int os = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, os)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "difftime") == 0) continue;
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, os);
    }
    static const struct { const char *name; lua_CFunction fn; } os_functions[] = {
        {"time", sb_time}, {"date", sb_date}, {"clock", sb_clock}};
    for (size_t i = 0; i < sizeof os_functions / sizeof os_functions[0]; i++) {
        sb_push(L, os_functions[i].fn, 0);
        lua_setfield(L, os, os_functions[i].name);
    }
    return 0;
}
