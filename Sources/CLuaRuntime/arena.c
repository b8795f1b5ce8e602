// Snapshot-restored states (declared in include/arena.h): the arena at a fixed address, its
// allocator, snapshots of a state, the ledgers of the Swift objects its userdata hold, and the
// random generator's seed and state read from C.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "arena.h"

#include <errno.h>
#include <signal.h>
#include <lauxlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/userfaultfd.h>
#endif

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACKPLAY_ARENA_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STACKPLAY_ARENA_OFF 1
#endif

// MARK: The arena's heap

/// Size classes: 16-byte steps up to 256 bytes (classes 1...16), then four classes a power of two
/// (257...320, ..., 385...512, 513...640, ...). A block's class follows from the size Lua passes
/// for it, so blocks carry no header; a free block's first word links it into its class's list.
#define STACKPLAY_SMALL_LARGEST 256
#define STACKPLAY_CLASSES 200

typedef struct stackplay_heap {
    char *bump;                      // the first byte never handed out
    char *end;                       // the end of the reserved range
    void *free[STACKPLAY_CLASSES];   // free blocks per class
} stackplay_heap;

static size_t stackplay_class_of(size_t n, size_t *bytes) {
    if (n <= STACKPLAY_SMALL_LARGEST) {
        size_t c = (n + 15) / 16;
        if (c == 0) c = 1;
        *bytes = c * 16;
        return c;
    }
    // n in (2^b, 2^(b+1)], b >= 8: steps of 2^(b-2)
    unsigned b = 63u - (unsigned)__builtin_clzll((unsigned long long)(n - 1));
    size_t power = (size_t)1 << b, step = power >> 2;
    size_t k = (n - power + step - 1) / step; // 1...4
    *bytes = power + k * step;
    return 16 + (size_t)(b - 8) * 4 + k;
}

static void *stackplay_heap_take(stackplay_heap *h, size_t n) {
    size_t bytes;
    size_t c = stackplay_class_of(n, &bytes);
    if (c >= STACKPLAY_CLASSES) return NULL;
    void *block = h->free[c];
    if (block) {
        h->free[c] = *(void **)block;
        return block;
    }
    if ((size_t)(h->end - h->bump) < bytes) return NULL;
    block = h->bump;
    h->bump += bytes;
    return block;
}

static void stackplay_heap_give(stackplay_heap *h, void *block, size_t n) {
    size_t bytes;
    size_t c = stackplay_class_of(n, &bytes);
    *(void **)block = h->free[c];
    h->free[c] = block;
}

// MARK: Ledgers: the retains taken since a snapshot

typedef struct stackplay_ledger_entry {
    void *object;
    long count; // retains held by userdata made since the snapshot; 0: a spent entry
} stackplay_ledger_entry;

typedef struct stackplay_ledger {
    stackplay_ledger_entry *entries;
    size_t capacity; // a power of two, or 0
    size_t filled;   // entries with an object (spent ones too)
    size_t held;     // the sum of the counts
} stackplay_ledger;

static size_t stackplay_ledger_hash(const void *object, size_t capacity) {
    uint64_t x = (uint64_t)(uintptr_t)object >> 4;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (capacity - 1);
}

static stackplay_ledger_entry *stackplay_ledger_find(stackplay_ledger *l, const void *object) {
    if (!l->capacity) return NULL;
    for (size_t i = stackplay_ledger_hash(object, l->capacity);; i = (i + 1) & (l->capacity - 1)) {
        if (l->entries[i].object == object) return &l->entries[i];
        if (!l->entries[i].object) return NULL;
    }
}

/// Adds one retain of `object`; 0 when out of memory.
static int stackplay_ledger_add(stackplay_ledger *l, void *object) {
    stackplay_ledger_entry *e = stackplay_ledger_find(l, object);
    if (e) {
        e->count++;
        l->held++;
        return 1;
    }
    if ((l->filled + 1) * 2 > l->capacity) {
        size_t capacity = l->capacity ? l->capacity * 2 : 64;
        stackplay_ledger_entry *entries = (stackplay_ledger_entry *)calloc(capacity, sizeof *entries);
        if (!entries) return 0;
        for (size_t i = 0; i < l->capacity; i++) {
            if (!l->entries[i].object || !l->entries[i].count) continue;
            size_t j = stackplay_ledger_hash(l->entries[i].object, capacity);
            while (entries[j].object) j = (j + 1) & (capacity - 1);
            entries[j] = l->entries[i];
        }
        size_t filled = 0;
        for (size_t i = 0; i < capacity; i++) filled += entries[i].object != NULL;
        free(l->entries);
        l->entries = entries;
        l->capacity = capacity;
        l->filled = filled;
    }
    size_t i = stackplay_ledger_hash(object, l->capacity);
    while (l->entries[i].object) i = (i + 1) & (l->capacity - 1);
    l->entries[i].object = object;
    l->entries[i].count = 1;
    l->filled++;
    l->held++;
    return 1;
}

/// Releases every retain the ledger holds and empties it.
static void stackplay_ledger_release_all(stackplay_ledger *l, void (*release)(void *)) {
    for (size_t i = 0; i < l->capacity; i++) {
        for (long n = l->entries[i].count; n > 0; n--) release(l->entries[i].object);
    }
    free(l->entries);
    memset(l, 0, sizeof *l);
}

// MARK: Arenas

/// Slot k's arena starts at STACKPLAY_ARENA_BASE + k * STACKPLAY_ARENA_STRIDE: the same address in
/// every process of a run, far from where the kernel puts mappings and heaps.
#define STACKPLAY_ARENA_BASE 0x300000000000ull
#define STACKPLAY_ARENA_STRIDE (64ull << 30)
#define STACKPLAY_ARENA_SLOTS 16
/// Dirty pages above a snapshot's end past this many bytes are given back at a restore.
#define STACKPLAY_ARENA_TRIM (8u << 20)

/// A snapshot at least this large is restored page by page: its pages are write-protected after
/// each restore, the first write to a page records it (SIGSEGV, then the page is made writable
/// again), and the next restore copies back only the recorded pages. A smaller one is copied whole
/// (a memcpy of 1 MiB costs about what a few dozen write faults do).
#define STACKPLAY_TRACK_BYTES (2u << 20)
/// Writes are tracked in blocks of this many bytes (pages, 16 of 4 KiB): a test's writes cluster
/// (new objects, the heap's free lists), and each block costs one fault and one mprotect, whose
/// splitting of the mapping is most of a fault's cost.
#define STACKPLAY_TRACK_BLOCK (64u << 10)
/// Blocks a test wrote stay writable, and are copied back at every restore, until they pass this
/// many bytes (then all are protected again): most tests write the same few blocks, and a fault
/// (a signal and an mprotect) costs more than copying a block. Measured on a 6 MiB snapshot
/// without a userfaultfd: 145 µs a test re-protecting them at every restore, 57 µs with this.
#define STACKPLAY_TRACK_WRITABLE (1u << 20)

typedef struct stackplay_snapshot {
    char *copy;       // the arena's bytes [base, base + size)
    size_t size;
    size_t mapped;    // > 0: `copy` is a mapping of this many bytes (a lazy copy), else malloc'd
    void *guard;      // the guard's bytes
    size_t guard_size;
} stackplay_snapshot;

struct stackplay_arena {
    char *base;
    size_t reserve;
    int slot;   // -1: not at a slot's address
    stackplay_heap *heap;
    int levels; // snapshots held
    int tracking;
    stackplay_snapshot snapshots[STACKPLAY_SNAPSHOT_LEVELS];
    stackplay_ledger ledgers[STACKPLAY_SNAPSHOT_LEVELS + 1]; // [k]: since snapshot k (k = levels: now)
    void (*release)(void *);
    lua_State *state;
    // Write tracking of the newest snapshot (STACKPLAY_TRACK_BYTES): written from the SIGSEGV handler.
    size_t block;                   // the unit of write tracking: STACKPLAY_TRACK_BLOCK bytes
    volatile size_t tracked;        // bytes from base write-protected now; 0: not tracking
    int uffd;                       // the userfaultfd that write-protects them (async); -1: mprotect
    int pagemap;                    // /proc/self/pagemap, for PAGEMAP_SCAN
    pid_t uffd_pid;                 // the process they were made in (a forked child has none)
    int uffd_tried;
    unsigned char *written;         // one byte a page of the arena: written since the restore
    size_t *written_pages;          // their indices, in the order first written
    volatile size_t written_count;
    // The lazy copy of the newest snapshot (with a userfaultfd, from STACKPLAY_TRACK_BYTES_UFFD on):
    // the arena's pages stay read-only after the snapshot until first written; the SIGSEGV handler
    // copies such a block (lazy_page bytes) into the snapshot, then makes it writable. The snapshot
    // holds only the blocks written since (the rest equal the arena's), not a second whole copy.
    // A process forked while it holds one must keep this handler (a worker makes its own states).
    volatile size_t lazy_bytes;     // bytes from base read-only or saved; 0: no lazy copy
    int lazy_level;                 // the snapshot's level
    size_t lazy_page;               // the block saved at once
    unsigned char *lazy_saved;      // one byte a block: copied into the snapshot
};

/// Arenas whose writes are tracked, for the SIGSEGV handler.
#define STACKPLAY_TRACKED_MAX 32
static stackplay_arena *volatile stackplay_tracked_arenas[STACKPLAY_TRACKED_MAX];
static struct sigaction stackplay_previous_segv;

/// A write to a tracked page: records it and makes it writable; anything else goes to the handler
/// that was there before (or ends the process as SIGSEGV would).
static void stackplay_segv(int signal, siginfo_t *info, void *context) {
    char *at = (char *)info->si_addr;
    for (int i = 0; i < STACKPLAY_TRACKED_MAX; i++) {
        stackplay_arena *a = stackplay_tracked_arenas[i];
        if (a && a->lazy_bytes && at >= a->base && at < a->base + a->lazy_bytes) {
            size_t from = (size_t)(at - a->base) / a->lazy_page * a->lazy_page;
            const stackplay_snapshot *s = &a->snapshots[a->lazy_level - 1];
            if (!a->lazy_saved[from / a->lazy_page]) {
                size_t bytes = s->size - from < a->lazy_page ? s->size - from : a->lazy_page;
                if (from < s->size) memcpy(s->copy + from, a->base + from, bytes);
                a->lazy_saved[from / a->lazy_page] = 1;
            }
            if (mprotect(a->base + from, a->lazy_page, PROT_READ | PROT_WRITE) == 0) return;
            break;
        }
        if (!a || !a->tracked || at < a->base || at >= a->base + a->tracked) continue;
        size_t index = (size_t)(at - a->base) / a->block;
        if (!a->written[index]) {
            a->written[index] = 1;
            a->written_pages[a->written_count++] = index;
        }
        if (mprotect(a->base + index * a->block, a->block, PROT_READ | PROT_WRITE) == 0) return;
        break;
    }
    if (stackplay_previous_segv.sa_flags & SA_SIGINFO) {
        if (stackplay_previous_segv.sa_sigaction) {
            stackplay_previous_segv.sa_sigaction(signal, info, context);
            return;
        }
    } else if (stackplay_previous_segv.sa_handler != SIG_DFL && stackplay_previous_segv.sa_handler != SIG_IGN) {
        stackplay_previous_segv.sa_handler(signal);
        return;
    }
    // the default action: the faulting instruction runs again and ends the process
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGSEGV, &fallback, NULL);
}

/// Installs stackplay_segv unless it is the handler now (a forked worker resets SIGSEGV to the
/// default: checked before every tracking). 0 when it cannot.
static int stackplay_segv_install(void) {
    struct sigaction now;
    if (sigaction(SIGSEGV, NULL, &now) != 0) return 0;
    if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == stackplay_segv) return 1;
    struct sigaction mine;
    memset(&mine, 0, sizeof mine);
    mine.sa_sigaction = stackplay_segv;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&mine.sa_mask);
    return sigaction(SIGSEGV, &mine, &stackplay_previous_segv) == 0;
}

// Dirty pages without signals (Linux 6.7 and later): the range is registered with a userfaultfd in
// asynchronous write-protect mode, so the kernel itself lets a write through and marks the page
// written; PAGEMAP_SCAN lists the written pages at the restore. Refused by some seccomp profiles
// and older kernels: then the SIGSEGV handler above does it (same results, slower).
#if defined(__linux__) && defined(UFFDIO_WRITEPROTECT)
#define STACKPLAY_UFFD 1
#define STACKPLAY_UFFD_WP_UNPOPULATED (1ull << 13)
#define STACKPLAY_UFFD_WP_ASYNC (1ull << 15)
#define STACKPLAY_USER_MODE_ONLY 1
typedef struct stackplay_page_region { uint64_t start, end, categories; } stackplay_page_region;
typedef struct stackplay_pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
} stackplay_pm_scan_arg;
#define STACKPLAY_PAGE_IS_WRITTEN (1ull << 1)
#define STACKPLAY_PM_SCAN_CHECK_WPASYNC (1ull << 1)
#define STACKPLAY_PAGEMAP_SCAN _IOWR('f', 16, stackplay_pm_scan_arg)

/// Sets up `a`'s userfaultfd over the whole arena, once a process; 0 when it cannot.
static int stackplay_uffd_ready(stackplay_arena *a) {
    if (a->uffd >= 0 && a->uffd_pid == getpid()) return 1;
    if (a->uffd >= 0) { // made before a fork: this process has none
        close(a->uffd);
        close(a->pagemap);
        a->uffd = -1;
        a->uffd_tried = 0;
    }
    if (a->uffd_tried) return 0;
    a->uffd_tried = 1;
    if (getenv("STACKPLAY_NO_USERFAULTFD")) return 0;
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | STACKPLAY_USER_MODE_ONLY);
    if (fd < 0) return 0;
    struct uffdio_api api = {.api = UFFD_API, .features = STACKPLAY_UFFD_WP_ASYNC | STACKPLAY_UFFD_WP_UNPOPULATED};
    struct uffdio_register reg = {.range = {(uintptr_t)a->base, a->reserve}, .mode = UFFDIO_REGISTER_MODE_WP};
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    stackplay_page_region probe;
    stackplay_pm_scan_arg scan = {.size = sizeof scan, .flags = STACKPLAY_PM_SCAN_CHECK_WPASYNC,
                                  .start = (uintptr_t)a->base, .end = (uintptr_t)a->base + a->block,
                                  .vec = (uintptr_t)&probe, .vec_len = 1,
                                  .category_mask = STACKPLAY_PAGE_IS_WRITTEN, .return_mask = STACKPLAY_PAGE_IS_WRITTEN};
    if (ioctl(fd, UFFDIO_API, &api) != 0 || pagemap < 0 || ioctl(fd, UFFDIO_REGISTER, &reg) != 0 ||
        ioctl(pagemap, STACKPLAY_PAGEMAP_SCAN, &scan) < 0) {
        close(fd);
        if (pagemap >= 0) close(pagemap);
        return 0;
    }
    a->uffd = fd;
    a->pagemap = pagemap;
    a->uffd_pid = getpid();
    return 1;
}

/// Write-protects (or, with `protect` 0, un-protects) `bytes` from `from` through the userfaultfd.
static int stackplay_uffd_protect(stackplay_arena *a, char *from, size_t bytes, int protect) {
    struct uffdio_writeprotect wp = {.range = {(uintptr_t)from, bytes},
                                     .mode = protect ? UFFDIO_WRITEPROTECT_MODE_WP : 0};
    return ioctl(a->uffd, UFFDIO_WRITEPROTECT, &wp) == 0;
}

/// Pages a test writes that stay writable, copied back at every restore instead of protected
/// again: most tests write the same few pages (the heap's free lists, the global state, the
/// registry, the stack), and each write-protect call (a TLB flush) and each first write (a
/// fault) cost more than copying a page. When the writable pages pass this many bytes they are
/// all protected again.
#define STACKPLAY_UFFD_WRITABLE (256u << 10)
#define STACKPLAY_UFFD_REGIONS 512

/// Copies back from `s` the pages written since they were protected (and those left writable),
/// and protects them again once they are more than STACKPLAY_UFFD_WRITABLE bytes.
/// 0 when the scan fails (the caller copies everything).
static int stackplay_uffd_restore(stackplay_arena *a, const stackplay_snapshot *s) {
    stackplay_page_region regions[128];
    static __thread stackplay_page_region written[STACKPLAY_UFFD_REGIONS];
    size_t count = 0, bytes = 0;
    int overflow = 0;
    uint64_t start = (uintptr_t)a->base, end = (uintptr_t)a->base + a->tracked;
    while (start < end) {
        stackplay_pm_scan_arg scan = {.size = sizeof scan, .flags = STACKPLAY_PM_SCAN_CHECK_WPASYNC, .start = start,
                                      .end = end, .vec = (uintptr_t)regions, .vec_len = 128,
                                      .category_mask = STACKPLAY_PAGE_IS_WRITTEN,
                                      .return_mask = STACKPLAY_PAGE_IS_WRITTEN};
        long found = ioctl(a->pagemap, STACKPLAY_PAGEMAP_SCAN, &scan);
        if (found < 0) return 0;
        for (long i = 0; i < found; i++) {
            size_t from = (size_t)(regions[i].start - (uintptr_t)a->base);
            size_t to = (size_t)(regions[i].end - (uintptr_t)a->base);
            if (from < s->size) memcpy(a->base + from, s->copy + from, (to < s->size ? to : s->size) - from);
            bytes += to - from;
            if (count < STACKPLAY_UFFD_REGIONS) written[count++] = regions[i]; else overflow = 1;
        }
        if (scan.walk_end <= start) return 0;
        start = scan.walk_end;
    }
    if (bytes <= STACKPLAY_UFFD_WRITABLE && !overflow) return 1;
    if (overflow) return stackplay_uffd_protect(a, a->base, a->tracked, 1);
    for (size_t i = 0; i < count; i++) {
        char *from = (char *)(uintptr_t)written[i].start;
        if (!stackplay_uffd_protect(a, from, (size_t)(written[i].end - written[i].start), 1)) return 0;
    }
    return 1;
}
#else
static int stackplay_uffd_ready(stackplay_arena *a) { (void)a; return 0; }
static int stackplay_uffd_protect(stackplay_arena *a, char *from, size_t bytes, int protect) {
    (void)a; (void)from; (void)bytes; (void)protect; return 0;
}
static int stackplay_uffd_restore(stackplay_arena *a, const stackplay_snapshot *s) { (void)a; (void)s; return 0; }
#endif

/// Ends the lazy copy of `a`'s newest snapshot, if it has one: with `complete`, first copies into it
/// the pages not saved yet (read-only until now, so equal to the snapshot), so that it is whole;
/// then every page is writable again.
static void stackplay_lazy_end(stackplay_arena *a, int complete) {
    if (!a->lazy_bytes) return;
    size_t bytes = a->lazy_bytes, page = a->lazy_page;
    stackplay_snapshot *s = &a->snapshots[a->lazy_level - 1];
    if (complete) {
        for (size_t from = 0; from < s->size; from += page) {
            if (!a->lazy_saved[from / page]) {
                memcpy(s->copy + from, a->base + from, s->size - from < page ? s->size - from : page);
            }
        }
    }
    a->lazy_bytes = 0;
    mprotect(a->base, bytes, PROT_READ | PROT_WRITE);
    free(a->lazy_saved);
    a->lazy_saved = NULL;
    a->lazy_level = 0;
}

/// Frees a snapshot's copies.
static void stackplay_snapshot_free(stackplay_snapshot *s) {
    if (s->mapped) {
        munmap(s->copy, s->mapped);
    } else {
        free(s->copy);
    }
    free(s->guard);
    memset(s, 0, sizeof *s);
}

/// Stops tracking `a`'s writes: every page writable again, none recorded (a lazy copy is made whole).
static void stackplay_untrack(stackplay_arena *a) {
    stackplay_lazy_end(a, 1);
    if (!a->tracked) return;
    size_t tracked = a->tracked;
    a->tracked = 0;
    if (a->uffd >= 0 && a->uffd_pid == getpid()) {
        stackplay_uffd_protect(a, a->base, tracked, 0);
        return;
    }
    mprotect(a->base, tracked, PROT_READ | PROT_WRITE);
    for (size_t i = 0; i < a->written_count; i++) a->written[a->written_pages[i]] = 0;
    a->written_count = 0;
}

/// The smallest snapshot worth restoring page by page: with a userfaultfd a restore costs a scan
/// of the page tables and a fault costs no signal, so it pays from STACKPLAY_TRACK_BYTES_UFFD on;
/// with write faults from STACKPLAY_TRACK_BYTES. Measured (`stackplay-bench --table`, CPU time,
/// kernel 6.18): files of 10 tests (snapshots of 134-142 KiB) cost 14 µs an empty test copied,
/// 27 tracked; a data-driven test in a file of 1,000 (647 KiB) 57 µs copied, 36 tracked (with
/// STACKPLAY_UFFD_WRITABLE); in a file of 10,000 (6 MiB) 330 copied, 38 tracked.
#define STACKPLAY_TRACK_BYTES_UFFD (256u << 10)
static size_t stackplay_track_bytes(stackplay_arena *a) {
    return stackplay_uffd_ready(a) ? STACKPLAY_TRACK_BYTES_UFFD : STACKPLAY_TRACK_BYTES;
}

/// Write-protects the first `size` bytes of `a` (rounded up to pages) and records writes to them
/// from now on; returns 0 (nothing changes) when it cannot.
static int stackplay_track(stackplay_arena *a, size_t size) {
    size_t bytes = (size + a->block - 1) / a->block * a->block;
    if (stackplay_uffd_ready(a)) {
        if (!stackplay_uffd_protect(a, a->base, bytes, 1)) return 0;
        a->tracked = bytes;
        return 1;
    }
    if (!a->written || !stackplay_segv_install()) return 0;
    if (mprotect(a->base, bytes, PROT_READ) != 0) return 0;
    a->tracked = bytes;
    return 1;
}

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
    for (int i = 0; i < STACKPLAY_TRACKED_MAX; i++) {
        stackplay_arena *expected = NULL;
        if (__atomic_compare_exchange_n(&stackplay_tracked_arenas[i], &expected, a, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) break;
    }
    return a;
#endif
}

int stackplay_arena_fixed(const stackplay_arena *arena) { return arena->slot >= 0; }
void *stackplay_arena_base(const stackplay_arena *arena) { return arena->base; }
size_t stackplay_arena_used(const stackplay_arena *arena) { return (size_t)(arena->heap->bump - arena->base); }

void *stackplay_arena_realloc(stackplay_arena *arena, void *ptr, size_t osize, size_t nsize) {
    stackplay_heap *h = arena->heap;
    if (nsize == 0) {
        if (ptr) stackplay_heap_give(h, ptr, osize);
        return NULL;
    }
    if (ptr) {
        size_t old_bytes, new_bytes;
        if (stackplay_class_of(osize, &old_bytes) == stackplay_class_of(nsize, &new_bytes)) return ptr;
        void *block = stackplay_heap_take(h, nsize);
        if (!block) return NULL;
        memcpy(block, ptr, osize < nsize ? osize : nsize);
        stackplay_heap_give(h, ptr, osize);
        return block;
    }
    return stackplay_heap_take(h, nsize);
}

void stackplay_arena_close(stackplay_arena *arena) {
    if (!arena) return;
    stackplay_lazy_end(arena, 0);
    stackplay_untrack(arena);
    for (int i = 0; i < STACKPLAY_TRACKED_MAX; i++) {
        stackplay_arena *expected = arena;
        __atomic_compare_exchange_n(&stackplay_tracked_arenas[i], &expected, NULL, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
    }
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

void stackplay_arena_retained(stackplay_arena *arena, void *object) {
    if (!arena->tracking || arena->levels == 0) return;
    // Out of memory for the ledger: the retain then stays with the object (a leak, never a
    // use after free).
    (void)stackplay_ledger_add(&arena->ledgers[arena->levels], object);
}

void stackplay_arena_release(stackplay_arena *arena, void *object, void (*release)(void *)) {
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

/// Makes `s`, the snapshot about to be taken of `used` bytes, a lazy copy when it pays and can be
/// (a userfaultfd tracks the writes; `STACKPLAY_EAGER_SNAPSHOTS` set: never). 0: `s` needs a whole
/// copy. Pages are saved a block (64 KiB) at a time: measured on a 10,000-test file (6 MiB
/// snapshot, `stackplay-bench --table`), 4 KiB pages saved 0.3 MiB and cost 6 µs a test (the
/// faults, and the mapping cut in hundreds of pieces), 64 KiB blocks 1.3 MiB and 2 µs.
static int stackplay_snapshot_lazily(stackplay_arena *a, stackplay_snapshot *s, size_t used) {
    if (used < STACKPLAY_TRACK_BYTES_UFFD || !stackplay_uffd_ready(a) || getenv("STACKPLAY_EAGER_SNAPSHOTS")) {
        return 0;
    }
    size_t page = a->block; // STACKPLAY_TRACK_BLOCK, or the page size if larger
    size_t bytes = (used + page - 1) / page * page;
    void *copy = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (copy == MAP_FAILED) return 0;
    unsigned char *saved = (unsigned char *)calloc(bytes / page, 1);
    if (!saved || !stackplay_segv_install()) {
        free(saved);
        munmap(copy, bytes);
        return 0;
    }
    s->copy = (char *)copy;
    s->mapped = bytes;
    s->size = used;
    a->lazy_saved = saved;
    a->lazy_page = page;
    a->lazy_level = a->levels + 1;
    a->lazy_bytes = bytes;
    if (mprotect(a->base, bytes, PROT_READ) != 0) {
        // nothing is read-only: a whole copy, in the mapping
        a->lazy_bytes = 0;
        a->lazy_level = 0;
        a->lazy_saved = NULL;
        free(saved);
        memcpy(s->copy, a->base, used);
    }
    return 1;
}

int stackplay_snapshot_take(lua_State *L) {
    stackplay_arena *a = stackplay_arena_of(L);
    if (!a || a->levels >= STACKPLAY_SNAPSHOT_LEVELS || stackplay_guard_depth(L) > 0) return 0;
    stackplay_untrack(a);
    size_t guard_size;
    void *guard = stackplay_guard_bytes(L, &guard_size);
    size_t used = stackplay_arena_used(a);
    stackplay_snapshot *s = &a->snapshots[a->levels];
    s->guard = malloc(guard_size);
    if (!s->guard) return 0;
    if (!stackplay_snapshot_lazily(a, s, used)) {
        s->copy = (char *)malloc(used);
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
    if (used >= stackplay_track_bytes(a)) stackplay_track(a, used);
    return a->levels;
}

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
    int uffd_here = a->uffd >= 0 && a->uffd_pid == getpid();
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

void stackplay_arena_closing(lua_State *L, stackplay_arena *arena) {
    if (arena->levels > 0) stackplay_snapshot_restore(L, 1);
    stackplay_lazy_end(arena, 0);
    stackplay_untrack(arena);
    for (int k = 0; k <= STACKPLAY_SNAPSHOT_LEVELS; k++) stackplay_ledger_release_all(&arena->ledgers[k], arena->release);
    for (int k = 0; k < arena->levels; k++) stackplay_snapshot_free(&arena->snapshots[k]);
    arena->levels = 0;
    arena->tracking = 0;
}

void stackplay_arena_attach(stackplay_arena *arena, lua_State *L, void (*release)(void *)) {
    arena->state = L;
    arena->release = release;
}

void stackplay_collector_hold(lua_State *L, int stop) { lua_gc(L, stop ? LUA_GCSTOP : LUA_GCRESTART); }

// MARK: math.random

/// The registry key of the library's own `math.randomseed`.
static const char stackplay_randomseed_key = 0;

void stackplay_random_capture(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushliteral(L, "math");
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushliteral(L, "randomseed");
        lua_rawget(L, -2);
        if (lua_tocfunction(L, -1)) {
            lua_rawsetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key);
        } else {
            lua_settop(L, -2);
        }
    }
    lua_settop(L, -3);
}

int stackplay_random_seed(lua_State *L, long long seed) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key) != LUA_TFUNCTION) {
        lua_settop(L, -2);
        return -1;
    }
    lua_pushinteger(L, (lua_Integer)seed);
    // A C function given an integer: it cannot raise, and no hook runs inside it.
    return lua_pcall(L, 1, 0, 0) == LUA_OK ? 0 : (lua_settop(L, -2), -1);
}

size_t stackplay_random_state(lua_State *L, void *out, size_t size) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &stackplay_randomseed_key) != LUA_TFUNCTION) {
        lua_settop(L, -2);
        return 0;
    }
    size_t copied = 0;
    if (lua_getupvalue(L, -1, 1)) {
        const void *state = lua_touserdata(L, -1);
        size_t length = lua_rawlen(L, -1);
        if (state) {
            copied = length < size ? length : size;
            memcpy(out, state, copied);
        }
        lua_settop(L, -2);
    }
    lua_settop(L, -2);
    return copied;
}
