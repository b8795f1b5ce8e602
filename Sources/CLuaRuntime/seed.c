// A fixed string-hash seed for every state stackplay makes (seed.h).
//
// Lua 5.4 hashes strings with a per-state seed made by luai_makeseed, which Debian's build takes
// from time(NULL) and the addresses of the state, a local variable and lua_newstate (ASLR): the
// positions of string keys in a table's node part differ from run to run, and with them when a
// table grows, and so the border `#t` of a table with holes and the order stock `next` visits.
// luai_makeseed is a macro of Lua's own build, not a symbol a program can replace, and
// lua_newstate takes no seed. So, right after lua_newstate and before anything else runs, the
// seed is set in the global state (Lua 5.4's lstate.h layout, read here as sandbox_scan.c reads
// tables) and the few strings the state already made (reserved words, metamethod names, the
// memory error message; no table holds a string key yet) are rehashed with it and put back in
// the string table. Every step is checked first: the state's allocator and its data, the
// registry's tag and address, the string table's size, and each string's stored hash against
// this file's luaS_hash with the old seed; any mismatch (another Lua) changes nothing.
// A state restored from a snapshot (CLuaSnapshot's arena.c) copies the global state, seed and all.
#include "seed.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// MARK: Lua 5.4's layout (lstate.h, lobject.h), the parts read and written

typedef struct sd_tvalue {
    void *value;
    unsigned char tt;
} sd_tvalue;

typedef struct sd_string {
    struct sd_string *next; // the collector's list
    unsigned char tt, marked, extra, shrlen;
    unsigned int hash;
    union {
        size_t lnglen;
        struct sd_string *hnext; // a short string's next in its string-table bucket
    } u;
    char contents[1];
} sd_string;

typedef struct sd_stringtable {
    sd_string **hash;
    int nuse;
    int size;
} sd_stringtable;

typedef struct sd_global {
    lua_Alloc frealloc;
    void *ud;
    ptrdiff_t totalbytes;
    ptrdiff_t GCdebt;
    size_t GCestimate;
    size_t lastatomic;
    sd_stringtable strt;
    sd_tvalue l_registry;
    sd_tvalue nilvalue;
    unsigned int seed;
} sd_global;

typedef struct sd_state {
    void *next;
    unsigned char tt, marked, status, allowhook;
    unsigned short nci;
    void *top;
    sd_global *l_G;
} sd_state;

enum {
    SD_TAG_SHORT_STRING = 0x04, // LUA_VSHRSTR, as a GCObject's tt
    SD_TAG_TABLE_VALUE = 0x45,  // ctb(LUA_VTABLE), as a TValue's tt
    SD_MAX_SHORT = 40,          // LUAI_MAXSHORTLEN
};

/// lstring.c's luaS_hash.
static unsigned int sd_hash(const char *str, size_t l, unsigned int seed) {
    unsigned int h = seed ^ (unsigned int)l;
    for (; l > 0; l--) h ^= ((h << 5) + (h >> 2) + (unsigned char)str[l - 1]);
    return h;
}

/// The global state of `L` when its layout is the one above (checked against what the caller
/// knows: the allocator and its data, the registry), else NULL.
static sd_global *sd_global_of(lua_State *L, lua_Alloc alloc, void *ud) {
    sd_state *state = (sd_state *)L;
    if (state->tt != LUA_TTHREAD || !state->l_G) return NULL;
    sd_global *g = state->l_G;
    if (alloc && (g->frealloc != alloc || g->ud != ud)) return NULL;
    if (g->l_registry.tt != SD_TAG_TABLE_VALUE || g->l_registry.value != lua_topointer(L, LUA_REGISTRYINDEX))
        return NULL;
    int size = g->strt.size;
    if (size <= 0 || (size & (size - 1)) != 0 || g->strt.nuse < 0 || g->strt.nuse > 4 * size || !g->strt.hash)
        return NULL;
    return g;
}

unsigned int stackplay_hash_seed(lua_State *L) {
    lua_Alloc alloc = NULL;
    sd_global *g = sd_global_of(L, alloc, NULL);
    return g ? g->seed : 0;
}

int stackplay_fix_hash_seed(lua_State *L, lua_Alloc alloc, void *ud) {
    sd_global *g = sd_global_of(L, alloc, ud);
    if (!g) return 0;
    int size = g->strt.size, count = 0;
    // Every string in the table, each checked to be a short string hashed as above.
    for (int i = 0; i < size; i++) {
        for (sd_string *s = g->strt.hash[i]; s; s = s->u.hnext) {
            if (s->tt != SD_TAG_SHORT_STRING || s->shrlen > SD_MAX_SHORT) return 0;
            if (s->hash != sd_hash(s->contents, s->shrlen, g->seed)) return 0;
            if ((int)(s->hash & (unsigned int)(size - 1)) != i) return 0;
            if (++count > g->strt.nuse) return 0;
        }
    }
    if (count != g->strt.nuse) return 0;
    sd_string **all = (sd_string **)malloc(sizeof *all * (size_t)(count ? count : 1));
    if (!all) return 0;
    int n = 0;
    for (int i = 0; i < size; i++) {
        for (sd_string *s = g->strt.hash[i]; s; s = s->u.hnext) all[n++] = s;
        g->strt.hash[i] = NULL;
    }
    g->seed = STACKPLAY_HASH_SEED;
    // Put back in the order they were found in, each at the head of its new bucket (as
    // lstring.c's internshrstr does).
    for (int k = 0; k < n; k++) {
        sd_string *s = all[k];
        s->hash = sd_hash(s->contents, s->shrlen, g->seed);
        sd_string **bucket = &g->strt.hash[s->hash & (unsigned int)(size - 1)];
        s->u.hnext = *bucket;
        *bucket = s;
    }
    free(all);
    return 1;
}
