// os.clock, os.time and os.date for the sandbox (sandbox_time.h): stock Lua 5.4's behaviour on a
// machine whose time zone is UTC, at the fixed epoch STACKPLAY_SANDBOX_EPOCH.
#include "sandbox.h"
#include "sandbox_time.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int sb_clock(lua_State *L) {
    lua_pushnumber(L, 0.0);
    return 1;
}

static void sb_setfield(lua_State *L, const char *key, int value, int delta) {
    lua_pushinteger(L, (lua_Integer)value + delta);
    lua_setfield(L, -2, key);
}

static void sb_setallfields(lua_State *L, const struct tm *stm) {
    sb_setfield(L, "year", stm->tm_year, 1900);
    sb_setfield(L, "month", stm->tm_mon, 1);
    sb_setfield(L, "day", stm->tm_mday, 0);
    sb_setfield(L, "hour", stm->tm_hour, 0);
    sb_setfield(L, "min", stm->tm_min, 0);
    sb_setfield(L, "sec", stm->tm_sec, 0);
    sb_setfield(L, "yday", stm->tm_yday, 1);
    sb_setfield(L, "wday", stm->tm_wday, 1);
    lua_pushboolean(L, 0); // a UTC machine has no daylight saving time
    lua_setfield(L, -2, "isdst");
}

static int sb_getfield(lua_State *L, const char *key, int d, int delta) {
    int isnum;
    int t = lua_getfield(L, -1, key);
    lua_Integer res = lua_tointegerx(L, -1, &isnum);
    if (!isnum) {
        if (t != LUA_TNIL) return luaL_error(L, "field '%s' is not an integer", key);
        if (d < 0) return luaL_error(L, "field '%s' missing in date table", key);
        res = d;
    } else {
        if (!(res >= 0 ? res - delta <= INT_MAX : INT_MIN + delta <= res))
            return luaL_error(L, "field '%s' is out-of-bound", key);
        res -= delta;
    }
    lua_pop(L, 1);
    return (int)res;
}

/// `os.time([t])`: the fixed epoch, or the date table read as stock reads it on a UTC machine
/// (fields normalised and filled in, isdst = true an hour earlier, as mktime does there).
int sb_time(lua_State *L) {
    time_t t;
    if (lua_isnoneornil(L, 1)) {
        t = (time_t)STACKPLAY_SANDBOX_EPOCH;
    } else {
        struct tm ts;
        memset(&ts, 0, sizeof ts);
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_settop(L, 1);
        ts.tm_year = sb_getfield(L, "year", -1, 1900);
        ts.tm_mon = sb_getfield(L, "month", -1, 1);
        ts.tm_mday = sb_getfield(L, "day", -1, 0);
        ts.tm_hour = sb_getfield(L, "hour", 12, 0);
        ts.tm_min = sb_getfield(L, "min", 0, 0);
        ts.tm_sec = sb_getfield(L, "sec", 0, 0);
        int isdst = lua_getfield(L, -1, "isdst") == LUA_TNIL ? -1 : lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (isdst > 0) {
            if (ts.tm_hour == INT_MIN) return luaL_error(L, "time result cannot be represented in this installation");
            ts.tm_hour -= 1;
        }
        t = timegm(&ts);
        if (t == (time_t)-1) return luaL_error(L, "time result cannot be represented in this installation");
        sb_setallfields(L, &ts);
    }
    lua_pushinteger(L, (lua_Integer)t);
    return 1;
}

static const char sb_single_options[] = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%";
static const char *const sb_double_options[] = {"Ec", "EC", "Ex", "EX", "Ey", "EY", "Od", "Oe", "OH", "OI",
                                                "Om", "OM", "OS", "Ou", "OU", "OV", "Ow", "OW", "Oy", NULL};

/// The conversion at `conv` (after '%') as stock validates it: copied into `out` with its '%';
/// returns what follows it, or raises stock's "invalid conversion specifier".
static const char *sb_option(lua_State *L, const char *conv, size_t left, char *out) {
    if (left >= 1 && conv[0] && strchr(sb_single_options, conv[0])) {
        out[0] = '%';
        out[1] = conv[0];
        out[2] = '\0';
        return conv + 1;
    }
    for (int i = 0; left >= 2 && sb_double_options[i]; i++) {
        if (memcmp(conv, sb_double_options[i], 2) == 0) {
            out[0] = '%';
            out[1] = conv[0];
            out[2] = conv[1];
            out[3] = '\0';
            return conv + 2;
        }
    }
    luaL_argerror(L, 1, lua_pushfstring(L, "invalid conversion specifier '%%%s'", conv));
    return conv;
}

/// `os.date([format [, time]])`: stock's on a UTC machine (a leading '!' changes nothing; %Z is
/// "UTC"), at the fixed epoch unless a time is given.
int sb_date(lua_State *L) {
    size_t len;
    const char *s = luaL_optlstring(L, 1, "%c", &len);
    time_t t = (time_t)STACKPLAY_SANDBOX_EPOCH;
    if (!lua_isnoneornil(L, 2)) {
        lua_Integer given = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (time_t)given == given, 2, "time out-of-bounds");
        t = (time_t)given;
    }
    const char *end = s + len;
    if (*s == '!') s++;
    struct tm tmr;
    struct tm *stm = gmtime_r(&t, &tmr);
    if (stm == NULL) return luaL_error(L, "date result cannot be represented in this installation");
    if (strcmp(s, "*t") == 0) {
        lua_createtable(L, 0, 9);
        sb_setallfields(L, stm);
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char cc[4];
    while (s < end) {
        if (*s != '%') {
            luaL_addchar(&b, *s++);
            continue;
        }
        s = sb_option(L, s + 1, (size_t)(end - s - 1), cc);
        if (cc[1] == 'Z') {
            luaL_addstring(&b, "UTC");
        } else {
            char *buffer = luaL_prepbuffsize(&b, 250);
            luaL_addsize(&b, strftime(buffer, 250, cc, stm));
        }
    }
    luaL_pushresult(&b);
    return 1;
}
