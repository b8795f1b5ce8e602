#define _GNU_SOURCE
// Starting over in a worker (declared in include/restart.h). The runner loads a lone whole
// script in its own process, without forking a worker (issue 21's start-up); a worker's
// guarantees hold all the same, because the process starts over when they would be needed: if
// the script gets stuck in C or Swift code past its CPU budget (CLuaRuntime's watchdog.c calls
// its "on stuck" hook, which LuaRuntime sets to stackplay_restart_now), or the process
// crashes, it execs itself again with the same arguments and STACKPLAY_LOAD_IN_WORKER=1 in its
// environment, and that run loads the file in a worker, which reports the stop or the crash as
// it always has. Nothing has been written by then: the run's output comes after the loading.
#include "restart.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/// What the process execs, set while a lone file loads in it (NULL: it ends as it would).
static const char *stackplay_restart_path;
static char *const *volatile stackplay_restart_argv;
static char *const *stackplay_restart_envp;

/// The signals a crash raises: a bad access, a Swift trap (ud2: SIGILL; brk/int3: SIGTRAP), an
/// arithmetic fault, abort().
static const int stackplay_crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define STACKPLAY_CRASH_SIGNALS (int)(sizeof stackplay_crash_signals / sizeof stackplay_crash_signals[0])
static struct sigaction stackplay_crash_previous[STACKPLAY_CRASH_SIGNALS];
static int stackplay_crash_installed;

void stackplay_restart_now(void) {
    char *const *argv = stackplay_restart_argv;
    if (!argv) return;
    stackplay_restart_argv = NULL;
    // The new program starts with this thread's mask, and runs inside no handler: the watchdog's
    // signal and the crash's must be heard there.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(stackplay_restart_path, argv, stackplay_restart_envp);
    // no exec (no /proc): the process ends as it would have
}

static void stackplay_crashed(int signal, siginfo_t *info, void *context) {
    // A crash is the kernel's signal (a fault, a trap) or abort(): one sent by kill(1) is not,
    // and does what it would.
    if (info && (info->si_code > 0 || (signal == SIGABRT && info->si_pid == getpid()))) stackplay_restart_now();
    // Not loading a lone file, or no exec: what was there before handles it (the default action
    // once the faulting instruction runs again, or abort's own second raise).
    for (int i = 0; i < STACKPLAY_CRASH_SIGNALS; i++) {
        if (stackplay_crash_signals[i] != signal) continue;
        struct sigaction *previous = &stackplay_crash_previous[i];
        sigaction(signal, previous, NULL);
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction) {
            previous->sa_sigaction(signal, info, context);
        } else if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL &&
                   previous->sa_handler != SIG_IGN) {
            previous->sa_handler(signal);
        } else if (!info || info->si_code <= 0) {
            raise(signal); // sent, not raised by an instruction that would run again: its own action
        }
        return;
    }
}

void stackplay_restart_arm(const char *path, char *const *argv, char *const *envp) {
    stackplay_restart_path = path;
    stackplay_restart_envp = envp;
    stackplay_restart_argv = argv;
    if (stackplay_crash_installed) return;
    stackplay_crash_installed = 1;
    // A stack overflow's SIGSEGV needs a stack of its own to be handled on.
    static char alternate[64 * 1024];
    stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE)) sigaltstack(&stack, NULL);
    struct sigaction mine;
    memset(&mine, 0, sizeof mine);
    mine.sa_sigaction = stackplay_crashed;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&mine.sa_mask);
    for (int i = 0; i < STACKPLAY_CRASH_SIGNALS; i++) {
        struct sigaction *previous = &stackplay_crash_previous[i];
        if (sigaction(stackplay_crash_signals[i], NULL, previous) != 0) continue;
        // A SIGSEGV handler already there stays: it may be the arena's, whose faults are no crash
        // (one installed later, as the arena's is, calls this one for the faults not its own). In
        // a Swift program it is usually the Swift runtime's backtracer, installed before main:
        // then a SIGSEGV while the lone file loads is not restarted but ends the process as the
        // runtime reports it (docs/design/signals.md, step 3).
        int handled = (previous->sa_flags & SA_SIGINFO) ? previous->sa_sigaction != NULL
                                                         : previous->sa_handler != SIG_DFL;
        if (stackplay_crash_signals[i] == SIGSEGV && handled) continue;
        sigaction(stackplay_crash_signals[i], &mine, NULL);
    }
}

void stackplay_restart_disarm(void) { stackplay_restart_argv = NULL; }
