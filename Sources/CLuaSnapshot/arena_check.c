// The arena's invariant checks (declared in arena_private.h; docs/design/arena.md, "Invariants"):
// after every take and restore of an arena whose checks are on, the restored bytes hash to the
// checksum taken with the snapshot, and the heap holds together: its bounds, every small free list
// and every bin of large chunks (arena_large.c walks those), no two free blocks overlapping. A
// failure is a bug in stackplay, and the process ends (stackplay_arena_check_or_abort); the checking
// itself returns a status, which the tests read (stackplay_arena_verify, arena.c).
#include "arena_private.h"

uint64_t stackplay_arena_checksum(const char *bytes, size_t size) {
    // four lanes of 64-bit words, each multiplied and rotated (a changed byte changes its lane),
    // folded at the end with the length: a debug build's -O0 still does about a byte a cycle
    uint64_t lane[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t i = 0;
    for (; i + 32 <= size; i += 32) {
        for (int k = 0; k < 4; k++) {
            uint64_t word;
            memcpy(&word, bytes + i + 8 * (size_t)k, 8);
            lane[k] = (lane[k] ^ word) * 0x100000001B3ull;
            lane[k] = (lane[k] << 31) | (lane[k] >> 33);
        }
    }
    uint64_t h = (uint64_t)size;
    for (int k = 0; k < 4; k++) h = (h ^ lane[k]) * 0x9E3779B97F4A7C15ull;
    for (; i < size; i++) h = (h ^ (unsigned char)bytes[i]) * 0x100000001B3ull;
    return h ^ (h >> 29);
}

/// The bytes of a block of small class `c`: the inverse of stackplay_class_of.
static size_t stackplay_class_bytes(size_t c) {
    if (c <= 16) return c * 16;
    size_t b = 8 + (c - 17) / 4, k = (c - 17) % 4 + 1;
    return ((size_t)1 << b) + k * ((size_t)1 << (b - 2));
}

/// Invariant 4: the levels held, each snapshot's copy and guard there, sizes not decreasing.
static int stackplay_levels_check(const stackplay_arena *a, char *why, size_t why_size) {
    if (a->levels < 0 || a->levels > STACKPLAY_SNAPSHOT_LEVELS) {
        snprintf(why, why_size, "the arena holds %d snapshots (0 to %d)", a->levels, STACKPLAY_SNAPSHOT_LEVELS);
        return -1;
    }
    for (int k = 0; k < STACKPLAY_SNAPSHOT_LEVELS; k++) {
        const stackplay_snapshot *s = &a->snapshots[k];
        if (k < a->levels ? !s->copy || !s->guard : s->copy != NULL) {
            snprintf(why, why_size, "snapshot %d is %s, but the arena holds %d", k + 1, s->copy ? "kept" : "missing",
                     a->levels);
            return -1;
        }
        if (k > 0 && k < a->levels && a->snapshots[k - 1].size > s->size) {
            snprintf(why, why_size, "snapshot %d holds %zu bytes, fewer than snapshot %d's %zu", k + 1, s->size, k,
                     a->snapshots[k - 1].size);
            return -1;
        }
    }
    return 0;
}

/// Invariant 9: each ledger's counts agree with its entries (held the sum of the counts, filled the
/// entries with an object, at most half full), and the ledgers of no level (0, above `levels`) are empty.
static int stackplay_ledgers_check(const stackplay_arena *a, char *why, size_t why_size) {
    for (int k = 0; k <= STACKPLAY_SNAPSHOT_LEVELS; k++) {
        const stackplay_ledger *l = &a->ledgers[k];
        size_t held = 0, filled = 0;
        for (size_t i = 0; i < l->capacity; i++) {
            if (!l->entries[i].object) continue;
            filled++;
            held += l->entries[i].count > 0 ? (size_t)l->entries[i].count : 0;
        }
        int unused = k == 0 || k > a->levels;
        if (held != l->held || filled != l->filled || filled * 2 > l->capacity || (unused && held)) {
            snprintf(why, why_size,
                     "the ledger of retains since snapshot %d counts %zu held in %zu entries, its entries say %zu in "
                     "%zu (of %zu places)%s",
                     k, l->held, l->filled, held, filled, l->capacity, unused ? "; no snapshot has that level" : "");
            return -1;
        }
    }
    return 0;
}

/// Invariants 2 and 3: the heap's bounds; the small free lists (and, through arena_large.c, the
/// bins), no two free blocks overlapping.
static int stackplay_heap_check(const stackplay_arena *a, char *why, size_t why_size) {
    const stackplay_heap *h = a->heap;
    char *start = stackplay_heap_start(h);
    if ((char *)h != a->base || h->end != a->base + a->reserve || h->bump < start || h->bump > h->end) {
        snprintf(why, why_size, "the heap's bounds are wrong: header %p, bump %p, end %p for the arena [%p, %p)",
                 (void *)h, (void *)h->bump, (void *)h->end, (void *)a->base, (void *)(a->base + a->reserve));
        return -1;
    }
    size_t granules = (size_t)(h->bump - start) / 16;
    // no map (out of memory): every check but the overlaps, and a walk no longer than the heap
    unsigned long long *map = (unsigned long long *)calloc(granules / 64 + 1, sizeof *map);
    int status = 0;
    for (size_t c = 1; c < STACKPLAY_CLASSES && status == 0; c++) {
        size_t bytes = stackplay_class_bytes(c), walked = 0;
        for (char *block = (char *)h->free[c]; block; block = *(char **)block) {
            if (block < start || (size_t)(h->bump - block) < bytes || (size_t)(block - start) % 16) {
                snprintf(why, why_size,
                         "the free list of class %zu (%zu-byte blocks) holds %p: outside the heap [%p, %p) or not "
                         "16-byte aligned",
                         c, bytes, (void *)block, (void *)start, (void *)h->bump);
                status = -1;
                break;
            }
            if (map ? !stackplay_map_claim(map, (size_t)(block - start) / 16, bytes / 16) : ++walked > granules) {
                snprintf(why, why_size,
                         "the free block %p of class %zu (%zu bytes) overlaps another free block, or is listed twice",
                         (void *)block, c, bytes);
                status = -1;
                break;
            }
        }
    }
    if (status == 0) status = stackplay_large_check(h, map, why, why_size);
    free(map);
    return status;
}

int stackplay_arena_check(const stackplay_arena *a, int restored, char *why, size_t why_size) {
    if (stackplay_levels_check(a, why, why_size) || stackplay_ledgers_check(a, why, why_size) ||
        stackplay_heap_check(a, why, why_size))
        return -1;
    if (!restored || a->levels == 0) return 0;
    // invariant 5: the restored state is the snapshot, byte for byte
    const stackplay_snapshot *s = &a->snapshots[a->levels - 1];
    size_t used = (size_t)(a->heap->bump - a->base); // (stackplay_arena_used: arena.c calls this file)
    if (used != s->size) {
        snprintf(why, why_size, "the arena uses %zu bytes, snapshot %d %zu", used, a->levels, s->size);
        return -1;
    }
    if (s->summed) {
        uint64_t sum = stackplay_arena_checksum(a->base, s->size);
        if (sum != s->checksum) {
            snprintf(why, why_size, "the arena's %zu bytes hash to %016llx, snapshot %d's to %016llx", s->size,
                     (unsigned long long)sum, a->levels, (unsigned long long)s->checksum);
            return -1;
        }
    }
    return 0;
}

void stackplay_arena_check_or_abort(const stackplay_arena *a, const char *when, int level) {
    char why[400];
    if (stackplay_arena_check(a, 1, why, sizeof why) == 0) return;
    fprintf(stderr,
            "stackplay: arena invariant broken after %s snapshot %d: %s (a bug in stackplay; "
            "docs/design/arena.md, \"Invariants\"; STACKPLAY_FRESH_STATES=1 runs without the arena)\n",
            when, level, why);
    abort();
}
