#define _GNU_SOURCE
// The C side of stackplay's Lua boundary (declared in include/CLuaRuntime.h): one guard per state
// (budgets and the Swift dispatcher), the small-block allocator, and running chunks with the
// message handler. The trampolines that call Swift, and host mode, are in trampolines.c; the count
// hook and the stop in budget.c; the CPU-time watchdog in watchdog.c. A snapshot arena
// (CLuaSnapshot) registers itself as a state's block source: this file never names it.
#include "guard.h"
#include "seed.h"
#include "CSystemCalls.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// MARK: Small blocks

/// A state's small blocks (up to STACKPLAY_POOL_LARGEST bytes, in 16-byte classes): carved from
/// 64 KiB chunks and kept on a free list per class when Lua frees them, all returned to malloc
/// when the state closes. Most of what a fresh state allocates (strings, closures, prototypes,
/// table parts) is small and short-lived with the state, and malloc's own bookkeeping was a
/// quarter of a test's fixed cost. Lua's counted bytes (the memory budget) are unchanged: they
/// are the sizes Lua asks for. Under AddressSanitizer every block comes from malloc, so that
/// ASan still sees each one.
#define STACKPLAY_POOL_LARGEST 256
#define STACKPLAY_POOL_CHUNK (64 * 1024)

typedef struct stackplay_pool {
    void *free[STACKPLAY_POOL_LARGEST / 16 + 1]; // class c holds blocks of c * 16 bytes
    char *next;                                  // the unused rest of the newest chunk
    char *end;
    void *chunks;                                // every chunk, linked through its first word
} stackplay_pool;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACKPLAY_POOL_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STACKPLAY_POOL_OFF 1
#endif

static stackplay_pool *stackplay_pool_new(void) {
#ifdef STACKPLAY_POOL_OFF
    return NULL;
#else
    return (stackplay_pool *)calloc(1, sizeof(stackplay_pool));
#endif
}

static void stackplay_pool_free_all(stackplay_pool *pool) {
    if (!pool) return;
    while (pool->chunks) {
        void *chunk = pool->chunks;
        pool->chunks = *(void **)chunk;
        free(chunk);
    }
    free(pool);
}

/// A block of `size` (1...STACKPLAY_POOL_LARGEST) bytes, or NULL when malloc has no chunk to give.
static void *stackplay_pool_take(stackplay_pool *pool, size_t size) {
    size_t c = (size + 15) / 16;
    void *block = pool->free[c];
    if (block) {
        pool->free[c] = *(void **)block;
        return block;
    }
    size_t bytes = c * 16;
    if ((size_t)(pool->end - pool->next) < bytes) {
        char *chunk = (char *)malloc(STACKPLAY_POOL_CHUNK);
        if (!chunk) return NULL;
        *(void **)chunk = pool->chunks;
        pool->chunks = chunk;
        pool->next = chunk + 16; // the link word, padded to keep blocks 16-byte aligned
        pool->end = chunk + STACKPLAY_POOL_CHUNK;
    }
    block = pool->next;
    pool->next += bytes;
    return block;
}

static void stackplay_pool_give(stackplay_pool *pool, void *block, size_t size) {
    size_t c = (size + 15) / 16;
    *(void **)block = pool->free[c];
    pool->free[c] = block;
}

/// Lua's realloc over the pool: small blocks from it, larger ones from malloc.
static void *stackplay_pool_realloc(stackplay_pool *pool, void *ptr, size_t old, size_t nsize) {
    if (!pool) {
        if (nsize == 0) { free(ptr); return NULL; }
        return realloc(ptr, nsize);
    }
    int was_small = ptr && old <= STACKPLAY_POOL_LARGEST;
    if (nsize == 0) {
        if (was_small) stackplay_pool_give(pool, ptr, old); else free(ptr);
        return NULL;
    }
    if (nsize <= STACKPLAY_POOL_LARGEST) {
        if (was_small && (old + 15) / 16 == (nsize + 15) / 16) return ptr;
        void *block = stackplay_pool_take(pool, nsize);
        if (!block) return NULL;
        if (ptr) {
            memcpy(block, ptr, old < nsize ? old : nsize);
            if (was_small) stackplay_pool_give(pool, ptr, old); else free(ptr);
        }
        return block;
    }
    if (!was_small) return realloc(ptr, nsize);
    void *block = malloc(nsize);
    if (!block) return NULL;
    memcpy(block, ptr, old);
    stackplay_pool_give(pool, ptr, old);
    return block;
}

/// The counting allocator. Past the limit it refuses (NULL) unless exempt; frees always succeed.
/// A refused fresh allocation (ptr == NULL) records the position first: the state is consistent
/// then. A growing block (ptr != NULL, say a stack being moved) is granted within a small reserve
/// and the hook raises the stop at the next instruction, with its position.
static void *stackplay_block_realloc(stackplay_guard *g, void *ptr, size_t old, size_t nsize) {
    return g->source_realloc ? g->source_realloc(g->source_context, ptr, old, nsize)
                             : stackplay_pool_realloc(g->pool, ptr, old, nsize);
}

static void *stackplay_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    stackplay_guard *g = (stackplay_guard *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        stackplay_block_realloc(g, ptr, old, 0);
        g->used -= old;
        return NULL;
    }
    size_t total = g->used - old + nsize + g->charged;
    if (g->limit && nsize > old && g->exempt == 0 && total > g->limit) {
        size_t reserve = g->limit / 8;
        if (ptr == NULL || total > g->limit + reserve) {
            stackplay_trip(g, ptr == NULL ? g->main : NULL, STACKPLAY_STOP_MEMORY);
            return NULL;
        }
        stackplay_trip(g, NULL, STACKPLAY_STOP_MEMORY);
    }
    void *block = stackplay_block_realloc(g, ptr, old, nsize);
    if (block) {
        g->used = g->used - old + nsize;
    } else if (g->exempt == 0 && !g->tripped) {
        // Within the budget but no room for the block (an arena whose small blocks of other sizes
        // hold it): a memory stop all the same, with the script's line, never a bare error.
        snprintf(g->memory_text, sizeof g->memory_text,
                 "stopped: no room for %zu more bytes of memory (%zu MiB in use)", nsize, (g->used + g->charged) >> 20);
        stackplay_trip(g, ptr == NULL ? g->main : NULL, STACKPLAY_STOP_MEMORY);
    }
    return block;
}

static int stackplay_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    fprintf(stderr, "stackplay: Lua panic (a bug in stackplay): %s\n", msg);
    return 0; // Lua aborts.
}

lua_State *stackplay_newstate_from(const stackplay_block_source *source, void *context, size_t limit,
                                   double cpu_budget, stackplay_dispatch_fn dispatch, void (*release)(void *)) {
    stackplay_guard *g = (stackplay_guard *)calloc(1, sizeof *g);
    if (!g) return NULL;
    g->limit = limit;
    g->exempt = 1;
    // Instructions between two budget checks. A check costs one thread-CPU clock read (about
    // 0.3 us); at 1000 that was ~2% of plain Lua, at 10000 it is ~0.2%, and a stop still lands
    // within microseconds. (Most of the count hook's cost, 15-20% on plain Lua in a C test of
    // liblua5.4 with a count of 1000 to 10^6 alike, is not the checks: Lua 5.4 traps every
    // instruction while any hook is set. Only a hook armed when the budget is spent removes it.)
    g->hook_count = 10000;
    g->cpu_budget = cpu_budget;
    g->dispatch = dispatch;
    g->release = release;
    g->source = source;
    g->source_realloc = source ? source->realloc : NULL;
    g->source_context = source ? context : NULL;
    g->pool = source ? NULL : stackplay_pool_new();
    lua_State *L = lua_newstate(stackplay_alloc, g);
    if (!L) { stackplay_pool_free_all(g->pool); free(g); return NULL; }
    // Before anything else: the string hash's seed is fixed (seed.c), so that nothing a script
    // reaches (`#t`, stock `next`) depends on the clock or addresses. STACKPLAY_RANDOM_HASH_SEED=1
    // keeps Lua's own seed (to see what `--repeat` finds across processes; docs/sandbox.md).
    if (!stackplay_switch_on("STACKPLAY_RANDOM_HASH_SEED")) g->hash_seed_fixed = stackplay_fix_hash_seed(L, stackplay_alloc, g);
    *(stackplay_guard **)lua_getextraspace(L) = g;
    g->main = L;
    lua_atpanic(L, stackplay_panic);
    return L;
}

int stackplay_hash_seed_fixed(lua_State *L) {
    return stackplay_guard_of(L)->hash_seed_fixed && stackplay_hash_seed(L) == STACKPLAY_HASH_SEED;
}

lua_State *stackplay_newstate(size_t limit, double cpu_budget, stackplay_dispatch_fn dispatch,
                              void (*release)(void *)) {
    return stackplay_newstate_from(NULL, NULL, limit, cpu_budget, dispatch, release);
}

void *stackplay_block_context(lua_State *L, const stackplay_block_source *source) {
    stackplay_guard *g = stackplay_guard_of(L);
    return source && g->source == source ? g->source_context : NULL;
}

void *stackplay_guard_bytes(lua_State *L, size_t *size) {
    *size = sizeof(stackplay_guard);
    return stackplay_guard_of(L);
}

int stackplay_guard_depth(lua_State *L) { return stackplay_guard_of(L)->depth; }

void stackplay_close(lua_State *L) {
    stackplay_guard *g = stackplay_guard_of(L);
    if (g->cpu_budget > 0) {
        g->cpu_deadline = stackplay_thread_cpu_seconds() + g->cpu_budget;
        lua_sethook(L, stackplay_hook, LUA_MASKCOUNT, g->hook_count);
    }
    if (g->source) g->source->closing(g->source_context, L);
    g->exempt = 0;
    g->measure = NULL;
    lua_close(L);
    stackplay_forget_output(g);
    if (g->meter) g->release(g->meter);
    stackplay_pool_free_all(g->pool);
    if (g->source) g->source->close(g->source_context);
    free(g);
}

// MARK: Running chunks

/// `lua.c`'s message handler: a string gets a traceback; a non-string error uses its
/// `__tostring` or becomes "(error object is a table value)".
static int stackplay_msghandler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    stackplay_guard *g = stackplay_guard_of(L);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        // error(nil), error({}): no text says where, so say it as luaL_error would.
        char where[400];
        stackplay_where(L, where, sizeof where);
        g->exempt++;
        msg = lua_pushfstring(L, "%s(error object is a %s value)", where, luaL_typename(L, 1));
        g->exempt--;
    }
    g->exempt++;
    luaL_traceback(L, L, msg, 1);
    g->exempt--;
    return 1;
}

int stackplay_pcall(lua_State *L, int nargs, int nresults) {
    stackplay_guard *g = stackplay_guard_of(L);
    // lua_pcall's precondition (manual 4.6): the function, then its nargs arguments, on the stack
    assert(nargs >= 0 && lua_gettop(L) > nargs);
    assert(g->depth >= 0 && g->exempt >= 0);
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, stackplay_msghandler);
    lua_insert(L, base);
    int outer = g->exempt;
    int outermost = g->depth++ == 0;
    if (outermost && g->cpu_budget > 0) {
        // From a bound of the time now (a hundredth of the budget late at most): a read of the
        // thread's CPU clock is a system call, most of a short call's cost (explore's steps).
        g->cpu_deadline = stackplay_thread_cpu_bound(g->cpu_budget / 100) + g->cpu_budget;
        if (!g->tripped) stackplay_watch_begin(g, g->cpu_budget);
    }
    // The count hook only where the watchdog cannot watch (no CPU-time timer here): a stopped
    // state keeps its every-instruction hook, an unwatched budget is checked every hook_count.
    if (!g->tripped && g->cpu_budget > 0 && !stackplay_watched(g)) {
        lua_sethook(L, stackplay_hook, LUA_MASKCOUNT, g->hook_count);
    } else if (!g->tripped && outermost) {
        lua_sethook(L, NULL, 0, 0);  // (a nested call keeps what the timer may have armed)
    }
    g->exempt = 0;
    int status = lua_pcall(L, nargs, nresults, base);
    g->exempt = outer;
    g->depth--;
    assert(g->depth >= 0);
    if (outermost) stackplay_watch_end(g);
    lua_remove(L, base);
    return status;
}

int stackplay_loadfile(lua_State *L, const char *path) {
    int status = luaL_loadfilex(L, path, "t");
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (status != LUA_OK && lua_type(L, -1) == LUA_TSTRING && !strstr(lua_tostring(L, -1), name)) {
        stackplay_guard *g = stackplay_guard_of(L);
        g->exempt++;
        lua_pushfstring(L, "%s: %s", path, lua_tostring(L, -1));
        g->exempt--;
        lua_remove(L, -2);
    }
    return status;
}

int stackplay_loadstring(lua_State *L, const char *code, size_t size, const char *name) {
    return luaL_loadbufferx(L, code, size, name, "t");
}

int stackplay_loadbytecode(lua_State *L, const char *code, size_t size, const char *name) {
    return luaL_loadbufferx(L, code, size, name, "b");
}

const char *stackplay_lua_ident(void) {
    return lua_ident;
}


static int stackplay_buffer_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    stackplay_buffer *b = (stackplay_buffer *)ud;
    if (b->size + size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity * 2 : 4096;
        while (capacity < b->size + size) capacity *= 2;
        char *data = (char *)realloc(b->data, capacity);
        if (data == NULL) return 1;
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, p, size);
    b->size += size;
    return 0;
}

int stackplay_dump(lua_State *L, stackplay_buffer *b) {
    return lua_dump(L, stackplay_buffer_writer, b, 0);
}

void stackplay_open_libraries(lua_State *L) {
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base}, {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine},
        {LUA_OSLIBNAME, luaopen_os}, {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_settop(L, -2);
    }
    stackplay_name_functions(L);
}

void stackplay_set_budget_texts(lua_State *L, const char *cpu, const char *memory) {
    stackplay_guard *g = stackplay_guard_of(L);
    snprintf(g->cpu_text, sizeof g->cpu_text, "%s", cpu);
    snprintf(g->memory_text, sizeof g->memory_text, "%s", memory);
}

const char *stackplay_stop(lua_State *L) { return stackplay_stop_message(NULL, stackplay_guard_of(L)); }
int stackplay_stopped(lua_State *L) { return stackplay_guard_of(L)->tripped; }
size_t stackplay_memory_used(lua_State *L) { return stackplay_guard_of(L)->used; }
size_t stackplay_memory_charged(lua_State *L) { return stackplay_guard_of(L)->charged; }

void stackplay_memory_exhausted(lua_State *L) {
    if (stackplay_host_of(L)) { lua_settop(L, -2); return; }
    stackplay_guard *g = stackplay_guard_of(L);
    if (g->limit && g->depth > 0) stackplay_trip(g, L, STACKPLAY_STOP_MEMORY);
}

size_t stackplay_memory_room(lua_State *L) {
    // PTRDIFF_MAX, not SIZE_MAX: Swift sees size_t as Int, where SIZE_MAX would be -1.
    if (stackplay_host_of(L)) { lua_settop(L, -2); return (size_t)PTRDIFF_MAX; }
    stackplay_guard *g = stackplay_guard_of(L);
    // Only a script's calls into Swift are budgeted: stackplay reading results after a chunk
    // (depth 0) is not the script's doing.
    if (!g->limit || g->depth == 0) return (size_t)PTRDIFF_MAX;
    size_t held = g->used + g->charged;
    return held >= g->limit ? 0 : g->limit - held;
}

void stackplay_set_meter(lua_State *L, size_t (*measure)(void *), void *meter) {
    stackplay_guard *g = stackplay_guard_of(L);
    if (g->meter) g->release(g->meter);
    g->measure = measure;
    g->meter = meter;
}

void stackplay_charge(lua_State *L, size_t bytes) {
    // A host's state (the Lua module) has no guard and no budget: its extra space is not ours.
    if (stackplay_host_of(L)) { lua_settop(L, -2); return; }
    stackplay_guard *g = stackplay_guard_of(L);
    g->charged += bytes;
    g->last_check = 0;
}

void stackplay_pushed_object(lua_State *L, void *object) {
    if (stackplay_host_of(L)) { lua_settop(L, -2); return; }
    stackplay_guard *g = stackplay_guard_of(L);
    g->last_check = 0;
    if (g->source) g->source->retained(g->source_context, object);
}

void stackplay_release_held(lua_State *L, void **slot) {
    void *object = *slot;
    if (!object) return;
    *slot = NULL;
    stackplay_host *h = stackplay_host_of(L);
    if (h) {
        lua_settop(L, -2);
        h->release(object);
        return;
    }
    stackplay_guard *g = stackplay_guard_of(L);
    if (g->source) g->source->release(g->source_context, object, g->release);
    else g->release(object);
}
