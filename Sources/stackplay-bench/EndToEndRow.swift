import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Issue 42's end-to-end row: the scenario row's four-step tests run as users run them, through the
// `stackplay` binary `make install` installs (the static release build beside this bench), and the
// CPU time of every process of the run (the runner and each worker, reaped by a small process
// that is their subreaper) against the C floor. The in-process row leaves out what the runner
// costs a test: start-up, discovery, forking, the wire and the report.

/// `stackplay-bench --cpu-all FILE PROGRAM ARGUMENTS...`: runs PROGRAM, waits for it and for every
/// process it started (``spawnMeasuredWithWorkers(_:_:)``), and writes to FILE its exit status and
/// the CPU seconds (user and system) of all of them together.
func cpuOfAll(report: String, program: String, arguments: [String]) throws {
    let measured = spawnMeasuredWithWorkers(program, arguments)
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    try "\(measured.status) \(cpu)".write(toFile: report, atomically: true, encoding: .utf8)
}

/// The row: 1,000 four-step scenario tests in 10 files, `--jobs 1`, the CPU of all the run's
/// processes per test (the fastest of `rounds` runs) against `floor`, the CPU seconds of one fresh
/// C state. Target ≤ 2×.
func endToEndRow(binary: String, folder: String, floor: Double, rounds: Int = 5) throws -> BenchRow {
    let tests = 1_000
    let files = 10
    let suite = folder + "/end-to-end"
    _ = try writeSuite(suite, files: files, perFile: tests / files, scenarioTest)
    let report = folder + "/end-to-end-cpu"
    var best = Double.infinity
    var failed: Int32 = 0
    for _ in 0..<rounds {
        let run = spawnMeasured(
            CommandLine.arguments[0], ["--cpu-all", report, binary, "--jobs", "1", suite])
        let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ")
        guard run.status == 0, fields.count == 2, let status = Int32(fields[0]), let cpu = Double(fields[1])
        else {
            failed = run.status == 0 ? -1 : run.status
            continue
        }
        if status != 0 { failed = status }
        best = min(best, cpu)
    }
    let measure =
        "end to end: \(tests) four-step scenario tests in \(files) files, `stackplay --jobs 1` (the "
        + "release binary make install installs), CPU of all its processes per test vs the C floor"
    guard best.isFinite else {
        return BenchRow(
            measure: measure, today: "2.7–3.4×", target: "≤ 2×", now: "not measured (exit \(failed))",
            met: nil)
    }
    let perTest = best / Double(tests)
    return BenchRow(
        measure: measure, today: "2.7–3.4×", target: "≤ 2×",
        now: ratio(perTest / floor)
            + String(format: " (%.1f µs vs %.1f µs, fastest of %d)", perTest * 1e6, floor * 1e6, rounds)
            + (failed == 0 ? "" : " (exit \(failed))"),
        met: failed == 0 && perTest / floor <= 2)
}
