// `load`, `string.dump` and `warn` for the sandbox (sandbox_private.h).
#include "sandbox_private.h"

#include <lauxlib.h>
#include <string.h>

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
int sb_load(lua_State *L) {
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
int sb_dump(lua_State *L) {
    if (lua_type(L, 1) == LUA_TFUNCTION && !lua_iscfunction(L, 1)) {
        lua_Debug ar;
        lua_pushvalue(L, 1);
        lua_getinfo(L, ">S", &ar);
        if (strncmp(ar.source, "=stackplay/", 11) == 0) return luaL_error(L, "unable to dump given function");
    }
    return sb_raw(L)(L);
}

/// `warn(msg1, ...)`: as stock, into the test's output ("Lua warning: ..."), off until "@on".
int sb_warn(lua_State *L) {
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
