// The arena's large blocks (arena_private.h): blocks over STACKPLAY_LARGE_FROM bytes, which merge.
//
// Small blocks come in size classes with a free list each (arena_heap.c): a freed block serves the
// next block of its class only. For large blocks that kept memory that was free but unusable: a
// test whose strings grew through sizes of many classes (each class keeping what it once held)
// used up the arena's reserve, eight times its budget, with 24 MiB live. Large blocks are chunks
// with a 16-byte header instead, carved from segments of the arena's bump range, that merge with
// free neighbours when freed (boundary tags, as dlmalloc's) and split when larger than asked: the
// memory a test holds at most is what it uses at most, plus a chunk's header and the rounding.
//
// A segment is chunks back to back, then an end mark (a header in use, of size 0). A chunk's
// header holds the previous chunk's size (valid when that one is free) and its own size with two
// flags: in use, and the previous chunk in use. A free chunk links into the bin of its size by its
// first two words; bins hold sizes from 2^b in four steps, and a bitmap says which are not empty.
// The segment at the top of the bump range grows in place, and a free chunk at its end goes back
// to the bump range, so a snapshot (which copies the range up to the bump) holds no free tail.
// Everything lives in the arena (the heap's bins at its base): a snapshot restores it with the rest.
#include "arena_private.h"

typedef struct stackplay_chunk {
    size_t prev_size;
    size_t size; // bytes, header included (a multiple of 16), | STACKPLAY_IN_USE | STACKPLAY_PREV_IN_USE
    struct stackplay_chunk *next_free, *prev_free; // a free chunk's links in its bin
} stackplay_chunk;

#define STACKPLAY_IN_USE ((size_t)1)
#define STACKPLAY_PREV_IN_USE ((size_t)2)
#define STACKPLAY_HEADER ((size_t)16)

static size_t chunk_size(const stackplay_chunk *c) { return c->size & ~(size_t)15; }
static stackplay_chunk *chunk_at(void *p) { return (stackplay_chunk *)p; }
static stackplay_chunk *chunk_after(stackplay_chunk *c) { return chunk_at((char *)c + chunk_size(c)); }
static void *payload(stackplay_chunk *c) { return (char *)c + STACKPLAY_HEADER; }
static stackplay_chunk *chunk_of(void *p) { return chunk_at((char *)p - STACKPLAY_HEADER); }

/// The bin of a chunk of `size` bytes (>= 64): 2^b in four steps.
static unsigned bin_of(size_t size) {
    unsigned b = 63u - (unsigned)__builtin_clzll((unsigned long long)size);
    unsigned bin = (b - 6) * 4 + (unsigned)((size >> (b - 2)) & 3);
    return bin < STACKPLAY_LARGE_BINS ? bin : STACKPLAY_LARGE_BINS - 1;
}

static void bin_insert(stackplay_heap *h, stackplay_chunk *c) {
    unsigned bin = bin_of(chunk_size(c));
    c->prev_free = NULL;
    c->next_free = (stackplay_chunk *)h->large[bin];
    if (c->next_free) c->next_free->prev_free = c;
    h->large[bin] = c;
    h->large_map[bin / 64] |= 1ull << (bin % 64);
}

static void bin_remove(stackplay_heap *h, stackplay_chunk *c) {
    unsigned bin = bin_of(chunk_size(c));
    if (c->prev_free) c->prev_free->next_free = c->next_free;
    else h->large[bin] = c->next_free;
    if (c->next_free) c->next_free->prev_free = c->prev_free;
    if (!h->large[bin]) h->large_map[bin / 64] &= ~(1ull << (bin % 64));
}

/// Marks `c` (of `size` bytes, its previous chunk's flag `prev`) free, tells the chunk after it,
/// and bins it; a free chunk right before the segment's end at the top of the bump range goes
/// back to the range instead.
static void release_chunk(stackplay_heap *h, stackplay_chunk *c, size_t size, size_t prev) {
    c->size = size | prev;
    stackplay_chunk *after = chunk_after(c);
    if (chunk_size(after) == 0 && (char *)after + STACKPLAY_HEADER == h->bump) {
        // the end mark moves down to c, and the bump range takes the rest
        c->size = 0 | STACKPLAY_IN_USE | prev;
        h->bump = (char *)c + STACKPLAY_HEADER;
        h->large_top = (char *)c;
        return;
    }
    after->prev_size = size;
    after->size &= ~STACKPLAY_PREV_IN_USE;
    bin_insert(h, c);
}

/// Splits `c` (in use) to `need` bytes when the rest can be a chunk of its own; the rest is freed.
static void trim(stackplay_heap *h, stackplay_chunk *c, size_t need) {
    size_t size = chunk_size(c);
    if (size - need < STACKPLAY_LARGE_FROM) return;
    c->size = need | (c->size & 15);
    stackplay_chunk *rest = chunk_after(c);
    size_t rest_size = size - need;
    stackplay_chunk *after = chunk_at((char *)rest + rest_size);
    if (!(after->size & STACKPLAY_IN_USE)) {
        bin_remove(h, after);
        rest_size += chunk_size(after);
    }
    release_chunk(h, rest, rest_size, STACKPLAY_PREV_IN_USE);
}

/// A free chunk of at least `need` bytes from the bins, taken out of its bin; NULL when none.
static stackplay_chunk *from_bins(stackplay_heap *h, size_t need) {
    unsigned bin = bin_of(need);
    // the first that fits in its own bin, else any chunk of a larger bin
    for (stackplay_chunk *c = (stackplay_chunk *)h->large[bin]; c; c = c->next_free) {
        if (chunk_size(c) >= need) {
            bin_remove(h, c);
            return c;
        }
    }
    for (unsigned word = (bin + 1) / 64; word < (STACKPLAY_LARGE_BINS + 63) / 64; word++) {
        unsigned long long bits = h->large_map[word];
        if (word == (bin + 1) / 64) bits &= ~0ull << ((bin + 1) % 64);
        if (!bits) continue;
        stackplay_chunk *c = (stackplay_chunk *)h->large[word * 64 + (unsigned)__builtin_ctzll(bits)];
        bin_remove(h, c);
        return c;
    }
    return NULL;
}

/// A new chunk of `need` bytes at the top of the bump range: the top segment grows when it ends
/// at the bump (its end mark becomes the chunk), else a new segment starts. NULL when the
/// arena's reserve is spent.
static stackplay_chunk *from_bump(stackplay_heap *h, size_t need) {
    int grows = h->large_top && h->large_top + STACKPLAY_HEADER == h->bump;
    char *at = grows ? h->large_top : h->bump;
    size_t prev = grows ? (chunk_at(at)->size & STACKPLAY_PREV_IN_USE) : STACKPLAY_PREV_IN_USE;
    size_t extra = grows ? 0 : STACKPLAY_HEADER; // a new segment's end mark
    if ((size_t)(h->end - h->bump) < need + extra) return NULL;
    stackplay_chunk *c = chunk_at(at);
    c->size = need | STACKPLAY_IN_USE | prev;
    stackplay_chunk *mark = chunk_after(c);
    mark->size = 0 | STACKPLAY_IN_USE | STACKPLAY_PREV_IN_USE;
    h->large_top = (char *)mark;
    h->bump = (char *)mark + STACKPLAY_HEADER;
    return c;
}

/// The chunk size that holds `n` bytes.
static size_t chunk_need(size_t n) { return (n + STACKPLAY_HEADER + 15) & ~(size_t)15; }

void *stackplay_large_take(stackplay_heap *h, size_t n) {
    size_t need = chunk_need(n);
    stackplay_chunk *c = from_bins(h, need);
    if (c) {
        c->size |= STACKPLAY_IN_USE;
        chunk_after(c)->size |= STACKPLAY_PREV_IN_USE;
        trim(h, c, need);
        return payload(c);
    }
    // A free chunk at the top segment's end merges with the growth: it went back to the bump.
    c = from_bump(h, need);
    return c ? payload(c) : NULL;
}

void stackplay_large_give(stackplay_heap *h, void *p) {
    stackplay_chunk *c = chunk_of(p);
    size_t size = chunk_size(c);
    stackplay_chunk *after = chunk_after(c);
    if (!(after->size & STACKPLAY_IN_USE)) {
        bin_remove(h, after);
        size += chunk_size(after);
    }
    if (!(c->size & STACKPLAY_PREV_IN_USE)) {
        stackplay_chunk *before = chunk_at((char *)c - c->prev_size);
        bin_remove(h, before);
        size += chunk_size(before);
        c = before;
    }
    release_chunk(h, c, size, c->size & STACKPLAY_PREV_IN_USE);
}

void *stackplay_large_resize(stackplay_heap *h, void *p, size_t n) {
    stackplay_chunk *c = chunk_of(p);
    size_t need = chunk_need(n), size = chunk_size(c);
    if (need <= size) {
        trim(h, c, need);
        return p;
    }
    stackplay_chunk *after = chunk_after(c);
    if (!(after->size & STACKPLAY_IN_USE) && size + chunk_size(after) >= need) {
        bin_remove(h, after);
        c->size = (size + chunk_size(after)) | (c->size & 15);
        chunk_after(c)->size |= STACKPLAY_PREV_IN_USE;
        trim(h, c, need);
        return p;
    }
    if (chunk_size(after) == 0 && (char *)after == h->large_top && (char *)after + STACKPLAY_HEADER == h->bump) {
        // the last chunk of the top segment grows into the bump range
        if ((size_t)(h->end - h->bump) < need - size) return NULL;
        c->size = need | (c->size & 15);
        stackplay_chunk *mark = chunk_after(c);
        mark->size = 0 | STACKPLAY_IN_USE | STACKPLAY_PREV_IN_USE;
        h->large_top = (char *)mark;
        h->bump = (char *)mark + STACKPLAY_HEADER;
        return p;
    }
    void *moved = stackplay_large_take(h, n);
    if (!moved) return NULL;
    memcpy(moved, p, size - STACKPLAY_HEADER);
    stackplay_large_give(h, p);
    return moved;
}


// MARK: Small blocks given back

/// Sets `count` (at most 64) bits of `map` from bit `first`.
static void set_bits(unsigned long long *map, size_t first, size_t count) {
    size_t word = first / 64, bit = first % 64;
    unsigned long long low = count >= 64 ? ~0ull : (1ull << count) - 1;
    map[word] |= low << bit;
    if (bit && bit + count > 64) map[word + 1] |= low >> (64 - bit);
}

/// The first bit at or after `from` (and before `limit`) that is `set`; `limit` when none.
static size_t next_bit(const unsigned long long *map, size_t from, size_t limit, int set) {
    while (from < limit) {
        unsigned long long word = set ? map[from / 64] : ~map[from / 64];
        word &= ~0ull << (from % 64);
        if (word) {
            size_t at = from / 64 * 64 + (size_t)__builtin_ctzll(word);
            return at < limit ? at : limit;
        }
        from = from / 64 * 64 + 64;
    }
    return limit;
}

/// Small blocks keep to their class (arena_heap.c), so memory freed by blocks of one size served
/// no other: phases of strings of 22 small sizes, 24 MiB live at most, spent the reserve of a
/// 64 MiB budget. When a small block finds neither a free block of its class nor room at the bump,
/// every free small block is marked on a map of the heap (16-byte granules), the class lists are
/// emptied, and each run of free granules becomes a free large chunk (a segment of its own, with
/// its end mark; one at the top of the bump range goes back to the range), which merges and splits
/// as large chunks do; runs too short for a chunk go back to the class lists in blocks of 16 bytes
/// to 256. Returns 0 when no chunk and no bump room came of it (or no map could be made), so that
/// the caller asks again only when something was gained.
int stackplay_heap_give_back_small(stackplay_heap *h) {
    char *start = (char *)h + ((sizeof(stackplay_heap) + 63) & ~(size_t)63);
    size_t granules = (size_t)(h->bump - start) / 16;
    unsigned long long *map = (unsigned long long *)calloc(granules / 64 + 1, sizeof *map);
    if (!map) return 0;
    size_t marked = 0;
    for (size_t c = 1; c < STACKPLAY_CLASSES; c++) {
        size_t bytes = c <= 16 ? c * 16 : 0;
        if (!bytes) {
            // the class's bytes, from any size in it (the largest of the class below, plus one)
            for (size_t n = STACKPLAY_SMALL_LARGEST + 1; n <= STACKPLAY_LARGE_FROM; n += 16) {
                size_t b;
                if (stackplay_class_of(n, &b) == c) { bytes = b; break; }
            }
            if (!bytes) continue;
        }
        for (void *block = h->free[c]; block; block = *(void **)block) {
            set_bits(map, (size_t)((char *)block - start) / 16, bytes / 16);
            marked++;
        }
        h->free[c] = NULL;
    }
    if (!marked) {
        free(map);
        return 0;
    }
    int gained = 0;
    size_t g = 0;
    while ((g = next_bit(map, g, granules, 1)) < granules) {
        size_t end = next_bit(map, g, granules, 0);
        char *run = start + g * 16;
        size_t length = (end - g) * 16;
        if (run + length == h->bump && (!h->large_top || run >= h->large_top + STACKPLAY_HEADER)) {
            h->bump = run; // the top of the range: back to the bump
            gained = 1;
        } else if (length >= STACKPLAY_LARGE_FROM + 2 * STACKPLAY_HEADER) {
            stackplay_chunk *c = chunk_at(run);
            size_t size = length - STACKPLAY_HEADER;
            c->size = size | STACKPLAY_PREV_IN_USE;
            stackplay_chunk *mark = chunk_after(c);
            mark->prev_size = size;
            mark->size = 0 | STACKPLAY_IN_USE;
            bin_insert(h, c);
            gained = 1;
        } else {
            for (size_t at = 0; at < length;) {
                size_t piece = length - at > STACKPLAY_SMALL_LARGEST ? STACKPLAY_SMALL_LARGEST : length - at;
                size_t c = piece / 16;
                *(void **)(run + at) = h->free[c];
                h->free[c] = run + at;
                at += piece;
            }
        }
        g = end;
    }
    free(map);
    return gained;
}

// MARK: Invariant checks (arena_check.c)

int stackplay_large_check(const stackplay_heap *h, unsigned long long *map, char *why, size_t why_size) {
    char *start = stackplay_heap_start(h);
    if (h->large_top && (h->large_top < start || h->large_top + STACKPLAY_HEADER > h->bump)) {
        snprintf(why, why_size, "the top segment's end mark %p lies outside the heap [%p, %p)", (void *)h->large_top,
                 (void *)start, (void *)h->bump);
        return -1;
    }
    for (unsigned bin = 0; bin < STACKPLAY_LARGE_BINS; bin++) {
        int marked = (h->large_map[bin / 64] >> (bin % 64)) & 1;
        if (marked != (h->large[bin] != NULL)) {
            snprintf(why, why_size, "bin %u of large chunks is %s but its bit in the bins' map is %s", bin,
                     h->large[bin] ? "not empty" : "empty", marked ? "set" : "clear");
            return -1;
        }
        stackplay_chunk *prev = NULL;
        for (stackplay_chunk *c = (stackplay_chunk *)h->large[bin]; c; prev = c, c = c->next_free) {
            char *at = (char *)c;
            if (at < start || at + STACKPLAY_HEADER > h->bump || (size_t)(at - start) % 16) {
                snprintf(why, why_size, "bin %u holds %p, outside the heap [%p, %p) or not 16-byte aligned", bin,
                         (void *)at, (void *)start, (void *)h->bump);
                return -1;
            }
            size_t size = chunk_size(c);
            if ((c->size & STACKPLAY_IN_USE) || size < 64 || (size_t)(h->bump - at) < size + STACKPLAY_HEADER) {
                snprintf(why, why_size,
                         "bin %u holds the chunk %p of %zu bytes (flags %zu): in use, too small, or past the heap's end",
                         bin, (void *)at, size, c->size & 15);
                return -1;
            }
            if (bin_of(size) != bin || c->prev_free != prev) {
                snprintf(why, why_size,
                         "the free chunk %p of %zu bytes is in bin %u (its size's is %u), or its back link is wrong",
                         (void *)at, size, bin, bin_of(size));
                return -1;
            }
            stackplay_chunk *after = chunk_after(c);
            if (after->prev_size != size || (after->size & STACKPLAY_PREV_IN_USE) ||
                !(after->size & STACKPLAY_IN_USE) || !(c->size & STACKPLAY_PREV_IN_USE)) {
                snprintf(why, why_size,
                         "the free chunk %p of %zu bytes and its neighbours disagree (the next says %zu bytes before "
                         "it, flags %zu; free neighbours merge when freed)",
                         (void *)at, size, after->prev_size, after->size & 15);
                return -1;
            }
            if (map && !stackplay_map_claim(map, (size_t)(at - start) / 16, size / 16)) {
                snprintf(why, why_size,
                         "the free chunk %p of %zu bytes (bin %u) overlaps another free block, or is listed twice",
                         (void *)at, size, bin);
                return -1;
            }
        }
    }
    return 0;
}
