import Bindings
import Exploration
import Foundation
import LuaRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// The bench's exploration: `stackplay explore`'s runs of 100 steps on a 4-card dismissible
/// notification stack, every built-in invariant on (replay checked on every 100th run, as the
/// command does) and one Lua invariant called after every step.
final class ExploreBench {
    private let folder = NSTemporaryDirectory() + "stackplay-bench-explore-\(getpid())"
    private let file: LuaExplorationFile

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/bench.lua"
        // The exploration is the test fixture's, found from this source file (the bench runs where
        // it was built): one text for the bench and ExploreTests.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Tests/StackplayTests/Fixtures/explore/bench.lua").standardized
        try String(contentsOf: source, encoding: .utf8).write(toFile: path, atomically: true, encoding: .utf8)
        file = try LuaExplorationFile(
            file: path, root: folder,
            runner: ScriptRunner(budget: LuaBudget(cpuSeconds: 3_600, memoryMiB: 1_024)),
            seed: 0)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// One exploration of 100 runs of 100 steps from seed `round`; the steps it took.
    func explore(_ round: Int) throws -> Int {
        let explorer = file.explorer(0, budget: ExploreBudget(seed: round, runs: 100, steps: 100))
        guard case .passed(_, let steps, _) = explorer.explore() else {
            throw BenchError("the bench's exploration failed")
        }
        return steps
    }

    /// Steps per second of this thread's CPU time over `rounds` explorations, each the fastest of
    /// `repeats` runs of it: on a shared machine the wall clock counts other processes' time too,
    /// and CPU time is the rate of one free core, but a neighbour on the other core still slows
    /// it (caches, the host's cores): one pass read 139,000 and 168,000 for one build.
    func cpuRate(rounds: Int, repeats: Int = 3) throws -> (rate: Double, steps: Int, seconds: Double) {
        var steps = 0
        var seconds = 0.0
        for round in 0..<rounds {
            // (the same seed takes the same steps every time)
            var taken = 0
            var fastest = Double.infinity
            for _ in 0..<max(1, repeats) {
                fastest = min(fastest, try cpuSeconds { taken = try explore(1_000 + round) })
            }
            steps += taken
            seconds += fastest
        }
        return (Double(steps) / max(seconds, 1e-9), steps, seconds)
    }
}
