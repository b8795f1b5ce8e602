#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

#include "CSystemCalls.h"

int stackplay_poll_unblocking_interrupts(struct pollfd *fds, unsigned long count, int timeout_ms) {
    sigset_t mask;
    // The mask while waiting: the thread's own, less SIGINT and SIGTERM.
    sigprocmask(SIG_SETMASK, NULL, &mask);
    sigdelset(&mask, SIGINT);
    sigdelset(&mask, SIGTERM);
    struct timespec limit;
    struct timespec *limit_or_none = NULL;
    if (timeout_ms >= 0) {
        limit.tv_sec = timeout_ms / 1000;
        limit.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        limit_or_none = &limit;
    }
    return ppoll(fds, (nfds_t)count, limit_or_none, &mask);
}
