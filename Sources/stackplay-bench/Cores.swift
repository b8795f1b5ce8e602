import CBenchBaseline

// Which CPUs the bench's measures run on. The 2-core machine's CPUs do not run at one speed
// (CBenchBaseline's cores.c): the in-process rows, each a ratio to a baseline measured in the same
// process, run on one CPU, so that a measure and its baseline meet the same CPU; the rows that
// time `stackplay` runs, whose workers must be free to run on the other CPU, let the pin go.

/// Pins the bench to the CPU it runs on now; that CPU's number, or nil when it cannot.
@discardableResult
func pinToOneCore() -> Int? {
    let cpu = stackplay_bench_pin()
    return cpu >= 0 ? Int(cpu) : nil
}

/// `body`'s result, with the bench (and what it starts) free to run on every CPU while it runs;
/// pinned again after, to the CPU it is on then, when it was pinned before.
func onEveryCore<T>(_ body: () throws -> T) rethrows -> T {
    let wasPinned = stackplay_bench_unpin() != 0
    defer { if wasPinned { pinToOneCore() } }
    return try body()
}
