// `table.sort` for the sandbox (sandbox_private.h).
#include "sandbox_private.h"

#include <lauxlib.h>
#include <limits.h>

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

int sb_sort(lua_State *L) {
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
