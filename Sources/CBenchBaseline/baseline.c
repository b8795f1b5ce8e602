// The C floor `make bench` compares a test's overhead with: a fresh state, every standard
// library, a small chunk, closed again.
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include "CBenchBaseline.h"

#include <sys/prctl.h>

int stackplay_bench_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

long stackplay_bench_fresh_states(long rounds) {
    static const char chunk[] = "local t = { 1, 2, 3 } return #t + 1";
    long sum = 0;
    for (long i = 0; i < rounds; i++) {
        lua_State *L = luaL_newstate();
        if (!L) return -1;
        luaL_openlibs(L);
        if (luaL_loadbufferx(L, chunk, sizeof chunk - 1, "=baseline", "t") != LUA_OK ||
            lua_pcall(L, 0, 1, 0) != LUA_OK) {
            lua_close(L);
            return -1;
        }
        sum += (long)lua_tointegerx(L, -1, NULL);
        lua_close(L);
    }
    return sum;
}
