// Snapshot-restored states (declared in include/arena.h): the arena at a fixed address, snapshots
// of a state, and the arena as the runtime's block source (registered with stackplay_newstate_from:
// CLuaRuntime calls it through that record and never names it). Its allocator and ledgers are in
// arena_heap.c, the tracking of a snapshot's written pages in arena_tracking.c, the invariant
// checks in arena_check.c.
#include "arena_private.h"


int stackplay_arena_compiled(void) {
#ifdef STACKPLAY_ARENA_OFF
    return 0;
#else
    return 1;
#endif
}

static unsigned stackplay_arena_slots; // bit k: slot k is mapped in this process

stackplay_arena *stackplay_arena_open(size_t limit, char *why, size_t why_size) {
#ifdef STACKPLAY_ARENA_OFF
    (void)limit;
    snprintf(why, why_size, "built with AddressSanitizer, which must see every block of Lua's heap");
    return NULL;
#else
    // Size classes waste at most a quarter of a large block and 15 bytes of a small one.
    size_t reserve = limit * 4 + (256u << 20);
    if (limit == 0 || limit > STACKPLAY_ARENA_STRIDE / 8) {
        snprintf(why, why_size, "the memory budget is %s", limit == 0 ? "off" : "larger than an arena");
        return NULL;
    }
    stackplay_arena_count_forks();
    long page = sysconf(_SC_PAGESIZE);
    reserve = (reserve + STACKPLAY_TRACK_BLOCK - 1) / STACKPLAY_TRACK_BLOCK * STACKPLAY_TRACK_BLOCK;
    void *at = MAP_FAILED;
    int slot = -1;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    for (int k = 0; k < STACKPLAY_ARENA_SLOTS; k++) {
        // states on other threads may take slots at the same time
        if (__atomic_fetch_or(&stackplay_arena_slots, 1u << k, __ATOMIC_ACQ_REL) & (1u << k)) continue;
        void *want = (void *)(uintptr_t)(STACKPLAY_ARENA_BASE + (unsigned long long)k * STACKPLAY_ARENA_STRIDE);
        at = mmap(want, reserve, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, -1, 0);
        if (at == want) {
            slot = k;
            break;
        }
        __atomic_fetch_and(&stackplay_arena_slots, ~(1u << k), __ATOMIC_ACQ_REL);
        if (at != MAP_FAILED) {
            // a kernel older than 4.17 takes the flag for a hint: keep what it gave
            break;
        }
        if (errno != EEXIST) break;
    }
    if (at == MAP_FAILED) at = mmap(NULL, reserve, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (at == MAP_FAILED) {
        snprintf(why, why_size, "cannot reserve %zu MiB for the arena: %s", reserve >> 20, strerror(errno));
        return NULL;
    }
    stackplay_arena *a = (stackplay_arena *)calloc(1, sizeof *a);
    if (!a) {
        munmap(at, reserve);
        if (slot >= 0) __atomic_fetch_and(&stackplay_arena_slots, ~(1u << slot), __ATOMIC_ACQ_REL);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    a->base = (char *)at;
    a->reserve = reserve;
    a->slot = slot;
    a->heap = (stackplay_heap *)at;
    a->heap->bump = a->base + ((sizeof(stackplay_heap) + 63) & ~(size_t)63);
    a->heap->end = a->base + reserve;
    a->tracking = 1;
#ifdef STACKPLAY_ARENA_CHECKS
    a->checks = stackplay_switch_on("STACKPLAY_ARENA_CHECKS");
#endif
    a->uffd = -1;
    a->pagemap = -1;
    a->block = STACKPLAY_TRACK_BLOCK > (size_t)page ? STACKPLAY_TRACK_BLOCK : (size_t)page;
    a->written = (unsigned char *)calloc(reserve / a->block + 1, 1);
    a->written_pages = (size_t *)malloc((reserve / a->block + 1) * sizeof(size_t));
    if (!a->written || !a->written_pages) {
        free(a->written);
        free(a->written_pages);
        a->written = NULL;
        a->written_pages = NULL;
    }
    stackplay_tracking_add(a);
    return a;
#endif
}

int stackplay_arena_fixed(const stackplay_arena *arena) { return arena->slot >= 0; }
void *stackplay_arena_base(const stackplay_arena *arena) { return arena->base; }
size_t stackplay_arena_used(const stackplay_arena *arena) { return (size_t)(arena->heap->bump - arena->base); }

/// A block of `n` bytes: a small one of its class (arena_heap.c), or a large chunk (arena_large.c).
static void *stackplay_block_take(stackplay_heap *h, size_t n) {
    return n > STACKPLAY_LARGE_FROM ? stackplay_large_take(h, n) : stackplay_heap_take(h, n);
}

static void stackplay_block_give(stackplay_heap *h, void *block, size_t n) {
    if (n > STACKPLAY_LARGE_FROM) stackplay_large_give(h, block);
    else stackplay_heap_give(h, block, n);
}

void *stackplay_arena_realloc(stackplay_arena *arena, void *ptr, size_t osize, size_t nsize) {
    // lua_Alloc's contract (manual 4.6): a block Lua holds comes with the size it was given
    assert(ptr == NULL || osize > 0);
    stackplay_heap *h = arena->heap;
    if (nsize == 0) {
        if (ptr) stackplay_block_give(h, ptr, osize);
        return NULL;
    }
    if (ptr) {
        if (osize > STACKPLAY_LARGE_FROM && nsize > STACKPLAY_LARGE_FROM) return stackplay_large_resize(h, ptr, nsize);
        size_t old_bytes, new_bytes;
        if (osize <= STACKPLAY_LARGE_FROM && nsize <= STACKPLAY_LARGE_FROM &&
            stackplay_class_of(osize, &old_bytes) == stackplay_class_of(nsize, &new_bytes))
            return ptr;
        void *block = stackplay_block_take(h, nsize);
        if (!block) return NULL;
        memcpy(block, ptr, osize < nsize ? osize : nsize);
        stackplay_block_give(h, ptr, osize);
        return block;
    }
    return stackplay_block_take(h, nsize);
}

void stackplay_arena_close(stackplay_arena *arena) {
    if (!arena) return;
    stackplay_lazy_end(arena, 0);
    stackplay_untrack(arena);
    stackplay_tracking_remove(arena);
    free(arena->written);
    free(arena->written_pages);
    if (arena->uffd >= 0) {
        close(arena->uffd);
        close(arena->pagemap);
    }
    for (int k = 0; k < arena->levels; k++) stackplay_snapshot_free(&arena->snapshots[k]);
    for (int k = 0; k <= STACKPLAY_SNAPSHOT_LEVELS; k++) free(arena->ledgers[k].entries);
    munmap(arena->base, arena->reserve);
    if (arena->slot >= 0) __atomic_fetch_and(&stackplay_arena_slots, ~(1u << arena->slot), __ATOMIC_ACQ_REL);
    free(arena);
}

// MARK: Retains

/// A userdata of the arena's state now holds a retain of `object`.
static void stackplay_arena_retained(stackplay_arena *arena, void *object) {
    if (!arena->tracking || arena->levels == 0) return;
    // Out of memory for the ledger: the retain then stays with the object (a leak, never a
    // use after free).
    (void)stackplay_ledger_add(&arena->ledgers[arena->levels], object);
}

/// A userdata of the arena's state let go of `object` (`__gc`, or an explicit release): releases
/// it now unless the retain belongs to a snapshot.
static void stackplay_arena_release(stackplay_arena *arena, void *object, void (*release)(void *)) {
    if (!arena->tracking || arena->levels == 0) {
        release(object);
        return;
    }
    stackplay_ledger *l = &arena->ledgers[arena->levels];
    stackplay_ledger_entry *e = stackplay_ledger_find(l, object);
    if (e && e->count > 0) {
        e->count--;
        l->held--;
        release(object);
    }
    // else the retain belongs to a snapshot, which still points at the object: kept.
}

// MARK: Snapshots
int stackplay_snapshot_take(lua_State *L) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a || a->levels >= STACKPLAY_SNAPSHOT_LEVELS || stackplay_guard_depth(L) > 0) return 0;
    // docs/design/arena.md, invariant 4: the bump pointer moves down only through a restore
    assert(a->levels >= 0 && (a->levels == 0 || a->snapshots[a->levels - 1].size <= stackplay_arena_used(a)));
    stackplay_untrack(a);
    size_t guard_size;
    void *guard = stackplay_guard_bytes(L, &guard_size);
    size_t used = stackplay_arena_used(a);
    stackplay_snapshot *s = &a->snapshots[a->levels];
    s->guard = malloc(guard_size);
    if (!s->guard) return 0;
    if (!stackplay_snapshot_lazily(a, s, used)) {
        // malloc's: a file's snapshot after another's reuses the memory the last one gave back
        // (a fresh mapping made present at once cost a file of 10 tests 16 µs a test)
        s->copy = (char *)malloc(used ? used : 1);
        if (!s->copy) {
            free(s->guard);
            memset(s, 0, sizeof *s);
            return 0;
        }
        memcpy(s->copy, a->base, used);
    }
    memcpy(s->guard, guard, guard_size);
    s->size = used;
    s->guard_size = guard_size;
    a->levels++;
#ifdef STACKPLAY_ARENA_CHECKS
    if (a->checks) {
        s->checksum = stackplay_arena_checksum(a->base, used);
        s->summed = 1;
        stackplay_arena_check_or_abort(a, "taking", a->levels);
    }
#endif
    if (used >= stackplay_track_bytes(a)) stackplay_track(a, used);
    return a->levels;
}

#ifndef NDEBUG
/// Debug builds: whether the arena's first `s->size` bytes equal the snapshot `s`, checked after
/// every restore. A lazy copy holds only the blocks written since, so it is not compared; a
/// snapshot above 4 MiB neither (a debug run of a 10,000-test file would compare 6 MiB a test).
static int stackplay_restored_exactly(const stackplay_arena *a, const stackplay_snapshot *s) {
    if (s->mapped || s->size > (4u << 20)) return 1;
    return memcmp(a->base, s->copy, s->size) == 0;
}
#endif

int stackplay_snapshot_restore(lua_State *L, int level) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a || level < 1 || level > a->levels) return -2;
    if (stackplay_guard_depth(L) > 0) return -1;
    // The Lua objects made since the snapshot are about to vanish: the Swift objects only they held go.
    for (int k = a->levels; k >= level; k--) stackplay_ledger_release_all(&a->ledgers[k], a->release);
    for (int k = a->levels - 1; k >= level; k--) {
        if (a->lazy_level == k + 1) stackplay_lazy_end(a, 0);
        stackplay_snapshot_free(&a->snapshots[k]);
    }
    // writes tracked through a userfaultfd of another process (this one was forked) are unknown here
    int uffd_here = a->uffd >= 0 && a->uffd_generation == stackplay_arena_forks + 1;
    int tracked_here = a->tracked && level == a->levels && (a->uffd < 0 || uffd_here);
    a->levels = level;
    stackplay_snapshot *s = &a->snapshots[level - 1];
    char *dirty_end = a->heap->bump;
    if (tracked_here && uffd_here) {
        if (!stackplay_uffd_restore(a, s)) {
            stackplay_untrack(a);
            memcpy(a->base, s->copy, s->size);
            stackplay_track(a, s->size);
        }
    } else if (tracked_here) {
        // only the blocks written since they were protected differ from it; they stay writable
        // (and recorded, copied at every restore) until they pass STACKPLAY_TRACK_WRITABLE
        for (size_t i = 0; i < a->written_count; i++) {
            size_t from = a->written_pages[i] * a->block;
            if (from < s->size) {
                size_t bytes = s->size - from < a->block ? s->size - from : a->block;
                memcpy(a->base + from, s->copy + from, bytes);
            }
        }
        if (a->written_count * a->block > STACKPLAY_TRACK_WRITABLE) {
            for (size_t i = 0; i < a->written_count; i++) a->written[a->written_pages[i]] = 0;
            a->written_count = 0;
            if (mprotect(a->base, a->tracked, PROT_READ) != 0) stackplay_untrack(a);
        }
    } else {
        stackplay_untrack(a);
        memcpy(a->base, s->copy, s->size);
        if (s->size >= stackplay_track_bytes(a)) stackplay_track(a, s->size);
    }
    size_t guard_size;
    void *guard = stackplay_guard_bytes(L, &guard_size);
    memcpy(guard, s->guard, guard_size < s->guard_size ? guard_size : s->guard_size);
    // A test that grew the heap far past the snapshot gives those pages back.
    char *keep = a->base + s->size;
    if (dirty_end > keep + STACKPLAY_ARENA_TRIM) {
        long page = sysconf(_SC_PAGESIZE);
        char *from = (char *)(((uintptr_t)keep + (uintptr_t)page - 1) & ~((uintptr_t)page - 1));
        madvise(from, (size_t)(dirty_end - from), MADV_DONTNEED);
    }
    // docs/design/arena.md, invariant 5: the restored state is the snapshot, byte for byte
    assert(a->levels == level && stackplay_arena_used(a) == s->size);
    assert(stackplay_restored_exactly(a, s));
#ifdef STACKPLAY_ARENA_CHECKS
    if (a->checks) stackplay_arena_check_or_abort(a, "restoring", level);
#endif
    return 0;
}

int stackplay_snapshot_levels(lua_State *L) {
    stackplay_arena *a = stackplay_arena_of(L);
    return a ? a->levels : 0;
}

size_t stackplay_snapshot_retains(lua_State *L) {
    stackplay_arena *a = stackplay_arena_of(L);
    return a ? a->ledgers[a->levels].held : 0;
}

/// Before lua_close: back to the oldest snapshot, the ledgers' retains released, tracking off, so
/// that every `__gc` of the closing state releases once. Frees the snapshots.
static void stackplay_arena_closing(lua_State *L, stackplay_arena *arena) {
    if (arena->levels > 0) stackplay_snapshot_restore(L, 1);
    stackplay_lazy_end(arena, 0);
    stackplay_untrack(arena);
    for (int k = 0; k <= STACKPLAY_SNAPSHOT_LEVELS; k++) stackplay_ledger_release_all(&arena->ledgers[k], arena->release);
    for (int k = 0; k < arena->levels; k++) stackplay_snapshot_free(&arena->snapshots[k]);
    arena->levels = 0;
    arena->tracking = 0;
}

/// Makes `L` the arena's state; `release` balances the retains its userdata hold.
static void stackplay_arena_attach(stackplay_arena *arena, lua_State *L, void (*release)(void *)) {
    arena->state = L;
    arena->release = release;
}

void stackplay_collector_hold(lua_State *L, int stop) { lua_gc(L, stop ? LUA_GCSTOP : LUA_GCRESTART); }

// MARK: The runtime's block source

static void *stackplay_source_realloc(void *arena, void *ptr, size_t osize, size_t nsize) {
    return stackplay_arena_realloc((stackplay_arena *)arena, ptr, osize, nsize);
}
static void stackplay_source_retained(void *arena, void *object) {
    stackplay_arena_retained((stackplay_arena *)arena, object);
}
static void stackplay_source_release(void *arena, void *object, void (*release)(void *)) {
    stackplay_arena_release((stackplay_arena *)arena, object, release);
}
static void stackplay_source_closing(void *arena, lua_State *L) {
    stackplay_arena_closing(L, (stackplay_arena *)arena);
}
static void stackplay_source_close(void *arena) { stackplay_arena_close((stackplay_arena *)arena); }

/// What an arena state's guard calls (runtime.c), and how stackplay_arena_of knows an arena state.
static const stackplay_block_source stackplay_arena_source = {
    stackplay_source_realloc, stackplay_source_retained, stackplay_source_release, stackplay_source_closing,
    stackplay_source_close};

lua_State *stackplay_newstate_arena(size_t limit, double cpu_budget, stackplay_dispatch_fn dispatch,
                                    void (*release)(void *), char *why, size_t why_size) {
    stackplay_arena *arena = stackplay_arena_open(limit, why, why_size);
    if (!arena) return NULL;
    lua_State *L = stackplay_newstate_from(&stackplay_arena_source, arena, limit, cpu_budget, dispatch, release);
    if (!L) {
        stackplay_arena_close(arena);
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    stackplay_arena_attach(arena, L, release);
    return L;
}

stackplay_arena *stackplay_arena_of(lua_State *L) {
    return (stackplay_arena *)stackplay_block_context(L, &stackplay_arena_source);
}

// MARK: Invariant checks (arena_check.c)

int stackplay_arena_checks_compiled(void) {
#ifdef STACKPLAY_ARENA_CHECKS
    return 1;
#else
    return 0;
#endif
}

void stackplay_arena_checking(lua_State *L, int on) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (a && stackplay_arena_checks_compiled()) a->checks = on != 0;
}

int stackplay_arena_verify(lua_State *L, int restored, char *why, size_t why_size) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a) {
        snprintf(why, why_size, "the state has no arena");
        return -1;
    }
    return stackplay_arena_check(a, restored, why, why_size);
}

int stackplay_arena_test_flip_byte(lua_State *L, size_t offset) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a || offset >= stackplay_arena_used(a)) return -1;
    a->base[offset] ^= (char)0xff;
    return 0;
}

int stackplay_arena_test_flip_snapshot_byte(lua_State *L, size_t offset) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a || a->levels == 0) return -1;
    stackplay_snapshot *s = &a->snapshots[a->levels - 1];
    if (s->mapped || offset >= s->size) return -1;
    s->copy[offset] ^= (char)0xff;
    return 0;
}

int stackplay_arena_test_flip_free_link(lua_State *L) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a) return -1;
    for (size_t c = 1; c < STACKPLAY_CLASSES; c++) {
        if (!a->heap->free[c]) continue;
        a->heap->free[c] = (void *)((uintptr_t)a->heap->free[c] ^ 8u);
        return 0;
    }
    return -1;
}
