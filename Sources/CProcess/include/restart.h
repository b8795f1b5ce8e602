// Starting the process over (restart.c): what the runner arms while it loads a lone file in its
// own process. No Lua here: CLuaRuntime's watchdog reaches it only through the "on stuck" hook
// that LuaRuntime (Swift) registers with it (stackplay_watchdog_on_stuck), so the arrow points
// from the layer that wires them, never from one C target into the other.
#ifndef STACKPLAY_RESTART_H
#define STACKPLAY_RESTART_H

/// Until stackplay_restart_disarm: if the process crashes (the kernel's SIGSEGV, SIGBUS, SIGILL,
/// SIGTRAP or SIGFPE, or abort()), or calls stackplay_restart_now (the watchdog's "on stuck" hook:
/// a script stuck in C or Swift code past its CPU budget with no answer pipe), it execs `path` (the
/// runner: /proc/self/exe) with `argv` and `envp` instead of ending. All three stay readable until
/// then.
void stackplay_restart_arm(const char *path, char *const *argv, char *const *envp);

/// The process ends as it would again when stuck or crashed.
void stackplay_restart_disarm(void);

/// Execs the armed restart now (async-signal-safe); returns when none is armed or exec failed.
void stackplay_restart_now(void);

#endif
