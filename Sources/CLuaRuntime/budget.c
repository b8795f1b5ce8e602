// The CPU and memory budgets' stop (declared in guard.h): where a script is, the stop's message,
// tripping it, and the count hook that raises it at the script's next instruction. Called by
// runtime.c (the allocator, running chunks), trampolines.c (after a Swift call) and watchdog.c
// (the CPU timer arms the hook); it calls none of them.
#include "guard.h"

#include <lauxlib.h>
#include <stdio.h>
#include <time.h>

double stackplay_thread_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/// Writes "chunkname:line: " of the innermost Lua function on `L` into `out` ("" if none).
/// lua_getstack/lua_getinfo("Sl") neither allocate nor raise.
void stackplay_where(lua_State *L, char *out, size_t size) {
    lua_Debug ar;
    out[0] = '\0';
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            snprintf(out, size, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
}

/// Arms the hook on every line and instruction so that a script's own pcall cannot swallow a stop.
static void stackplay_rearm(lua_State *L) {
    lua_sethook(L, stackplay_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
}

void stackplay_trip(stackplay_guard *g, lua_State *L, int kind) {
    if (g->tripped) return;
    g->tripped = kind;
    if (L) stackplay_where(L, g->where, sizeof g->where);
    if (g->main) stackplay_rearm(g->main);
}

const char *stackplay_stop_message(lua_State *L, stackplay_guard *g) {
    if (!g->tripped) return "";
    if (!g->where[0] && L) stackplay_where(L, g->where, sizeof g->where);
    snprintf(g->stop, sizeof g->stop, "%s%s", g->where,
             g->tripped == STACKPLAY_STOP_CPU ? g->cpu_text : g->memory_text);
    return g->stop;
}

// Pushing the stop message may allocate past the limit, so it is exempt.
int stackplay_raise_stop(lua_State *L, stackplay_guard *g) {
    const char *msg = stackplay_stop_message(L, g);
    g->exempt++;
    lua_pushstring(L, msg);
    g->exempt--;
    return lua_error(L);
}

void stackplay_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    stackplay_guard *g = stackplay_guard_of(L);
    // Raising here is always safe: Lua code only runs under a pcall (Swift's, or the GC's for
    // finalizers) whose catch is below any Swift frame.
    if (!g->tripped && g->cpu_deadline > 0 && stackplay_thread_cpu_seconds() > g->cpu_deadline) {
        stackplay_trip(g, L, STACKPLAY_STOP_CPU);
    }
    if (g->tripped) {
        stackplay_rearm(L);
        stackplay_raise_stop(L, g);
    }
}

void stackplay_hook_coroutine(lua_State *L, lua_State *co) {
    // Only in stackplay's own states (whose allocator's data is the guard): a bare state has none.
    void *guard;
    lua_getallocf(L, &guard);
    if (guard == NULL || guard != *(void **)lua_getextraspace(L)) return;
    stackplay_guard *g = guard;
    if (g->cpu_budget <= 0 || co == NULL) return;
    if (lua_gethook(co) != NULL && lua_gethookmask(co) != 0) return;  // inherited (a stopped state's)
    lua_sethook(co, stackplay_hook, LUA_MASKCOUNT, g->hook_count);
}
