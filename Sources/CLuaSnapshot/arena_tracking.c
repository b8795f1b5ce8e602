// Write tracking of an arena's newest snapshot (arena_private.h): the SIGSEGV handler, the
// userfaultfd with PAGEMAP_SCAN, the lazy copy, and restoring only the pages a test wrote.
#include "arena_private.h"

volatile unsigned stackplay_arena_forks;
#ifndef STACKPLAY_ARENA_OFF
static void stackplay_arena_forked(void) { stackplay_arena_forks++; }
static void stackplay_arena_hook_forks(void) { pthread_atfork(NULL, NULL, stackplay_arena_forked); }
void stackplay_arena_count_forks(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, stackplay_arena_hook_forks);
}
#endif

/// Arenas whose writes may be tracked through SIGSEGV, for the handler: a fixed list, since the
/// handler may not allocate. An arena that finds no place (a process with more arenas open, such
/// as a cache of 48 states) is never write-protected: its snapshots are whole copies and its
/// restores copy them whole, correct and slower, instead of faulting into a handler that does not
/// know it.
#define STACKPLAY_TRACKED_MAX 32
static stackplay_arena *volatile stackplay_tracked_arenas[STACKPLAY_TRACKED_MAX];
static struct sigaction stackplay_previous_segv;

/// Lists `a` for the SIGSEGV handler, in the first free one of its STACKPLAY_TRACKED_MAX places:
/// 1, or 0 when every place is taken (then `a->listed` stays 0 and nothing of `a` is protected).
int stackplay_tracking_add(stackplay_arena *a) {
    assert(!a->listed);
    for (int i = 0; i < STACKPLAY_TRACKED_MAX; i++) {
        stackplay_arena *expected = NULL;
        if (__atomic_compare_exchange_n(&stackplay_tracked_arenas[i], &expected, a, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            a->listed = 1;
            return 1;
        }
    }
    return 0;
}

/// Takes `arena` off the SIGSEGV handler's list.
void stackplay_tracking_remove(stackplay_arena *arena) {
    for (int i = 0; i < STACKPLAY_TRACKED_MAX; i++) {
        stackplay_arena *expected = arena;
        __atomic_compare_exchange_n(&stackplay_tracked_arenas[i], &expected, NULL, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
    }
}

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
    if (a->uffd >= 0 && a->uffd_generation == stackplay_arena_forks + 1) return 1;
    if (a->uffd >= 0) { // made before a fork: this process has none
        close(a->uffd);
        close(a->pagemap);
        a->uffd = -1;
        a->uffd_tried = 0;
    }
    if (a->uffd_tried) return 0;
    a->uffd_tried = 1;
    if (stackplay_switch_on("STACKPLAY_NO_USERFAULTFD")) return 0;
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
    a->uffd_generation = stackplay_arena_forks + 1;
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
int stackplay_uffd_restore(stackplay_arena *a, const stackplay_snapshot *s) {
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
int stackplay_uffd_restore(stackplay_arena *a, const stackplay_snapshot *s) { (void)a; (void)s; return 0; }
#endif

/// Ends the lazy copy of `a`'s newest snapshot, if it has one: with `complete`, first copies into it
/// the pages not saved yet (read-only until now, so equal to the snapshot), so that it is whole;
/// then every page is writable again.
void stackplay_lazy_end(stackplay_arena *a, int complete) {
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
void stackplay_snapshot_free(stackplay_snapshot *s) {
    if (s->mapped) {
        munmap(s->copy, s->mapped);
    } else {
        free(s->copy);
    }
    free(s->guard);
    memset(s, 0, sizeof *s);
}

/// Stops tracking `a`'s writes: every page writable again, none recorded (a lazy copy is made whole).
void stackplay_untrack(stackplay_arena *a) {
    stackplay_lazy_end(a, 1);
    if (!a->tracked) return;
    size_t tracked = a->tracked;
    a->tracked = 0;
    if (a->uffd >= 0 && a->uffd_generation == stackplay_arena_forks + 1) {
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
size_t stackplay_track_bytes(stackplay_arena *a) {
    return stackplay_uffd_ready(a) ? STACKPLAY_TRACK_BYTES_UFFD : STACKPLAY_TRACK_BYTES;
}

/// Write-protects the first `size` bytes of `a` (rounded up to pages) and records writes to them
/// from now on; returns 0 (nothing changes) when it cannot.
int stackplay_track(stackplay_arena *a, size_t size) {
    size_t bytes = (size + a->block - 1) / a->block * a->block;
    if (stackplay_uffd_ready(a)) {
        if (!stackplay_uffd_protect(a, a->base, bytes, 1)) return 0;
        a->tracked = bytes;
        return 1;
    }
    if (!a->listed || !a->written || !stackplay_segv_install()) return 0;
    if (mprotect(a->base, bytes, PROT_READ) != 0) return 0;
    a->tracked = bytes;
    return 1;
}


/// Makes `s`, the snapshot about to be taken of `used` bytes, a lazy copy when it pays and can be
/// (a userfaultfd tracks the writes; `STACKPLAY_EAGER_SNAPSHOTS` set: never). 0: `s` needs a whole
/// copy. Pages are saved a block (64 KiB) at a time: measured on a 10,000-test file (6 MiB
/// snapshot, `stackplay-bench --table`), 4 KiB pages saved 0.3 MiB and cost 6 µs a test (the
/// faults, and the mapping cut in hundreds of pieces), 64 KiB blocks 1.3 MiB and 2 µs.
int stackplay_snapshot_lazily(stackplay_arena *a, stackplay_snapshot *s, size_t used) {
    if (!a->listed || used < STACKPLAY_TRACK_BYTES_UFFD || !stackplay_uffd_ready(a) ||
        stackplay_switch_on("STACKPLAY_EAGER_SNAPSHOTS")) {
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
