#define _GNU_SOURCE
// Where a forked worker starts (declared in include/CSystemCalls.h). Linux queues a new child on
// its parent's CPU; another CPU that sleeps takes it only at its next balancing, and a parent
// that goes on working (sending the worker its jobs, forking the next) keeps it waiting: on the
// 2-core machine the first worker started 0.4 ms after its fork (issue 21's --jobs row). Moved
// to the other CPUs, it starts there at once; once it runs it may run anywhere again.
#include "CSystemCalls.h"

#include <sched.h>

/// The CPUs the parent may run on, as it was when it last moved a child (the child's copy of this
/// process's memory holds them too).
static cpu_set_t stackplay_cores;
static int stackplay_cores_known;

int stackplay_start_elsewhere(pid_t pid) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    int cpu = sched_getcpu();
    if (cpu < 0 || CPU_COUNT(&set) < 2 || !CPU_ISSET(cpu, &set)) return 0;
    stackplay_cores = set;
    stackplay_cores_known = 1;
    CPU_CLR(cpu, &set);
    return sched_setaffinity(pid, sizeof set, &set) == 0;
}

void stackplay_run_anywhere(void) {
    if (stackplay_cores_known) (void)sched_setaffinity(0, sizeof stackplay_cores, &stackplay_cores);
}
