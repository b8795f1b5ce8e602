// Reading a table's layout (sandbox_private.h): its live slots, the check of a cache against them,
// the trust mark in its flags, and the description the sort needs of each key in a key array.
//
// Lua's C API visits a table only through lua_next, which looks the previous key up again on
// every step: a hash lookup that reads the key's own memory, so a pass over 10^5 string keys
// costs as much as a traversal of them in Lua (measured: 3-18 ms, the more the busier the
// machine). Checking a cache against its table reads Lua 5.4's table layout (lobject.h: the array
// part, then the nodes) instead, in order and without touching the keys' memory: about a
// nanosecond a slot. It only reads, under the table on the stack, with no allocation in between.
// The layout is checked once per state against lua_next on a probe table (the order of keys, their
// values, strings' bytes and lengths); where it does not match (another Lua), everything goes
// through lua_next and the C API instead.
//
// The trust mark: Lua 5.4 keeps in a table's `flags` one bit per metamethod that it found absent
// (a cache for when the table is a metatable), and clears them all whenever a key is inserted
// (luaV_finishset, lua_rawset and so on: every insertion a script can make). Setting the bit of a
// metamethod the table really lacks ("__gc", else "__mode") tells Lua nothing untrue, and the bit
// still set later says that no key was inserted since. Bit 6, which Lua 5.4 neither sets nor
// clears, says that the sandbox set it (a new table at a freed table's address has it clear).
#include "sandbox_layout.h"

#include <lauxlib.h>
#include <stdint.h>
#include <string.h>

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

void sb_describe(lua_State *L, int keys, uint32_t base, sb_key *e, size_t n) {
    const sb_ltable *t = sb_state_of(L)->layout ? (const sb_ltable *)lua_topointer(L, keys) : NULL;
    for (size_t i = 0; i < n; i++) {
        sb_key *k = &e[i];
        if (t && k->rank == 0) sb_describe_at(t, base + i, k);
        if (k->rank != 0) {
            k->slot = (uint32_t)(i + 1);
            continue;
        }
        k->slot = (uint32_t)(i + 1);
        if (lua_rawgeti(L, keys, (lua_Integer)(base + i + 1)) == LUA_TNIL) {
            k->rank = 4; // a key of a weak table, collected meanwhile: gone from it too
            k->a = 0;
        } else {
            sb_key_of(L, -1, k);
        }
        lua_pop(L, 1);
    }
}

// MARK: Slots, the exact check, the trust mark

uint32_t sb_layout_asize(const void *table) { return sb_array_size((const sb_ltable *)table); }

uint32_t sb_layout_slots(const void *table, uint32_t *out, uint32_t max) {
    const sb_ltable *t = (const sb_ltable *)table;
    uint32_t n = 0, asize = sb_array_size(t);
    for (uint32_t i = 0; i < asize; i++) {
        if ((t->array[i].tt & 0x0f) == 0) continue;
        if (n == max) return max + 1;
        if (out) out[n] = i;
        n++;
    }
    size_t nodes = (size_t)1 << t->lsizenode;
    for (size_t i = 0; i < nodes; i++) {
        if ((t->node[i].tt & 0x0f) == 0) continue;
        if (n == max) return max + 1;
        if (out) out[n] = asize + (uint32_t)i;
        n++;
    }
    return n;
}


int sb_layout_names(const sb_state *s, const void *keys, uint32_t base, uint32_t n) {
    const sb_ltvalue *v = ((const sb_ltable *)keys)->array + base;
    int names = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (v[i].tt != SB_TAG_SHORT) continue;
        if (v[i].value.gc == s->tm_gc) names |= 1;
        if (v[i].value.gc == s->tm_mode) names |= 2;
    }
    return names;
}

int sb_layout_verify(const sb_state *s, const void *table, const sb_cache *c, int *names) {
    const sb_ltable *t = (const sb_ltable *)table;
    const sb_ltvalue *keys = ((const sb_ltable *)c->keys)->array + c->base;
    *names = 0;
    uint32_t asize = sb_array_size(t);
    if (asize != c->asize) return 0;
    uint32_t i = 0, n = c->n;
    for (uint32_t a = 0; a < asize; a++) {
        if ((t->array[a].tt & 0x0f) == 0) continue;
        while (i < n && c->slot[i] < a) i++;
        if (i == n || c->slot[i] != a || keys[i].tt != SB_TAG_INT || keys[i].value.i != (lua_Integer)a + 1) return 0;
        i++;
    }
    size_t nodes = (size_t)1 << t->lsizenode;
    for (size_t j = 0; j < nodes; j++) {
        const sb_lnode *node = &t->node[j];
        if ((node->tt & 0x0f) == 0) continue;
        uint32_t slot = asize + (uint32_t)j;
        while (i < n && c->slot[i] < slot) i++;
        if (i == n || c->slot[i] != slot || keys[i].tt != node->key_tt) return 0;
        if (node->key_tt != SB_TAG_FALSE && node->key_tt != SB_TAG_TRUE &&
            memcmp(&keys[i].value, &node->key_val, sizeof(sb_lvalue)) != 0)
            return 0;
        if (node->key_tt == SB_TAG_SHORT) {
            if (node->key_val.gc == s->tm_gc) *names |= 1;
            if (node->key_val.gc == s->tm_mode) *names |= 2;
        }
        i++;
    }
    return 1;
}




// MARK: The check

/// Whether the layout above is this Lua's: a probe table read both ways must agree on every key
/// (array and hash parts, removed keys, every kind of key but full userdata).
int sb_layout_matches(lua_State *L) {
    // STACKPLAY_NO_LAYOUT: a build that never reads the layout (the environment's switch is
    // STACKPLAY_PLAIN_NEXT, sandbox.c), as on a Lua whose layout is not 5.4's
#if LUA_VERSION_NUM != 504 || defined(STACKPLAY_NO_LAYOUT)
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
    unsigned int asize = sb_array_size(table), i = 0;
    size_t nodes = (size_t)1 << table->lsizenode, j = 0;
    lua_pushnil(L);
    while (ok && lua_next(L, t)) {
        lua_pop(L, 1);
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
        ok = sb_same(L, -1, tag, bits);
        if (ok && lua_type(L, -1) == LUA_TSTRING) {
            size_t len;
            const char *s = lua_tolstring(L, -1, &len);
            const sb_lstring *ls = (const sb_lstring *)bits->gc;
            ok = (tag == SB_TAG_SHORT || tag == SB_TAG_LONG) && ls->contents == s &&
                 (tag == SB_TAG_SHORT ? ls->shrlen : ls->lnglen) == len && (len > 40) == (tag == SB_TAG_LONG);
        }
        count++;
    }
    if (ok) {
        uint32_t slots[16];
        ok = count == 13 && sb_layout_slots(table, slots, 16) == count;
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

int sb_trust_matches(lua_State *L) {
    if (!sb_layout_matches(L)) return 0;
    int top = lua_gettop(L);
    const unsigned char mark = SB_FLAG_SANDBOX | 0x04; // the sandbox's bit and TM_GC's
    lua_createtable(L, 0, 4);
    const void *t = lua_topointer(L, -1);
    int ok = sb_layout_flags(t, SB_FLAG_SANDBOX) == 0; // a new table is unmarked
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "x"); // an insertion clears the metamethod bits
    ok = ok && sb_layout_flags(t, 0x04) == 0;
    sb_layout_mark(t, mark);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "x"); // an existing key's new value is no insertion
    ok = ok && sb_layout_flags(t, mark) == mark;
    lua_pushnil(L);
    lua_setfield(L, -2, "x"); // nor is a removal
    ok = ok && sb_layout_flags(t, mark) == mark;
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "x"); // but a key given back is
    ok = ok && sb_layout_flags(t, mark) == SB_FLAG_SANDBOX;
    sb_layout_mark(t, mark);
    lua_pushliteral(L, "y");
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    ok = ok && sb_layout_flags(t, mark) == SB_FLAG_SANDBOX;
    sb_layout_mark(t, mark);
    lua_pushboolean(L, 1);
    lua_seti(L, -2, 1);
    ok = ok && sb_layout_flags(t, mark) == SB_FLAG_SANDBOX;
    lua_settop(L, top);
    return ok;
}

/// Whether sb_layout_push_plain reads this Lua's values: on a probe table, every value it copies
/// (numbers and booleans, in the array part and in nodes) is raw-equal to lua_next's, and it copies
/// no other value.
int sb_values_match(lua_State *L) {
    int top = lua_gettop(L);
    lua_createtable(L, 3, 8);
    const void *t = lua_topointer(L, -1);
    lua_pushinteger(L, -7);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, 2.5);
    lua_rawseti(L, -2, 2);
    lua_pushboolean(L, 0);
    lua_rawseti(L, -2, 3);
    lua_pushinteger(L, 1 << 20);
    lua_setfield(L, -2, "i");
    lua_pushnumber(L, -0.25);
    lua_setfield(L, -2, "f");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "t");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "b");
    lua_pushliteral(L, "not copied");
    lua_setfield(L, -2, "s");
    lua_createtable(L, 0, 0);
    lua_setfield(L, -2, "o");
    uint32_t slots[16], count = sb_layout_slots(t, slots, 16), asize = sb_layout_asize(t), i = 0;
    int ok = count == 9, copied = 0;
    lua_pushnil(L);
    while (ok && lua_next(L, -2)) {
        int type = lua_type(L, -1);
        if (i == count) {
            ok = 0;
        } else if (sb_layout_push_plain(L, t, asize, slots[i++])) {
            ok = (type == LUA_TNUMBER || type == LUA_TBOOLEAN) && lua_rawequal(L, -1, -2) &&
                 lua_isinteger(L, -1) == lua_isinteger(L, -2);
            copied++;
            lua_pop(L, 1);
        } else {
            ok = type != LUA_TNUMBER && type != LUA_TBOOLEAN;
        }
        lua_pop(L, 1);
    }
    ok = ok && i == count && copied == 7;
    lua_settop(L, top);
    return ok;
}

int stackplay_sandbox_reads_layout(lua_State *L) { return sb_layout_matches(L); }
