// What runtime.c and watchdog.c share, inside CLuaRuntime (not part of its public header): the
// guard every state keeps in its extra space, and the functions both files call.
#ifndef STACKPLAY_GUARD_H
#define STACKPLAY_GUARD_H

#include "CLuaRuntime.h"

#include <stddef.h>

typedef struct stackplay_guard {
    size_t used;          // bytes Lua holds now
    size_t charged;       // bytes the state's Swift objects hold (cards, screens, recorders), estimated
    size_t limit;         // the memory budget in bytes (Lua's and Swift's together); 0: none
    int exempt;           // > 0: allocations are not refused (setup, Swift callbacks, reporting)
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
    struct stackplay_pool *pool; // small blocks of this state (stackplay_pool_*); NULL: malloc only
    stackplay_arena *arena; // the arena every block comes from (arena.c); NULL: the pool
} stackplay_guard;

/// The guard of the state `L` belongs to (in its extra space).
static inline stackplay_guard *stackplay_guard_of(lua_State *L) { return *(stackplay_guard **)lua_getextraspace(L); }

/// This thread's CPU time, in seconds.
double stackplay_thread_cpu_seconds(void);

/// Writes "chunkname:line: " of the innermost Lua function on `L` into `out` ("" if none).
void stackplay_where(lua_State *L, char *out, size_t size);

/// The count and line hook: raises the stop once a budget is spent.
void stackplay_hook(lua_State *L, lua_Debug *ar);

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

#endif
