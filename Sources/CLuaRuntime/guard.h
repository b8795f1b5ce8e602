// What runtime.c, budget.c, trampolines.c and watchdog.c share, inside CLuaRuntime (not part of
// its public header; no other target includes it): the guard every state keeps in its extra
// space, and the functions one file gives the others. The files call one way: runtime.c ->
// watchdog.c -> budget.c, trampolines.c -> budget.c (tools/check-layers).
#ifndef STACKPLAY_GUARD_H
#define STACKPLAY_GUARD_H

#include "CLuaRuntime.h"

#include <assert.h>
#include <lua.h>
#include <stddef.h>
#include <time.h>

typedef struct stackplay_guard {
    size_t used;          // bytes Lua holds now
    size_t charged;       // bytes the state's Swift objects hold (cards, screens, recorders), estimated
    size_t limit;         // the memory budget in bytes (Lua's and Swift's together); 0: none
    int exempt;           // > 0: allocations are not refused (setup, Swift callbacks, reporting)
    // Every allocation reads these three, beside the counts above (one cache line):
    struct stackplay_pool *pool; // small blocks of this state (stackplay_pool_*); NULL: malloc only
    // source->realloc, kept here: the arena's path pays no second load before its call
    void *(*source_realloc)(void *context, void *ptr, size_t osize, size_t nsize);
    void *source_context; // the source's own (CLuaSnapshot: the arena)
    int tripped;          // STACKPLAY_STOP_*; once set it stays set
    double cpu_budget;    // seconds of thread CPU time a run may use; <= 0: none
    double cpu_deadline;  // thread CPU time at which the running chunk stops
    int hook_count;       // instructions between two budget checks
    lua_State *main;      // the main thread, for positions and arming the hook
    stackplay_dispatch_fn dispatch;
    void (*release)(void *object); // balances the retain held by a userdata slot
    size_t (*measure)(void *meter); // estimates `charged` from the Swift objects; may be NULL
    void *meter;          // the retained Swift box `measure` reads; released at close
    unsigned long long last_check; // stackplay_ticks() at the last check after a Swift call; 0: check now
    int depth;            // stackplay_pcall nesting; the outermost one sets the CPU deadline
    char cpu_text[96];    // "stopped: the script used its 10 s of CPU time"
    char memory_text[96]; // "stopped: the script used its 256 MiB of memory"
    char where[400];      // "chunkname:line: " where the stop happened, once known
    char stop[512];       // the full stop message, built by stackplay_stop_message
    const stackplay_block_source *source; // where every block comes from instead (an arena); NULL: the pool
    int hash_seed_fixed;  // 1: the string hash's seed is STACKPLAY_HASH_SEED (seed.c)
} stackplay_guard;

/// The guard of the state `L` belongs to (in its extra space).
static inline stackplay_guard *stackplay_guard_of(lua_State *L) { return *(stackplay_guard **)lua_getextraspace(L); }

/// This thread's CPU time, in seconds (budget.c).
double stackplay_thread_cpu_seconds(void);

/// A bound at or above this thread's CPU time now, in seconds, at most `slack` (and 1 ms) above
/// it, read without a system call most times (watchdog.c).
double stackplay_thread_cpu_bound(double slack);

/// Writes "chunkname:line: " of the innermost Lua function on `L` into `out` ("" if none) (budget.c).
void stackplay_where(lua_State *L, char *out, size_t size);

/// The count and line hook: raises the stop once a budget is spent (budget.c).
void stackplay_hook(lua_State *L, lua_Debug *ar);

/// The stop message, "chunkname:line: stopped: ...", taking the position from `L` (may be NULL)
/// if none was recorded when the budget tripped. "" while not stopped (budget.c).
const char *stackplay_stop_message(lua_State *L, stackplay_guard *g);

/// Gathers the standard library's C functions and their names once (what a stuck function is
/// called in the watchdog's message).
void stackplay_name_functions(lua_State *L);

/// Starts watching `g` for `seconds` of this thread's CPU time (unless a chunk is watched already,
/// or this thread blocks the watchdog's signal).
void stackplay_watch_begin(stackplay_guard *g, double seconds);

/// Whether the watchdog watches `g` now (no count hook is needed while it does).
int stackplay_watched(stackplay_guard *g);

/// Stops watching `g`.
void stackplay_watch_end(stackplay_guard *g);

/// A counter that moves with time and costs a few cycles to read: the CPU's time-stamp counter
/// (x86-64: rdtsc; arm64: the virtual counter), else the kernel's coarse clock in ns. Used only
/// to decide when to read the real clocks, so its rate need not be known exactly.
static inline unsigned long long stackplay_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    unsigned long long ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
#endif
}

/// Whether Lua's and Swift's memory together is past the budget.
static inline int stackplay_over_memory(const stackplay_guard *g) {
    return g->limit && (g->used > g->limit || g->charged > g->limit - g->used);
}

/// In a host's own state (`require "stackplay"` from lua5.4 or busted) there is no guard: the
/// allocator and the extra space are the host's, so there are no budgets, and stackplay_guard_of
/// must never be called. The Swift dispatcher and release function live in a userdata under the
/// registry's "stackplay.host" field instead, and each function stackplay pushes there carries it
/// as an upvalue. The registry has no metatable, so these lua_getfield/lua_setfield run no Lua code.
typedef struct stackplay_host {
    stackplay_dispatch_fn dispatch;
    void (*release)(void *object);
} stackplay_host;

/// Pushes the host record and returns it if `L` is a host's state; else pushes nothing, returns NULL.
static inline stackplay_host *stackplay_host_of(lua_State *L) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, "stackplay.host") == LUA_TUSERDATA) {
        return (stackplay_host *)lua_touserdata(L, -1);
    }
    lua_settop(L, -2);
    return NULL;
}

/// Forgets the output noted for `g` (its state closes: a later state may get its address).
void stackplay_forget_output(stackplay_guard *g);

/// Marks the state stopped for `kind`, recording the position on `L` when it is safe to read (budget.c).
void stackplay_trip(stackplay_guard *g, lua_State *L, int kind);

/// Raises the stop message from C (exempt from the memory budget while it pushes it) (budget.c).
int stackplay_raise_stop(lua_State *L, stackplay_guard *g);

#endif
