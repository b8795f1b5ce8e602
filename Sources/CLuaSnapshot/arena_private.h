// What arena.c, arena_heap.c, arena_large.c, arena_tracking.c and arena_check.c share, inside
// CLuaSnapshot (not part of its public header include/arena.h; no other target includes it): the
// arena's layout, its heap and ledgers, and the functions one file calls in another. The files
// call one way: arena.c -> arena_tracking.c, arena_check.c -> arena_heap.c -> arena_large.c.
#ifndef STACKPLAY_ARENA_PRIVATE_H
#define STACKPLAY_ARENA_PRIVATE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "arena.h"
#include "CLuaRuntime.h"
#include "CSystemCalls.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
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

/// The invariant checks after every take and restore (arena_check.c), when an arena has them on
/// (STACKPLAY_ARENA_CHECKS in the environment, or stackplay_arena_checking): compiled into debug
/// builds, out of release builds (NDEBUG), where no take or restore pays for them.
#if !defined(NDEBUG) && !defined(STACKPLAY_ARENA_CHECKS)
#define STACKPLAY_ARENA_CHECKS 1
#endif

// MARK: The arena's heap (arena_heap.c)

/// Size classes: 16-byte steps up to 256 bytes (classes 1...16), then four classes a power of two
/// (257...320, ..., 385...512, 513...640, ...). A block's class follows from the size Lua passes
/// for it, so blocks carry no header; a free block's first word links it into its class's list.
#define STACKPLAY_SMALL_LARGEST 256
#define STACKPLAY_CLASSES 200
/// Blocks over this many bytes are large (arena_large.c): chunks that merge when freed.
#define STACKPLAY_LARGE_FROM 1024
#define STACKPLAY_LARGE_BINS 160

typedef struct stackplay_heap {
    char *bump;                      // the first byte never handed out
    char *end;                       // the end of the reserved range
    void *free[STACKPLAY_CLASSES];   // free blocks per class
    void *large[STACKPLAY_LARGE_BINS];      // free large chunks per bin (arena_large.c)
    unsigned long long large_map[(STACKPLAY_LARGE_BINS + 63) / 64]; // bins that are not empty
    char *large_top;                 // the end mark of the newest segment of large chunks
} stackplay_heap;


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

// MARK: Arenas

/// Slot k's arena starts at STACKPLAY_ARENA_BASE + k * STACKPLAY_ARENA_STRIDE: the same address in
/// every process of a run, far from where the kernel puts mappings and heaps.
#define STACKPLAY_ARENA_BASE 0x300000000000ull
#define STACKPLAY_ARENA_STRIDE (64ull << 30)
#define STACKPLAY_ARENA_SLOTS 16
/// How many times this process is a fork's child of one that made an arena (pthread_atfork,
/// arena_tracking.c): compared instead of getpid(), a system call at every restore.
extern volatile unsigned stackplay_arena_forks;
/// Starts counting forks in stackplay_arena_forks (once a process; arena_tracking.c).
void stackplay_arena_count_forks(void);
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
    uint64_t checksum; // of the arena's bytes [base, base + size) at the take (arena_check.c)
    int summed;        // 1: `checksum` was taken (the arena's checks were on)
} stackplay_snapshot;

struct stackplay_arena {
    char *base;
    size_t reserve;
    int slot;   // -1: not at a slot's address
    stackplay_heap *heap;
    int levels; // snapshots held
    int tracking;
    int checks; // the invariant checks after every take and restore (arena_check.c)
    stackplay_snapshot snapshots[STACKPLAY_SNAPSHOT_LEVELS];
    stackplay_ledger ledgers[STACKPLAY_SNAPSHOT_LEVELS + 1]; // [k]: since snapshot k (k = levels: now)
    void (*release)(void *);
    lua_State *state;
    // Write tracking of the newest snapshot (STACKPLAY_TRACK_BYTES): written from the SIGSEGV handler.
    size_t block;                   // the unit of write tracking: STACKPLAY_TRACK_BLOCK bytes
    volatile size_t tracked;        // bytes from base write-protected now; 0: not tracking
    int uffd;                       // the userfaultfd that write-protects them (async); -1: mprotect
    int pagemap;                    // /proc/self/pagemap, for PAGEMAP_SCAN
    unsigned uffd_generation;       // the fork generation they were made in (a forked child has none)
    int uffd_tried;
    int listed;                     // in the SIGSEGV handler's list: only then tracked by write
                                    // faults or copied lazily (arena_tracking.c)
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

// MARK: Across the files

/// The size class of a small block of `n` bytes (the bytes it takes in `*bytes`).
static inline size_t stackplay_class_of(size_t n, size_t *bytes) {
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
void *stackplay_heap_take(stackplay_heap *h, size_t n);
void stackplay_heap_give(stackplay_heap *h, void *block, size_t n);
void *stackplay_large_take(stackplay_heap *h, size_t n);
/// Gives the free small blocks back as large chunks (arena_large.c); 0 when there were none.
int stackplay_heap_give_back_small(stackplay_heap *h);
void stackplay_large_give(stackplay_heap *h, void *block);
/// `block` holding `n` bytes, in place when it can be; NULL (the block kept) when out of room.
void *stackplay_large_resize(stackplay_heap *h, void *block, size_t n);
stackplay_ledger_entry *stackplay_ledger_find(stackplay_ledger *l, const void *object);
int stackplay_ledger_add(stackplay_ledger *l, void *object);
void stackplay_ledger_release_all(stackplay_ledger *l, void (*release)(void *));
int stackplay_uffd_restore(stackplay_arena *a, const stackplay_snapshot *s);
void stackplay_lazy_end(stackplay_arena *a, int complete);
void stackplay_snapshot_free(stackplay_snapshot *s);
int stackplay_tracking_add(stackplay_arena *a);
void stackplay_tracking_remove(stackplay_arena *arena);
void stackplay_untrack(stackplay_arena *a);
size_t stackplay_track_bytes(stackplay_arena *a);
int stackplay_track(stackplay_arena *a, size_t size);
int stackplay_snapshot_lazily(stackplay_arena *a, stackplay_snapshot *s, size_t used);

// MARK: Invariant checks (arena_check.c; the walk of the large bins in arena_large.c)

/// The first block's address in an arena whose heap header is at `h`.
static inline char *stackplay_heap_start(const stackplay_heap *h) {
    return (char *)h + ((sizeof(stackplay_heap) + 63) & ~(size_t)63);
}

/// Claims the granules [first, first + count) of `map` (one bit per 16 bytes): 1, or 0 when one of
/// them was claimed already (two free blocks overlap, or a block is listed twice).
static inline int stackplay_map_claim(unsigned long long *map, size_t first, size_t count) {
    for (size_t g = first; g < first + count; g++) {
        unsigned long long bit = 1ull << (g % 64);
        if (map[g / 64] & bit) return 0;
        map[g / 64] |= bit;
    }
    return 1;
}

/// A 64-bit hash of `size` bytes (not cryptographic: it finds a changed byte, not an adversary).
uint64_t stackplay_arena_checksum(const char *bytes, size_t size);

/// Checks the arena's levels, heap bounds, free lists and bins, and with `restored` its bytes
/// against the newest snapshot (include/arena.h, stackplay_arena_verify): 0, or -1 with why.
int stackplay_arena_check(const stackplay_arena *a, int restored, char *why, size_t why_size);

/// stackplay_arena_check(a, 1, ...) after a take or restore: on a failure it says so on stderr,
/// with `when` ("restoring snapshot 2"), and aborts.
void stackplay_arena_check_or_abort(const stackplay_arena *a, const char *when, int level);

/// Checks every bin of large chunks (arena_large.c), each chunk's granules claimed in `map` from
/// `start` (NULL: no map): 0, or -1 with why.
int stackplay_large_check(const stackplay_heap *h, unsigned long long *map, char *why, size_t why_size);

#endif
