// One cheap pass over a table's keys (sandbox_private.h): their count and fingerprint, and the
// description the sort needs of each key in a key array.
//
// Lua's C API visits a table only through lua_next, which looks the previous key up again on
// every step: a hash lookup that reads the key's own memory, so a pass over 10^5 string keys
// costs as much as a traversal of them in Lua (measured: 3-18 ms, the more the busier the
// machine). `next(t)` on an unchanged table must still look at every key (the C API cannot tell
// that a table changed, and the first key in order depends on all of them), so that pass reads
// Lua 5.4's table layout (lobject.h: the array part, then the nodes) instead, in order and
// without touching the keys: about a nanosecond a slot. It only reads, under the table on the
// stack, with no allocation in between. The layout is checked once per state against lua_next
// on a probe table (count, fingerprint, the order of keys, strings' bytes and lengths); where it
// does not match (another Lua), every pass goes through lua_next and the C API instead.
#include "sandbox_private.h"

#include <assert.h>
#include <lauxlib.h>
#include <stdint.h>
#include <string.h>

// MARK: Lua 5.4's layout (lobject.h), read only

typedef union sb_lvalue {
    void *gc;
    void *p;
    lua_Integer i;
    lua_Number n;
} sb_lvalue;

typedef struct sb_ltvalue {
    sb_lvalue value;
    unsigned char tt;
} sb_ltvalue;

typedef struct sb_lnode {
    sb_lvalue value;
    unsigned char tt;
    unsigned char key_tt;
    int next;
    sb_lvalue key_val;
} sb_lnode;

typedef struct sb_ltable {
    void *next;
    unsigned char tt, marked, flags, lsizenode;
    unsigned int alimit;
    sb_ltvalue *array;
    sb_lnode *node;
    sb_lnode *lastfree;
    void *metatable;
    void *gclist;
} sb_ltable;

typedef struct sb_lstring {
    void *next;
    unsigned char tt, marked, extra, shrlen;
    unsigned int hash;
    size_t lnglen;
    char contents[1];
} sb_lstring;

enum {
    SB_TAG_FALSE = 0x01,
    SB_TAG_TRUE = 0x11,
    SB_TAG_INT = 0x03,
    SB_TAG_FLOAT = 0x13,
    SB_TAG_SHORT = 0x44,
    SB_TAG_LONG = 0x54,
    SB_TAG_COLLECTABLE = 0x40,
    SB_REAL_SIZE = 0x80, // Table.flags: alimit is not the array's real size
};

/// splitmix64's finalizer: a bijection of 64-bit words.
static uint64_t sb_mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/// The fingerprint term of a key: numbers by value (integers and floats apart), booleans by
/// value, everything else by its object (which cannot be reused while a cache holds the key).
static uint64_t sb_term(unsigned char tag, uint64_t bits) {
    switch (tag) {
    case SB_TAG_INT: return sb_mix(bits ^ 0x1111111111111111ull);
    case SB_TAG_FLOAT: return sb_mix(bits ^ 0x2222222222222222ull);
    case SB_TAG_FALSE: return sb_mix(0x3333333333333333ull);
    case SB_TAG_TRUE: return sb_mix(0x3333333333333332ull);
    default: return sb_mix(bits);
    }
}

/// The term of a TValue's bits.
static uint64_t sb_lterm(unsigned char tag, const sb_lvalue *v) {
    uint64_t bits;
    memcpy(&bits, v, sizeof bits);
    return sb_term(tag, bits);
}

/// The term of the key at `idx`, through the C API (the same as sb_lterm but for full userdata).
static uint64_t sb_api_term(lua_State *L, int idx) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) return sb_term(SB_TAG_INT, (uint64_t)lua_tointeger(L, idx));
        {
            lua_Number f = lua_tonumber(L, idx);
            uint64_t bits;
            memcpy(&bits, &f, sizeof bits);
            return sb_term(SB_TAG_FLOAT, bits);
        }
    case LUA_TBOOLEAN: return sb_term(lua_toboolean(L, idx) ? SB_TAG_TRUE : SB_TAG_FALSE, 0);
    default: return sb_term(0, (uint64_t)(uintptr_t)lua_topointer(L, idx));
    }
}

static unsigned int sb_array_size(const sb_ltable *t) {
    unsigned int size = t->alimit;
    if (!(t->flags & SB_REAL_SIZE) || (size & (size - 1)) == 0) return size;
    size--; // the real size is the next power of 2
    for (unsigned int shift = 1; shift < 32; shift <<= 1) size |= size >> shift;
    return size + 1;
}

/// Counts the table's keys and sums their terms, from its layout.
static lua_Integer sb_layout_scan(const sb_ltable *t, uint64_t *print) {
    lua_Integer n = 0;
    uint64_t sum = 0;
    unsigned int asize = sb_array_size(t);
    for (unsigned int i = 0; i < asize; i++) {
        if ((t->array[i].tt & 0x0f) == 0) continue;
        sum += sb_term(SB_TAG_INT, (uint64_t)i + 1);
        n++;
    }
    size_t nodes = (size_t)1 << t->lsizenode;
    for (size_t i = 0; i < nodes; i++) {
        const sb_lnode *node = &t->node[i];
        if ((node->tt & 0x0f) == 0) continue;
        sum += sb_lterm(node->key_tt, &node->key_val);
        n++;
    }
    *print = sum;
    return n;
}

lua_Integer sb_scan(lua_State *L, int t, uint64_t *print) {
    // the layout is read as a Table's: only ever of a table (lua_topointer gives no type)
    assert(lua_type(L, t) == LUA_TTABLE);
    if (sb_state_of(L)->layout) return sb_layout_scan((const sb_ltable *)lua_topointer(L, t), print);
    lua_Integer n = 0;
    uint64_t sum = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        sum += sb_api_term(L, -1);
        n++;
    }
    *print = sum;
    return n;
}

/// Describes a string for the sort: its bytes, length and first 8 bytes, big-endian.
static void sb_string_key(sb_key *k, const char *s, size_t len) {
    k->rank = 2;
    k->s = s;
    k->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
    uint64_t a = 0;
    if (len >= 8) {
        for (size_t i = 0; i < 8; i++) a = (a << 8) | (unsigned char)s[i];
    } else {
        for (size_t i = 0; i < len; i++) a |= (uint64_t)(unsigned char)s[i] << (56 - 8 * i);
    }
    k->a = a;
}

void sb_key_of(lua_State *L, int idx, sb_key *k) {
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
        const char *s = lua_tolstring(L, idx, &len);
        sb_string_key(k, s, len);
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

void sb_describe_at(const void *keys, size_t i, sb_key *k) {
    const sb_ltvalue *v = &((const sb_ltable *)keys)->array[i];
    k->slot = (uint32_t)(i + 1);
    k->s = NULL;
    k->len = 0;
    switch (v->tt) {
    case SB_TAG_SHORT:
    case SB_TAG_LONG: {
        const sb_lstring *s = (const sb_lstring *)v->value.gc;
        sb_string_key(k, s->contents, v->tt == SB_TAG_SHORT ? s->shrlen : s->lnglen);
        break;
    }
    case SB_TAG_INT:
        k->rank = 1;
        k->a = (uint64_t)v->value.i;
        break;
    case SB_TAG_FLOAT:
        k->rank = 1;
        k->len = 1;
        memcpy(&k->a, &v->value.n, sizeof k->a);
        break;
    case SB_TAG_FALSE:
    case SB_TAG_TRUE:
        k->rank = 3;
        k->a = v->tt == SB_TAG_TRUE;
        break;
    default: k->rank = 0; break; // an object: its number comes through the C API
    }
}

uint64_t sb_describe(lua_State *L, int keys, sb_key *e, size_t n, int print_wanted) {
    uint64_t print = 0;
    assert(lua_type(L, keys) == LUA_TTABLE);
    const sb_ltable *t = sb_state_of(L)->layout ? (const sb_ltable *)lua_topointer(L, keys) : NULL;
    for (size_t i = 0; i < n; i++) {
        sb_key *k = &e[i];
        const sb_ltvalue *v = t ? &t->array[i] : NULL;
        if (v && print_wanted) print += sb_lterm(v->tt, &v->value);
        if (v && k->rank != 0) continue;
        k->slot = (uint32_t)(i + 1);
        lua_rawgeti(L, keys, (lua_Integer)(i + 1));
        if (!v && print_wanted) print += sb_api_term(L, -1);
        sb_key_of(L, -1, k);
        lua_pop(L, 1);
    }
    return print;
}

uint64_t sb_key_term(lua_State *L, int keys, lua_Integer i) {
    if (sb_state_of(L)->layout) {
        const sb_ltvalue *v = &((const sb_ltable *)lua_topointer(L, keys))->array[i - 1];
        return sb_lterm(v->tt, &v->value);
    }
    lua_rawgeti(L, keys, i);
    uint64_t term = sb_api_term(L, -1);
    lua_pop(L, 1);
    return term;
}

void sb_prefetch(const void *table, const void *keys, size_t i, size_t n) {
    const sb_ltvalue *array = ((const sb_ltable *)keys)->array;
    if (i + 1 < n && (array[i + 1].tt & SB_TAG_COLLECTABLE)) __builtin_prefetch(array[i + 1].value.gc);
    if (array[i].tt != SB_TAG_SHORT) return;
    const sb_ltable *t = (const sb_ltable *)table;
    unsigned int hash = ((const sb_lstring *)array[i].value.gc)->hash;
    __builtin_prefetch(&t->node[hash & ((1u << t->lsizenode) - 1)]);
}

// MARK: The check

/// Whether the layout above is this Lua's: a probe table read both ways must agree on every key
/// (array and hash parts, removed keys, every kind of key but full userdata).
int sb_layout_matches(lua_State *L) {
#if LUA_VERSION_NUM != 504
    (void)L;
    return 0;
#else
    if (lua_version(L) != 504) return 0;
    int top = lua_gettop(L);
    lua_createtable(L, 4, 8);
    int t = lua_gettop(L);
    for (int i = 1; i <= 4; i++) {
        lua_pushinteger(L, i);
        lua_rawseti(L, t, i);
    }
    lua_pushnil(L);
    lua_rawseti(L, t, 2);
    static const char long_key[] = "a key longer than forty bytes, stored as a long string";
    lua_pushboolean(L, 1);
    lua_setfield(L, t, long_key);
    const char *names[] = {"x", "gone", "y"};
    for (int i = 0; i < 3; i++) {
        lua_pushboolean(L, 1);
        lua_setfield(L, t, names[i]);
    }
    lua_pushnil(L);
    lua_setfield(L, t, "gone");
    lua_Integer ints[] = {1000, -7};
    for (int i = 0; i < 2; i++) {
        lua_pushboolean(L, 1);
        lua_rawseti(L, t, ints[i]);
    }
    lua_pushnumber(L, 0.5);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);
    lua_pushboolean(L, 0);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);
    lua_pushboolean(L, 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);
    lua_newtable(L);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);
    lua_pushlightuserdata(L, (void *)&names);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);

    // The layout's order is lua_next's: the array part, then the nodes.
    const sb_ltable *table = (const sb_ltable *)lua_topointer(L, t);
    int ok = 1;
    lua_Integer count = 0;
    uint64_t sum = 0;
    unsigned int asize = sb_array_size(table), i = 0;
    size_t nodes = (size_t)1 << table->lsizenode, j = 0;
    lua_pushnil(L);
    while (ok && lua_next(L, t)) {
        lua_pop(L, 1);
        uint64_t term;
        unsigned char tag;
        const sb_lvalue *bits;
        sb_lvalue index;
        while (i < asize && (table->array[i].tt & 0x0f) == 0) i++;
        if (i < asize) {
            index.i = (lua_Integer)++i;
            tag = SB_TAG_INT;
            bits = &index;
        } else {
            while (j < nodes && (table->node[j].tt & 0x0f) == 0) j++;
            if (j == nodes) { ok = 0; break; }
            tag = table->node[j].key_tt;
            bits = &table->node[j++].key_val;
        }
        term = sb_lterm(tag, bits);
        ok = term == sb_api_term(L, -1);
        if (ok && lua_type(L, -1) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            const sb_lstring *ls = (const sb_lstring *)bits->gc;
            ok = (tag == SB_TAG_SHORT || tag == SB_TAG_LONG) && ls->contents == s &&
                 (tag == SB_TAG_SHORT ? ls->shrlen : ls->lnglen) == len && (len > 40) == (tag == SB_TAG_LONG);
        }
        sum += term;
        count++;
    }
    if (ok) {
        uint64_t print;
        ok = count == 13 && sb_layout_scan(table, &print) == count && print == sum;
    }
    // the key array sb_describe reads: an array part of the given size
    if (ok) {
        lua_createtable(L, 3, 0);
        lua_pushliteral(L, "x");
        lua_rawseti(L, -2, 3);
        const sb_ltable *keys = (const sb_ltable *)lua_topointer(L, -1);
        ok = sb_array_size(keys) >= 3 && keys->array[2].tt == SB_TAG_SHORT && (keys->array[0].tt & 0x0f) == 0;
    }
    lua_settop(L, top);
    return ok;
#endif
}

int stackplay_sandbox_reads_layout(lua_State *L) { return sb_layout_matches(L); }
