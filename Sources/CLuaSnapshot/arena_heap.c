// The arena's allocator and the ledgers of the Swift objects its userdata retain (arena_private.h).
#include "arena_private.h"

// MARK: The arena's heap

void *stackplay_heap_take(stackplay_heap *h, size_t n) {
    size_t bytes;
    size_t c = stackplay_class_of(n, &bytes);
    if (c >= STACKPLAY_CLASSES) return NULL;
    void *block = h->free[c];
    if (block) {
        h->free[c] = *(void **)block;
        return block;
    }
    if ((size_t)(h->end - h->bump) < bytes) {
        // no room at the bump: a large chunk of the class's bytes (freed large chunks merge), else
        // the free small blocks of every class given back as large chunks (arena_large.c), then again
        block = stackplay_large_take(h, bytes < 64 ? 64 : bytes);
        if (block) return block;
        if (!stackplay_heap_give_back_small(h)) return NULL;
        return stackplay_heap_take(h, n);
    }
    block = h->bump;
    h->bump += bytes;
    return block;
}

void stackplay_heap_give(stackplay_heap *h, void *block, size_t n) {
    size_t bytes;
    size_t c = stackplay_class_of(n, &bytes);
    *(void **)block = h->free[c];
    h->free[c] = block;
}


// MARK: Ledgers: the retains taken since a snapshot


static size_t stackplay_ledger_hash(const void *object, size_t capacity) {
    uint64_t x = (uint64_t)(uintptr_t)object >> 4;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (capacity - 1);
}

stackplay_ledger_entry *stackplay_ledger_find(stackplay_ledger *l, const void *object) {
    if (!l->capacity) return NULL;
    for (size_t i = stackplay_ledger_hash(object, l->capacity);; i = (i + 1) & (l->capacity - 1)) {
        if (l->entries[i].object == object) return &l->entries[i];
        if (!l->entries[i].object) return NULL;
    }
}

/// Adds one retain of `object`; 0 when out of memory.
int stackplay_ledger_add(stackplay_ledger *l, void *object) {
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
void stackplay_ledger_release_all(stackplay_ledger *l, void (*release)(void *)) {
    for (size_t i = 0; i < l->capacity; i++) {
        for (long n = l->entries[i].count; n > 0; n--) release(l->entries[i].object);
    }
    free(l->entries);
    memset(l, 0, sizeof *l);
}
