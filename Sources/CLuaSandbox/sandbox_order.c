// The documented key order of `next` and `pairs` (sandbox_private.h): numbers ascending (integers
// and floats together), then strings in byte order, then false, true, then every other key by its
// object number. A radix sort on each key's first 8 bytes or its value, exact comparisons where
// those tie.
#include "sandbox_private.h"

#include <lauxlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static lua_Integer sb_int(const sb_key *k) { return (lua_Integer)k->a; }
static lua_Number sb_float(const sb_key *k) {
    lua_Number f;
    memcpy(&f, &k->a, sizeof f);
    return f;
}

/// The sign of i - f, exactly (f is never NaN: NaN is no key).
static int sb_int_float(lua_Integer i, lua_Number f) {
    lua_Number d = (lua_Number)i;
    if (d < f) return -1;
    if (d > f) return 1;
    // d == f: f is a whole number; 2^63 is past every integer, anything else converts exactly.
    if (f >= 9223372036854775808.0) return -1;
    lua_Integer j = (lua_Integer)f;
    return (i > j) - (i < j);
}

int sb_compare(const sb_key *x, const sb_key *y) {
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    switch (x->rank) {
    case 1:
        if (!x->len && !y->len) return (sb_int(x) > sb_int(y)) - (sb_int(x) < sb_int(y));
        if (x->len && y->len) return (sb_float(x) > sb_float(y)) - (sb_float(x) < sb_float(y));
        if (!x->len) return sb_int_float(sb_int(x), sb_float(y));
        return -sb_int_float(sb_int(y), sb_float(x));
    case 2: {
        if (x->a != y->a) return x->a < y->a ? -1 : 1;
        size_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->s, y->s, n);
        if (c != 0) return c < 0 ? -1 : 1;
        return (x->len > y->len) - (x->len < y->len);
    }
    default: return (x->a > y->a) - (x->a < y->a);
    }
}

static int sb_compare_entries(const void *x, const void *y) {
    return sb_compare((const sb_key *)x, (const sb_key *)y);
}

/// LSD radix sort of `e[0..n)` by `a ^ flip`, using `tmp` (n entries); stable, so equal keys keep
/// their order. Only the bits that differ between keys are sorted on, `bits` (8 or 11: 2,048 buckets
/// keep the scattered writes in cache; 16 takes fewer passes but misses more) at a time.
static void sb_radix(sb_key *e, sb_key *tmp, size_t n, uint64_t flip, int bits) {
    uint64_t first = e[0].a, differ = 0;
    for (size_t i = 1; i < n; i++) differ |= e[i].a ^ first;
    if (differ == 0) return;
    int low = __builtin_ctzll(differ), high = 64 - __builtin_clzll(differ);
    size_t digits = (size_t)((high - low + bits - 1) / bits);
    size_t buckets = (size_t)1 << bits;
    uint64_t mask = buckets - 1;
    uint32_t *counts = (uint32_t *)calloc(digits * buckets, sizeof(uint32_t));
    if (!counts) { qsort(e, n, sizeof(sb_key), sb_compare_entries); return; }
    for (size_t i = 0; i < n; i++) {
        uint64_t a = (e[i].a ^ flip) >> low;
        for (size_t d = 0; d < digits; d++) counts[d * buckets + ((a >> (bits * d)) & mask)]++;
    }
    sb_key *from = e, *to = tmp;
    for (size_t d = 0; d < digits; d++) {
        uint32_t *count = counts + d * buckets;
        int shift = low + bits * (int)d;
        if (count[((from[0].a ^ flip) >> shift) & mask] == n) continue; // every key has this digit
        uint32_t sum = 0;
        for (size_t v = 0; v < buckets; v++) {
            uint32_t c = count[v];
            count[v] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) to[count[((from[i].a ^ flip) >> shift) & mask]++] = from[i];
        sb_key *swap = from;
        from = to;
        to = swap;
    }
    free(counts);
    if (from != e) memcpy(e, from, n * sizeof(sb_key));
}

/// Sorts `e[0..n)` into the documented order (sb_compare), using `tmp` (n entries): grouped by
/// rank, then integers, strings (by their first 8 bytes) and objects (by number) by radix sort,
/// strings that share their first 8 bytes, floats and booleans by qsort.
void sb_sort_entries(sb_key *e, sb_key *tmp, size_t n) {
    size_t start[6] = {0};
    for (size_t i = 0; i < n; i++) start[e[i].rank + 1]++;
    for (int r = 1; r <= 5; r++) start[r] += start[r - 1];
    if (n > 0 && start[e[0].rank + 1] - start[e[0].rank] != n) { // more than one rank: group them
        size_t place[5];
        memcpy(place, start, sizeof place);
        for (size_t i = 0; i < n; i++) tmp[place[e[i].rank]++] = e[i];
        memcpy(e, tmp, n * sizeof(sb_key));
    }
    for (int rank = 1; rank <= 4; rank++) {
        sb_key *part = e + start[rank];
        size_t m = start[rank + 1] - start[rank];
        if (m < 2) continue;
        int floats = 0;
        for (size_t i = 0; rank == 1 && i < m && !floats; i++) floats = part[i].len != 0;
        if (rank == 3 || floats || m < 64) {
            qsort(part, m, sizeof(sb_key), sb_compare_entries);
            continue;
        }
        sb_radix(part, tmp, m, rank == 1 ? 0x8000000000000000ull : 0, m >= 1024 ? 11 : 8);
        if (rank != 2) continue;
        for (size_t i = 0; i < m;) {
            size_t j = i + 1;
            while (j < m && part[j].a == part[i].a) j++;
            if (j - i > 1) qsort(part + i, j - i, sizeof(sb_key), sb_compare_entries);
            i = j;
        }
    }
}
