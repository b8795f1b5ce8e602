// Object numbers instead of addresses (sandbox_private.h): `tostring`, `print` and
// `string.format`'s `%s` and `%p` name tables, functions, coroutines and userdata by the number
// stackplay gave them first, never by address; a `__tostring` result is never rewritten.
#include "sandbox_private.h"

#include <lauxlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// The longest string Lua interns (LUAI_MAXSHORTLEN of Lua 5.4's llimits.h).
#define SB_SHORT_STRING 40

/// The number of the object at `idx`, given now if it has none yet.
lua_Integer sb_object_id(lua_State *L, int idx) {
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

/// The number of the long string at `idx` as an object: Lua interns short strings (equal ones are
/// one object) but not long ones, and stock's `%p` tells two long strings with equal contents
/// apart. Each is numbered by its object (ids[address] = id) and held (ids[-id] = the string),
/// so that no other string can take its address while the number stands: the numbers stay the
/// same on every run, whatever the allocator does.
static lua_Integer sb_long_string_id(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int ids = lua_upvalueindex(SB_IDS);
    lua_pushlightuserdata(L, (void *)lua_topointer(L, idx));
    if (lua_rawget(L, ids) == LUA_TNUMBER) {
        lua_Integer id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        return id;
    }
    lua_pop(L, 1);
    lua_Integer id = ++sb_state_of(L)->last_id;
    lua_pushlightuserdata(L, (void *)lua_topointer(L, idx));
    lua_pushinteger(L, id);
    lua_rawset(L, ids);
    lua_pushvalue(L, idx);
    lua_rawseti(L, ids, -id);
    return id;
}

/// Pushes "kind: id" (what stock's "%s: %p" would show, a number for the address), built by hand:
/// lua_pushfstring formats the number through snprintf, most of a tostring's cost.
static void sb_push_name(lua_State *L, const char *kind, lua_Integer id) {
    char text[64];
    size_t len = strlen(kind);
    if (len > sizeof text - 24) {
        lua_pushfstring(L, "%s: %I", kind, (LUAI_UACINT)id);
        return;
    }
    memcpy(text, kind, len);
    text[len++] = ':';
    text[len++] = ' ';
    char digits[24];
    size_t n = 0;
    uint64_t v = (uint64_t)id; // ids count up from 1
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) text[len++] = digits[--n];
    lua_pushlstring(L, text, len);
}

/// luaL_tolstring with object numbers for addresses: `__tostring` as stock (its result never
/// rewritten), `__name` names the kind, "table: 3" instead of "table: 0x55...". Pushes the text.
const char *sb_tolstring(lua_State *L, int idx, size_t *len) {
    idx = lua_absindex(L, idx);
    if (luaL_callmeta(L, idx, "__tostring")) {
        if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
        return lua_tolstring(L, -1, len);
    }
    if (!sb_is_object(lua_type(L, idx))) return luaL_tolstring(L, idx, len);
    int named = luaL_getmetafield(L, idx, "__name");
    const char *kind = named == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, idx);
    sb_push_name(L, kind, sb_object_id(L, idx));
    if (named != LUA_TNIL) lua_remove(L, -2);
    return lua_tolstring(L, -1, len);
}

int sb_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    sb_tolstring(L, 1, NULL);
    return 1;
}

/// Calls the output function with the string on top (popped).
void sb_write(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(SB_WRITE));
    lua_rotate(L, -2, 1);
    lua_call(L, 1, 0);
}

/// `print`: each piece is handed to the captured output as it is, with a tab between and a
/// newline after, never joined first: printing a 10^8-byte string makes no copy of it, and the
/// output keeps what its cap allows.
int sb_print(lua_State *L) {
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
int sb_format(lua_State *L) {
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
                if (type == LUA_TSTRING && lua_rawlen(L, arg) > SB_SHORT_STRING) {
                    sb_push_name(L, "string", sb_long_string_id(L, arg));
                } else if (sb_is_object(type) || type == LUA_TSTRING) {
                    sb_push_name(L, luaL_typename(L, arg), sb_object_id(L, arg));
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
