import TestResults
import Traces
import Workers

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT or SIGTERM ended the run: report what finished, write a valid (partial) JUnit file,
/// exit 130 or 143 as shells do.
enum Interruption {
    static func report(_ results: [TestResult], of total: Int, options: Options) -> Int32 {
        Reporters.report(
            results, format: options.format ?? .human, seed: nil, junit: options.junit,
            jsonFile: options.jsonFile)
        return ended(finished: results.count, of: total)
    }

    /// Says that the run was interrupted after `finished` of `total` tests (their report written);
    /// the exit code.
    static func ended(finished: Int, of total: Int) -> Int32 {
        let signal = WorkerPool.interruption
        Output.err(
            "stackplay: interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): "
                + "\(finished) of \(total) tests finished; the others did not run")
        return 128 + signal
    }
}
