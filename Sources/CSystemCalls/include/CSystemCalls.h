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

#endif
