#ifndef CSYSTEMCALLS_H
#define CSYSTEMCALLS_H

#include <sys/types.h>

/// Lets the child `pid`, just forked and not run yet, run on every CPU this process may but the
/// one this thread is on, when there is another (cores.c): it starts at once there, instead of
/// waiting on this CPU until this thread sleeps. 1 when it was moved. Remembers this process's
/// CPUs for stackplay_run_anywhere, so call it from the parent right after fork().
int stackplay_start_elsewhere(pid_t pid);

/// In a child moved by stackplay_start_elsewhere: it may run on every CPU its parent may again.
void stackplay_run_anywhere(void);

struct pollfd;

/// poll(2) on `fds` for at most `timeout_ms` (-1: no limit) with SIGINT and SIGTERM unblocked
/// only while it waits, as ppoll(2) does atomically (wait.c): call it with both blocked, after
/// checking the flag their handler sets, and a signal that came meanwhile wakes it at once
/// (-1, EINTR) instead of being missed. The result and errno are poll's.
int stackplay_poll_unblocking_interrupts(struct pollfd *fds, unsigned long count, int timeout_ms);

/// Whether the environment switch `name` is on: set to anything but "" and "0" (process.c). Every
/// STACKPLAY_* switch reads this way (docs/design/speed-tricks.md); `STACKPLAY_X=0` is the same as
/// leaving it unset.
int stackplay_switch_on(const char *name);

/// The SIGINT or SIGTERM the run's handler recorded (0: none), kept in a `volatile sig_atomic_t`
/// so that a handler's store is seen whole by the code it interrupted (process.c).
int stackplay_interruption(void);
void stackplay_set_interruption(int signal);

/// The same for the writes that give up once a signal ended the run (`Syscall.signalled`).
int stackplay_signalled(void);
void stackplay_set_signalled(int signal);

/// This process's threads, from /proc/self/status's `Threads:` line; -1 when it cannot be read.
int stackplay_thread_count(void);

#endif
