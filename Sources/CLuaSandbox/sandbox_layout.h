// Lua 5.4's table layout (lobject.h), read by the sandbox's traversal (sandbox_scan.c checks it
// once per state against lua_next; sandbox_next.c reads it only when that check passed). Private to
// sandbox_scan.c and sandbox_next.c: the small readers are here so that `next`'s fast path inlines
// them.
#ifndef STACKPLAY_SANDBOX_LAYOUT_H
#define STACKPLAY_SANDBOX_LAYOUT_H

#include "sandbox_private.h"

#include <stdint.h>

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

static inline unsigned int sb_array_size(const sb_ltable *t) {
    unsigned int size = t->alimit;
    if (!(t->flags & SB_REAL_SIZE) || (size & (size - 1)) == 0) return size;
    size--; // the real size is the next power of 2
    for (unsigned int shift = 1; shift < 32; shift <<= 1) size |= size >> shift;
    return size + 1;
}

enum { SB_FLAG_SANDBOX = 0x40 }; // Table.flags: the sandbox's mark (Lua 5.4 never sets nor clears it)

static inline __attribute__((always_inline)) int sb_layout_live(const void *table, uint32_t asize, uint32_t slot) {
    const sb_ltable *t = (const sb_ltable *)table;
    return slot < asize ? (t->array[slot].tt & 0x0f) != 0 : (t->node[slot - asize].tt & 0x0f) != 0;
}

/// The value at `slot` of `table` (array size `asize`): 1, pushed, when it is a number or a
/// boolean (copied from the slot, no lookup); 0, with nothing pushed, for any other value.
static inline __attribute__((always_inline)) int sb_layout_push_plain(lua_State *L, const void *table, uint32_t asize,
                                                                      uint32_t slot) {
    const sb_ltable *t = (const sb_ltable *)table;
    const sb_lvalue *v;
    unsigned char tt;
    if (slot < asize) {
        v = &t->array[slot].value;
        tt = t->array[slot].tt;
    } else {
        v = &t->node[slot - asize].value;
        tt = t->node[slot - asize].tt;
    }
    switch (tt) {
    case SB_TAG_INT: lua_pushinteger(L, v->i); return 1;
    case SB_TAG_FLOAT: lua_pushnumber(L, v->n); return 1;
    case SB_TAG_FALSE: lua_pushboolean(L, 0); return 1;
    case SB_TAG_TRUE: lua_pushboolean(L, 1); return 1;
    default: return 0;
    }
}

static inline unsigned char sb_layout_flags(const void *table, unsigned char mask) {
    return ((const sb_ltable *)table)->flags & mask;
}

static inline void sb_layout_mark(const void *table, unsigned char bits) { ((sb_ltable *)(uintptr_t)table)->flags |= bits; }

/// Whether the value at `idx`, of type `type`, is the key of tag `tag` and value `v` (full
/// userdata: unsure, 0).
static inline __attribute__((always_inline)) int sb_same_typed(lua_State *L, int idx, int type, unsigned char tag, const sb_lvalue *v) {
    if ((tag & 0x0f) != type) return 0;
    switch (type) {
    case LUA_TNUMBER:
        if (tag == SB_TAG_INT) return lua_isinteger(L, idx) && lua_tointeger(L, idx) == v->i;
        return !lua_isinteger(L, idx) && lua_tonumber(L, idx) == v->n;
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) == (tag == SB_TAG_TRUE);
    case LUA_TUSERDATA: return 0; // lua_topointer gives a full userdata's memory, not its object
    default: return lua_topointer(L, idx) == v->p;
    }
}

static inline int sb_same(lua_State *L, int idx, unsigned char tag, const sb_lvalue *v) {
    return sb_same_typed(L, idx, lua_type(L, idx), tag, v);
}

/// Whether the value at `idx`, of type `type`, is raw-equal to keys[i] (a key table); 0 when unsure.
static inline __attribute__((always_inline)) int sb_layout_is_key(lua_State *L, int idx, int type, const void *keys, uint32_t i) {
    const sb_ltvalue *v = &((const sb_ltable *)keys)->array[i - 1];
    return sb_same_typed(L, idx, type, v->tt, &v->value);
}

/// A hint to the processor: keys[i] (a key table), its string, and the node of `table` (array size
/// `asize`) at `slot`, where it sits, are read soon (`next` of a big table reads them all over).
static inline __attribute__((always_inline)) void sb_layout_prefetch(const void *table, uint32_t asize, const void *keys,
                                                                     uint32_t i, uint32_t slot) {
    const sb_ltvalue *v = &((const sb_ltable *)keys)->array[i - 1];
    if (v->tt & SB_TAG_COLLECTABLE) __builtin_prefetch(v->value.gc);
    const sb_ltable *t = (const sb_ltable *)table;
    if (slot >= asize) __builtin_prefetch(&t->node[slot - asize]);
}

/// Whether keys[i] (a key table) is the object, light userdata or light C function whose
/// lua_topointer is `p` (not NULL). No other value has that pointer: a live object's address is no
/// other object's, nor inside one, nor code; the only light userdata a script can hold are
/// debug.upvalueid's, which point at upvalues, never at a key (a full userdata's pointer is its
/// memory, not its object: never matched).
static inline __attribute__((always_inline)) int sb_layout_is_object(const void *p, const void *keys, uint32_t i) {
    const sb_ltvalue *v = &((const sb_ltable *)keys)->array[i - 1];
    int type = v->tt & 0x0f;
    return v->value.p == p && type != LUA_TNUMBER && type != LUA_TBOOLEAN && type != LUA_TUSERDATA && type != LUA_TNIL;
}

#endif
