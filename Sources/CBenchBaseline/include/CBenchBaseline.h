// `make bench`'s floor: what a fresh Lua state costs in plain C.
#ifndef STACKPLAY_BENCH_BASELINE_H
#define STACKPLAY_BENCH_BASELINE_H

/// `rounds` times: luaL_newstate, luaL_openlibs, load and run a one-line chunk, lua_close.
/// Returns the sum of the chunk's results (so that nothing is optimised away), or -1 on an error.
long stackplay_bench_fresh_states(long rounds);

/// Makes this process the subreaper of its descendants (PR_SET_CHILD_SUBREAPER): a process that
/// ends without reaping its children leaves them to this one, whose wait4 then reads their
/// resource use (the peak RSS row counts every process of a run). 0 on success.
int stackplay_bench_become_subreaper(void);

/// Pins this thread, and what it starts from now on, to the CPU it runs on now (cores.c): its
/// number, or -1 when it cannot.
int stackplay_bench_pin(void);

/// Lets this thread run on every CPU it could before stackplay_bench_pin; 1 when it was pinned.
int stackplay_bench_unpin(void);

/// Forks `processes` children that share `rounds` fresh states (stackplay_bench_fresh_states)
/// among them, and waits for all: the --jobs row's reference, work that needs nothing of its
/// parent, in one process or spread over two. 0 when every child succeeded, else -1.
int stackplay_bench_parallel_states(long rounds, int processes);

#endif
