#define _GNU_SOURCE
// The trampolines that call Swift from Lua and raise only after its frames have returned, and host
// mode (stackplay as a library in a state it did not create); declared in include/CLuaRuntime.h,
// sharing the guard with runtime.c through guard.h.
#include "guard.h"

#include <lauxlib.h>
#include <string.h>

// MARK: Calling Swift from Lua

/// Releases the Swift object in the userdata slot at 1 once, then nulls the slot so that a
/// resurrected userdata or a second finalizer finds it dead.
static void stackplay_release_slot(lua_State *L, void (*release)(void *)) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot && *slot) {
        void *object = *slot;
        *slot = NULL;
        release(object);
    }
}

/// `__gc` of every userdata holding a retained Swift object.
static int stackplay_release_gc(lua_State *L) {
    stackplay_guard *g = stackplay_guard_of(L);
    void **slot = (void **)lua_touserdata(L, 1);
    if (g->source && slot && *slot) {
        void *object = *slot;
        *slot = NULL;
        g->source->release(g->source_context, object, g->release);
        return 0;
    }
    stackplay_release_slot(L, g->release);
    return 0;
}

static int stackplay_push_host_release_gc(lua_State *L);
void stackplay_push_release_gc(lua_State *L) {
    if (stackplay_push_host_release_gc(L)) return;
    lua_pushcfunction(L, stackplay_release_gc);
}

int stackplay_push_object(lua_State *L, void *object, const void *metatable) {
    assert(object != NULL && metatable != NULL);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, metatable) != LUA_TTABLE) { lua_settop(L, -2); return 0; }
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = object;
    lua_rotate(L, -2, 1);
    lua_setmetatable(L, -2);
    return 1;
}

void **stackplay_object_slot(lua_State *L, int i, const void *metatable) {
    assert(metatable != NULL && i != 0); // 0 is no index (manual 4.1)
    void **slot = (void **)lua_touserdata(L, i);
    if (!slot || lua_type(L, i) != LUA_TUSERDATA || !lua_getmetatable(L, i)) return NULL;
    lua_rawgetp(L, LUA_REGISTRYINDEX, metatable);
    int same = lua_rawequal(L, -1, -2);
    lua_settop(L, -3);
    return same ? slot : NULL;
}

/// How often, at most, the trampoline measures Swift's memory and reads the thread's CPU clock
/// after a Swift call: once STACKPLAY_CHECK_TICKS of stackplay_ticks() have passed (1 to 4 ms:
/// 2^22 cycles at 1 to 4 GHz, 2^16 ticks of a 19.2 MHz arm64 counter, 2^22 ns of the coarse
/// clock). Between two checks a call costs one read of the counter (a few cycles; a vDSO clock
/// read cost 15-20 ns a touch move), so the hot paths do not slow down, and a long call (a
/// toggle of 10^5 cards) is checked as it returns.
#if defined(__aarch64__)
#define STACKPLAY_CHECK_TICKS (1ull << 16)
#else
#define STACKPLAY_CHECK_TICKS (1ull << 22)
#endif

/// After a Swift call: at most every STACKPLAY_CHECK_TICKS, re-measures the Swift objects'
/// memory and trips the CPU budget if the call (say a toggle of 10^5 cards) used it up. A long
/// Swift call is stopped right after it returns; no Lua instruction has to run for that.
static void stackplay_check_after_swift(lua_State *L, stackplay_guard *g) {
    unsigned long long now = stackplay_ticks();
    if (g->last_check && now - g->last_check < STACKPLAY_CHECK_TICKS) return;
    g->last_check = now;
    if (g->measure) g->charged = g->measure(g->meter);
    if (!g->tripped && g->cpu_deadline > 0 && stackplay_thread_cpu_seconds() > g->cpu_deadline) {
        stackplay_trip(g, L, STACKPLAY_STOP_CPU);
    }
}

/// After a Swift call that returned `n` (its results' count or STACKPLAY_RAISE), with the guard
/// exempt again as before it: raises a budget stop or the Swift function's error, else returns `n`.
static int stackplay_after_swift(lua_State *L, stackplay_guard *g, int n) {
    if (g->exempt == 0) stackplay_check_after_swift(L, g);
    if (g->exempt == 0 && stackplay_over_memory(g)) stackplay_trip(g, L, STACKPLAY_STOP_MEMORY);
    if (g->tripped && g->exempt == 0) return stackplay_raise_stop(L, g);
    if (n == STACKPLAY_RAISE) return lua_error(L);
    return n;
}

/// The thread of the innermost Swift call running on this OS thread (NULL: none), and how many
/// Swift calls began on it: a trace recorder asks which script line made an input, and whether
/// two inputs came from the same call (stackplay_running_call).
static __thread lua_State *stackplay_calling;
static __thread unsigned long long stackplay_calls;

lua_State *stackplay_running_call(unsigned long long *serial) {
    *serial = stackplay_calls;
    return stackplay_calling;
}

/// Calls the Swift closure `box`, then raises (from C, after the Swift frames have returned)
/// if Swift returned STACKPLAY_RAISE or pushed the state past its CPU or memory budget.
static int stackplay_call_swift(lua_State *L, void *box) {
    stackplay_guard *g = stackplay_guard_of(L);
    g->exempt++;
    lua_State *outer = stackplay_calling;
    stackplay_calling = L;
    stackplay_calls++;
    int n = g->dispatch(L, box);
    stackplay_calling = outer;
    g->exempt--;
    return stackplay_after_swift(L, g, n);
}

/// Lua calls this for a Swift function whose box a userdata upvalue holds (released by its `__gc`).
static int stackplay_trampoline(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    if (!*slot) return luaL_error(L, "a stackplay function was called after the state closed");
    return stackplay_call_swift(L, *slot);
}

/// The trampoline of a Swift function that outlives every state (a method table built once a
/// process, ``MethodTable``): the box is a light userdata upvalue, so pushing the function costs no
/// userdata, no metatable and no finalizer. Otherwise as stackplay_trampoline.
static int stackplay_static_trampoline(lua_State *L) {
    return stackplay_call_swift(L, lua_touserdata(L, lua_upvalueindex(1)));
}

void stackplay_push_static_function(lua_State *L, void *box) {
    lua_pushlightuserdata(L, box);
    lua_pushcclosure(L, stackplay_static_trampoline, 1);
}



/// Lua calls this for a method with a fast path. Upvalue 1 is the fast function (light userdata),
/// 2 the class's metatable, 3 the upvalue of the method's ordinary closure (its box: a light
/// userdata, or the userdata slot of stackplay_trampoline). When `self` is not a live object of
/// the class, or the fast function falls back, the box runs in this same C frame, so every
/// message (and its "chunkname:line: ") is the ordinary closure's.
static int stackplay_fast_trampoline(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot && *slot && lua_type(L, 1) == LUA_TUSERDATA && lua_getmetatable(L, 1)) {
        int same = lua_rawequal(L, -1, lua_upvalueindex(2));
        lua_settop(L, -2);
        if (same) {
            stackplay_guard *g = stackplay_guard_of(L);
            stackplay_fast_fn fast = (stackplay_fast_fn)lua_touserdata(L, lua_upvalueindex(1));
            g->exempt++;
            lua_State *outer = stackplay_calling;
            stackplay_calling = L;
            stackplay_calls++;
            int n = fast(L, *slot);
            stackplay_calling = outer;
            g->exempt--;
            if (n != STACKPLAY_FALLBACK) return stackplay_after_swift(L, g, n);
        }
    }
    void *box = lua_touserdata(L, lua_upvalueindex(3));
    if (lua_type(L, lua_upvalueindex(3)) == LUA_TUSERDATA) {
        box = *(void **)box;
        if (!box) return luaL_error(L, "a stackplay function was called after the state closed");
    }
    return stackplay_call_swift(L, box);
}

void stackplay_push_fast_method(lua_State *L, stackplay_fast_fn fast, int metatable) {
    lua_pushlightuserdata(L, (void *)fast);
    lua_pushvalue(L, metatable);
    lua_getupvalue(L, -3, 1);
    lua_pushcclosure(L, stackplay_fast_trampoline, 3);
    lua_rotate(L, -2, 1);
    lua_settop(L, -2);
}

// MARK: Host mode: stackplay as a library in a state it did not create



void stackplay_host_install(lua_State *L, stackplay_dispatch_fn dispatch, void (*release)(void *)) {
    if (stackplay_host_of(L)) { lua_settop(L, -2); return; }
    stackplay_host *h = (stackplay_host *)lua_newuserdatauv(L, sizeof *h, 0);
    h->dispatch = dispatch;
    h->release = release;
    lua_setfield(L, LUA_REGISTRYINDEX, "stackplay.host");
}

/// `__gc` in a host's state: the host record is upvalue 1.
static int stackplay_host_release_gc(lua_State *L) {
    stackplay_release_slot(L, ((stackplay_host *)lua_touserdata(L, lua_upvalueindex(1)))->release);
    return 0;
}

/// The trampoline in a host's state: the box is upvalue 1, the host record upvalue 2. Raises the
/// Swift function's error after the Swift frames have returned; no budgets to check.
static int stackplay_host_trampoline(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    stackplay_host *h = (stackplay_host *)lua_touserdata(L, lua_upvalueindex(2));
    if (!*slot) return luaL_error(L, "a stackplay function was called after it was released");
    lua_State *outer = stackplay_calling;
    stackplay_calling = L;
    stackplay_calls++;
    int n = h->dispatch(L, *slot);
    stackplay_calling = outer;
    if (n == STACKPLAY_RAISE) return lua_error(L);
    return n;
}

/// In a host's state, pushes the `__gc` closure for object metatables and returns 1; else 0.
static int stackplay_push_host_release_gc(lua_State *L) {
    if (!stackplay_host_of(L)) return 0;
    lua_pushcclosure(L, stackplay_host_release_gc, 1);
    return 1;
}

/// In a host's state, pushes a Lua function calling the Swift closure `box` and returns 1; else 0.
static int stackplay_push_host_function(lua_State *L, void *box) {
    if (!stackplay_host_of(L)) return 0;
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = box;
    if (luaL_newmetatable(L, "stackplay.host_function")) {
        lua_pushvalue(L, -3);
        lua_pushcclosure(L, stackplay_host_release_gc, 1);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_rotate(L, -2, 1);
    lua_pushcclosure(L, stackplay_host_trampoline, 2);
    return 1;
}

void stackplay_push_swift_function(lua_State *L, void *box) {
    if (stackplay_push_host_function(L, box)) return;
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = box;
    // The registry has no metatable, so these lua_getfield/lua_setfield calls run no Lua code.
    if (luaL_newmetatable(L, "stackplay.function")) {
        lua_pushcfunction(L, stackplay_release_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, stackplay_trampoline, 1);
    stackplay_guard *g = stackplay_guard_of(L);
    if (g->source) g->source->retained(g->source_context, box);
}

void stackplay_push_error(lua_State *L, const char *message, size_t size) {
    luaL_where(L, 1);
    lua_pushlstring(L, message, size);
    lua_concat(L, 2);
}
