#define _GNU_SOURCE
// The CPU-time watchdog of runtime.c's guard (declared in guard.h and include/CLuaRuntime.h). It
// arms budget.c's hook; what a stuck process does before it ends is a registered hook
// (stackplay_watchdog_on_stuck: LuaRuntime registers CProcess's restart), never a call upward.
#include "guard.h"

#include <errno.h>
#include <lauxlib.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// C library loops (`string.rep("", math.maxinteger)`, a backtracking `string.find`, an in-place
/// `table.move` over 2^63 slots) and long Swift calls run no Lua instruction, so the count hook
/// never sees their CPU time. A CPU-time timer of the running thread (timer_create on
/// CLOCK_THREAD_CPUTIME_ID, its signal sent to that thread) watches each outermost
/// stackplay_pcall: when the budget is spent it arms the hook on every instruction (lua_sethook
/// is safe in a signal handler: lua.c does it for SIGINT), so Lua code stops at its next
/// instruction with the ordinary message; if Lua does not come back within
/// STACKPLAY_GRACE_NS more of CPU time, C or Swift code is stuck, and the process ends with
/// "chunk:line: stopped: the script used its N s of CPU time (inside `string.rep`)": as an
/// answer frame on the worker's answer pipe (stackplay_watchdog_answer_to), else on stderr.
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif
#define STACKPLAY_WATCH_SIGNAL SIGXCPU
#define STACKPLAY_GRACE_NS 500000000L

typedef struct stackplay_watch {
    /// The fork generation (stackplay_forks + 1) the timer was made in, 0 before: timers do not
    /// survive fork. Compared instead of getpid(), a system call at every outermost call.
    unsigned generation;
    /// Whether this thread blocks the signal (1) or hears it (2), for ``generation``; 0: not
    /// looked at yet. A thread's mask is looked at once (a pthread_sigmask call at every
    /// outermost call was a measured share of explore's steps): the threads that run Lua set
    /// their masks when they start (libdispatch's workers) and keep them.
    unsigned char blocks;
    timer_t timer;                    // this thread's CPU-time timer
    stackplay_guard *volatile g;      // the guard of the chunk being watched; NULL: none
    volatile sig_atomic_t stage;      // 0: the budget runs; 1: the hook is armed, the grace runs
    /// The thread CPU time at which the timer goes off, while it holds a budget (0: it holds
    /// none: never armed, gone off, or holding the grace). A chunk's end leaves it armed (two
    /// timer_settime calls a chunk were most of a short call's cost); the next chunk keeps it when
    /// it goes off no later than that chunk's own deadline, and the handler re-arms it for what
    /// is left when it goes off early. It only goes off while this thread runs.
    volatile double armed_until;
} stackplay_watch;

static __thread stackplay_watch stackplay_watching;
/// How many times this process is a fork's child of one that watched or read its CPU time
/// (pthread_atfork).
static volatile unsigned stackplay_forks;
static void stackplay_forked(void) { stackplay_forks++; }
static int stackplay_fork_hooked;
static void stackplay_hook_forks(void) {
    stackplay_fork_hooked = pthread_atfork(NULL, NULL, stackplay_forked) == 0;
}
/// Whether forks are counted from now on (stackplay_watch_begin's timers and
/// stackplay_thread_cpu_bound's readings belong to one process).
static int stackplay_counts_forks(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, stackplay_hook_forks);
    return stackplay_fork_hooked;
}
static int stackplay_answer_fd = -1;  // the worker's answer pipe, or -1: say it on stderr
static int stackplay_stuck_status = 1;
static void (*volatile stackplay_on_stuck)(void); // called before ending with no answer pipe; may be NULL

/// The standard library's C functions and their names ("string.rep"), gathered once when the
/// first state opens its libraries: what a stuck function is called in the stop message.
#define STACKPLAY_NAMED_MAX 256
static struct { lua_CFunction f; char name[40]; } stackplay_named[STACKPLAY_NAMED_MAX];
static int stackplay_named_count = -1;

void stackplay_name_functions(lua_State *L) {
    if (stackplay_named_count >= 0) return;
    stackplay_named_count = 0;
    static const char *const libs[] = {"string", "table", "math", "utf8", "coroutine", "os", NULL};
    for (int i = -1; i < 0 || libs[i]; i++) {
        if (i < 0) lua_pushglobaltable(L); else lua_getglobal(L, libs[i]);
        if (lua_type(L, -1) == LUA_TTABLE) {
            lua_pushnil(L);
            while (lua_next(L, -2)) {
                lua_CFunction f = lua_tocfunction(L, -1);
                if (f && lua_type(L, -2) == LUA_TSTRING && stackplay_named_count < STACKPLAY_NAMED_MAX) {
                    snprintf(stackplay_named[stackplay_named_count].name, sizeof stackplay_named[0].name,
                             "%s%s%s", i < 0 ? "" : libs[i], i < 0 ? "" : ".", lua_tostring(L, -2));
                    stackplay_named[stackplay_named_count++].f = f;
                }
                lua_settop(L, -2);
            }
        }
        lua_settop(L, -2);
    }
}

/// The name of the function running at the top of `L`'s stack: a library function's full name,
/// else the name its caller used ("audit"), else "a C function". Runs in the signal handler on
/// the stuck thread, which never resumes: pushing one value above the C function's top is safe.
static void stackplay_running_name(lua_State *L, char *out, size_t size) {
    lua_Debug ar;
    snprintf(out, size, "a C function");
    if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "nf", &ar)) return;
    lua_CFunction f = lua_tocfunction(L, -1);
    lua_settop(L, -2);
    for (int i = 0; f && i < stackplay_named_count; i++) {
        if (stackplay_named[i].f == f) { snprintf(out, size, "%s", stackplay_named[i].name); return; }
    }
    if (ar.name) snprintf(out, size, "%s", ar.name);
}

static void stackplay_write_all(int fd, const char *data, size_t size) {
    while (size > 0) {
        ssize_t put = write(fd, data, size);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return;
        data += put;
        size -= (size_t)put;
    }
}

/// What the test running in `g` has printed, as the Swift side keeps it (stackplay_note_output,
/// after every change): a stop inside C sends it with its message, so that the output printed
/// before the stop reaches the reports. One for the process: a worker runs one test at a time,
/// and a note of another state is not sent (its guard differs).
static struct {
    stackplay_guard *volatile g;
    const char *volatile bytes;
    volatile size_t length;
    volatile size_t dropped;
} stackplay_printed;

void stackplay_note_output(lua_State *L, const char *bytes, size_t length, size_t dropped) {
    stackplay_guard *g = stackplay_guard_of(L);
    stackplay_printed.g = NULL; // a signal between these stores sees no note, never half of one
    stackplay_printed.bytes = bytes;
    stackplay_printed.length = length;
    stackplay_printed.dropped = dropped;
    stackplay_printed.g = g;
}

void stackplay_forget_output(stackplay_guard *g) {
    if (stackplay_printed.g == g) stackplay_printed.g = NULL;
}

/// The end of a process whose Lua thread is stuck in C or Swift past its budget and grace.
static void stackplay_stuck(stackplay_guard *g) {
    lua_State *L = g->main;
    // A coroutine's C function shows in the main thread as `coroutine.resume` (the coroutine is
    // its first argument) or a function `coroutine.wrap` made (its first upvalue): look inside.
    lua_Debug ar;
    for (int hops = 0; hops < 200 && lua_getstack(L, 0, &ar) && lua_getinfo(L, "f", &ar); hops++) {
        lua_State *inner = NULL;
        if (lua_iscfunction(L, -1)) {
            inner = lua_tothread(L, 1);
            if (!inner && lua_getupvalue(L, -1, 1)) {
                inner = lua_tothread(L, -1);
                lua_settop(L, -2);
            }
        }
        lua_settop(L, -2);
        if (!inner || inner == L || lua_status(inner) != LUA_OK) break;
        L = inner;
    }
    char inside[64], where[400], message[600];
    stackplay_running_name(L, inside, sizeof inside);
    stackplay_where(L, where, sizeof where);
    if (!where[0] && L != g->main) stackplay_where(g->main, where, sizeof where);
    int n = snprintf(message, sizeof message, "%s%s (inside `%s`)", where, g->cpu_text, inside);
    if (n < 0) n = 0;
    if (n >= (int)sizeof message) n = (int)sizeof message - 1;
    if (stackplay_answer_fd >= 0) {
        // WorkerPool's frame: 8 bytes of little-endian length, bit 62 set for "stopped", then the
        // text, a NUL, the count of output bytes not kept in decimal, a NUL, and the output kept.
        const char *printed = NULL;
        size_t printed_length = 0, dropped = 0;
        if (stackplay_printed.g == g) {
            printed = stackplay_printed.bytes;
            printed_length = stackplay_printed.length;
            dropped = stackplay_printed.dropped;
        }
        char digits[24];
        int d = (int)sizeof digits;
        do { digits[--d] = (char)('0' + dropped % 10); dropped /= 10; } while (dropped && d > 0);
        size_t total = (size_t)n + 1 + (sizeof digits - (size_t)d) + 1 + printed_length;
        unsigned long long length = (unsigned long long)total | (1ull << 62);
        unsigned char head[8];
        for (int i = 0; i < 8; i++) head[i] = (unsigned char)(length >> (8 * i));
        stackplay_write_all(stackplay_answer_fd, (const char *)head, 8);
        stackplay_write_all(stackplay_answer_fd, message, (size_t)n);
        stackplay_write_all(stackplay_answer_fd, "", 1);
        stackplay_write_all(stackplay_answer_fd, digits + d, sizeof digits - (size_t)d);
        stackplay_write_all(stackplay_answer_fd, "", 1);
        if (printed_length) stackplay_write_all(stackplay_answer_fd, printed, printed_length);
        _exit(0);
    }
    // A lone file loading in the runner's own process: the run starts over with it in a worker,
    // which says this stop as above (the hook is CProcess's restart). Returns when it cannot.
    void (*on_stuck)(void) = stackplay_on_stuck;
    if (on_stuck) on_stuck();
    stackplay_write_all(2, "stackplay: ", 11);
    stackplay_write_all(2, message, (size_t)n);
    stackplay_write_all(2, "\n", 1);
    _exit(stackplay_stuck_status);
}


static void stackplay_watch_signal(int signal, siginfo_t *info, void *context) {
    (void)signal; (void)context;
    stackplay_watch *w = &stackplay_watching;
    stackplay_guard *g = w->g;
    if (info->si_code != SI_TIMER) return;
    w->armed_until = 0;
    if (!g) return; // left armed by a chunk that ended: nothing to watch
    int saved = errno;
    if (w->stage == 0) {
        // armed by an earlier chunk, whose deadline came before this one's: on for the rest
        double left = g->cpu_deadline - stackplay_thread_cpu_seconds();
        if (left > 1e-6) {
            struct itimerspec rest = {{0, 0}, {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)}};
            w->armed_until = g->cpu_deadline;
            timer_settime(w->timer, 0, &rest, NULL);
            errno = saved;
            return;
        }
        w->stage = 1;
        lua_sethook(g->main, stackplay_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
        struct itimerspec grace = {{0, 0}, {0, STACKPLAY_GRACE_NS}};
        timer_settime(w->timer, 0, &grace, NULL);
        errno = saved;
        return;
    }
    stackplay_stuck(g);
}

/// The last reading of this thread's CPU time and of the monotonic clock with it (ns; 0: none
/// yet), and the fork generation it was taken in (a fork's child starts its CPU time again).
static __thread struct { long long cpu, wall; unsigned generation; } stackplay_cpu_reading;

static long long stackplay_clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/// A bound this thread's CPU time is at or below now, in seconds, off by at most `slack` seconds
/// (and 1 ms). Reading the thread's CPU clock is a system call (no vDSO has it): at every outermost
/// call it was 9% of explore's steps. The monotonic clock is read in user space, and a thread's CPU
/// time grows no faster than it: the last CPU reading plus the wall time since bounds it. The CPU
/// clock is read again once that wall time passes the slack, so a deadline set from the bound is
/// late by no more than the slack: a budget is never cut, only held up to a slack longer.
double stackplay_thread_cpu_bound(double slack) {
    int counted = stackplay_counts_forks();
    long long limit = slack < 1e-3 ? (long long)(slack * 1e9) : 1000000ll;
    long long wall = stackplay_clock_ns(CLOCK_MONOTONIC);
    unsigned generation = stackplay_forks + 1;
    if (!counted || stackplay_cpu_reading.wall == 0 || stackplay_cpu_reading.generation != generation ||
        wall - stackplay_cpu_reading.wall > limit || wall < stackplay_cpu_reading.wall) {
        stackplay_cpu_reading.cpu = stackplay_clock_ns(CLOCK_THREAD_CPUTIME_ID);
        stackplay_cpu_reading.wall = wall;
        stackplay_cpu_reading.generation = generation;
    }
    return (double)(stackplay_cpu_reading.cpu + (wall - stackplay_cpu_reading.wall)) / 1e9;
}

/// Starts watching `g` for `seconds` of this thread's CPU time (unless a chunk of this thread
/// is watched already: the outer one's budget holds).
void stackplay_watch_begin(stackplay_guard *g, double seconds) {
    stackplay_watch *w = &stackplay_watching;
    if (w->g || !(seconds > 0)) return;
    // A thread that blocks the signal (libdispatch's workers block most signals) would never hear
    // the timer: it is not watched, and the count hook checks its budget instead.
    unsigned generation = stackplay_forks + 1;
    if (w->generation != generation || !w->blocks) {
        sigset_t blocked;
        w->blocks = pthread_sigmask(SIG_BLOCK, NULL, &blocked) != 0
                || sigismember(&blocked, STACKPLAY_WATCH_SIGNAL) ? 1 : 2;
    }
    if (w->blocks == 1) return;
    if (w->generation != generation) {
        static int installed;
        if (!installed) {
            // A fork's child has no timers: its next watch makes one (the generation moved on).
            if (!stackplay_counts_forks()) return;
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_sigaction = stackplay_watch_signal;
            action.sa_flags = SA_SIGINFO | SA_RESTART;
            sigemptyset(&action.sa_mask);
            if (sigaction(STACKPLAY_WATCH_SIGNAL, &action, NULL) != 0) return;
            installed = 1;
        }
        struct sigevent event;
        memset(&event, 0, sizeof event);
        event.sigev_notify = SIGEV_THREAD_ID;
        event.sigev_signo = STACKPLAY_WATCH_SIGNAL;
        event.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
        if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &w->timer) != 0) return;
        w->generation = generation;
        w->armed_until = 0;
    }
    // The caller set the deadline to now + seconds. Watching first, so that a timer going off
    // from here on finds the chunk and its deadline; then a timer still armed from an earlier
    // chunk is kept when it goes off no later than this deadline (the handler re-arms it then).
    double deadline = g->cpu_deadline;
    double now = deadline - seconds;
    w->stage = 0;
    w->g = g;
    if (deadline > 0 && w->armed_until > now && w->armed_until <= deadline) return;
    // A budget past a year of CPU time is no budget the timer needs to hold.
    if (seconds > 3e7) seconds = 3e7;
    struct itimerspec spec = {{0, 0}, {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)}};
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;
    w->armed_until = deadline > 0 ? deadline : 0;
    timer_settime(w->timer, 0, &spec, NULL);
}

/// Whether the watchdog is watching `g` now: then no count hook is needed while it runs (the
/// timer arms the hook when the budget is spent), and plain Lua runs at stock speed. Lua 5.4
/// traps every instruction while any hook is set, which cost 15-20% whatever the count.
int stackplay_watched(stackplay_guard *g) { return stackplay_watching.g == g; }

/// Stops watching `g` (the outermost stackplay_pcall of its chunk returned).
void stackplay_watch_end(stackplay_guard *g) {
    stackplay_watch *w = &stackplay_watching;
    if (w->g != g) return;
    w->g = NULL;
    if (w->stage == 0 && w->armed_until > 0) return; // left armed for the next chunk
    struct itimerspec off = {{0, 0}, {0, 0}};
    w->armed_until = 0;
    timer_settime(w->timer, 0, &off, NULL);
}

void stackplay_watchdog_answer_to(int fd) { stackplay_answer_fd = fd; }
void stackplay_watchdog_exit_status(int status) { stackplay_stuck_status = status; }
void stackplay_watchdog_on_stuck(void (*hook)(void)) { stackplay_on_stuck = hook; }

void stackplay_watchdog_interrupt(void) {
    stackplay_guard *g = stackplay_watching.g;
    if (!g) return;
    // as if its CPU budget were spent: the hook stops Lua at its next instruction
    g->cpu_deadline = 1e-9;
    lua_sethook(g->main, stackplay_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
}
