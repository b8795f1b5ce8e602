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

#endif
