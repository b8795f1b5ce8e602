// Where `make bench` runs (declared in include/CBenchBaseline.h): its in-process measures on one
// CPU, and the parallel reference of its --jobs row. The 2-core machine's two CPUs do not run at
// one speed: pinned to each in turn, one run of 1,000 tests took 37-40 ms on one and 55-60 ms on
// the other for minutes, then the other way round. A measure and its baseline taken on different
// CPUs then differ by the CPUs, not by the code.
#define _GNU_SOURCE
#include "CBenchBaseline.h"
#include "CSystemCalls.h"

#include <errno.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

/// The CPUs this thread could run on before stackplay_bench_pin.
static cpu_set_t stackplay_bench_cores;
static int stackplay_bench_cores_saved;
/// Whether this thread is pinned now.
static int stackplay_bench_pinned;

int stackplay_bench_pin(void) {
    int cpu = sched_getcpu();
    if (cpu < 0) return -1;
    if (!stackplay_bench_cores_saved) {
        if (sched_getaffinity(0, sizeof stackplay_bench_cores, &stackplay_bench_cores) != 0) return -1;
        stackplay_bench_cores_saved = 1;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return -1;
    stackplay_bench_pinned = 1;
    return cpu;
}

int stackplay_bench_unpin(void) {
    if (!stackplay_bench_pinned) return 0;
    stackplay_bench_pinned = 0;
    (void)sched_setaffinity(0, sizeof stackplay_bench_cores, &stackplay_bench_cores);
    return 1;
}

int stackplay_bench_parallel_states(long rounds, int processes) {
    if (processes < 1 || rounds < 0) return -1;
    cpu_set_t every;
    int known = sched_getaffinity(0, sizeof every, &every) == 0;
    pid_t children[64];
    int made = 0;
    int failed = 0;
    for (; made < processes && made < 64; made++) {
        pid_t pid = fork();
        if (pid < 0) {
            failed = 1;
            break;
        }
        if (pid == 0) {
            // free to run anywhere once it runs (the first was started on another CPU, below)
            if (known) (void)sched_setaffinity(0, sizeof every, &every);
            long share = rounds / processes + (made < rounds % processes ? 1 : 0);
            _exit(stackplay_bench_fresh_states(share) < 0 ? 1 : 0);
        }
        // The first child starts on another CPU than this one, as `stackplay` starts its first
        // worker, with the same call: Linux queues a child on its parent's CPU, and the other CPU
        // takes it only at its next balancing.
        if (made == 0) (void)stackplay_start_elsewhere(pid);
        children[made] = pid;
    }
    for (int k = 0; k < made; k++) {
        int status = 0;
        pid_t reaped;
        while ((reaped = waitpid(children[k], &status, 0)) < 0 && errno == EINTR) {}
        if (reaped < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
    }
    return failed ? -1 : 0;
}
