import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Issue 21's rows that time `stackplay` processes: start-up against `lua5.4 -e ''`, the peak
// resident memory of a 10,000-test file, and `--jobs 2` against `--jobs 1`.

/// The rows of `binary` run on the suites ``measureTable(tests:binary:touchMove:touchMoveCard:exploreRate:)``
/// wrote under `folder` (`files` files of `perFile` scenario tests in `many`; `big` tests in the
/// data-driven file); `floor`: the seconds of one fresh C state, for the --jobs row's reference.
func processRows(binary: String, folder: String, big: Int, files: Int, perFile: Int, floor: Double) throws
    -> [BenchRow]
{
    var rows: [BenchRow] = []
    let count = files * perFile
    let script = folder + "/one_line.lua"
    try "local answer = 6 * 7\n".write(toFile: script, atomically: true, encoding: .utf8)
    let startUp = "start-up, one-line script, vs `lua5.4 -e ''`"
    let startUpToday = "5× (6.0–6.3 ms vs 1.2 ms)"
    if spawnMeasured("lua5.4", ["-e", ""]).status != 0 {
        // a lua5.4 that cannot be started answers at once: a ratio against it would be no measure
        rows.append(
            BenchRow(
                measure: startUp, today: startUpToday, target: "≤ 2.5×", now: "not measured (no lua5.4)",
                met: nil))
    } else {
        // the fastest of 15 of each, the two taken in turn: the machine's speed swings by a third
        // from one second to the next (15 of one, then 15 of the other, read 1.84× and 2.60× for
        // one build)
        let (starts, failed) = fastestInTurn(15, [(binary, [script]), ("lua5.4", ["-e", ""])])
        let (stackplayStart, luaStart) = (starts[0], starts[1])
        rows.append(
            BenchRow(
                measure: startUp, today: startUpToday, target: "≤ 2.5×",
                now: ratio(stackplayStart / luaStart)
                    + String(format: " (%.1f ms vs %.1f ms)", stackplayStart * 1e3, luaStart * 1e3)
                    + (failed == 0 ? "" : " (exit \(failed))"),
                met: failed == 0 && stackplayStart / luaStart <= 2.5))
    }

    let bigFile = try writeFiles(folder + "/big", 1) { _ in dataDrivenFile(big) }[0]
    let report = folder + "/peak"
    _ = spawnMeasured(CommandLine.arguments[0], ["--peak-rss", report, binary, "--jobs", "1", bigFile])
    // the exit status, the runner's peak, then each worker's (KiB)
    let peak = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ").compactMap
    {
        Int($0)
    }
    let exit = peak.first ?? -1
    let processes = peak.dropFirst().map { Double($0) / 1024 }
    let largest = processes.max() ?? 0
    rows.append(
        BenchRow(
            measure:
                "peak RSS, \(big)-test file, --jobs 1 (the largest of the runner's and each worker's, "
                + "every worker waited for by the bench as their subreaper)",
            today: "—", target: "≤ 20 MiB",
            now: String(format: "%.1f MiB", largest) + " (runner "
                + processes.map { String(format: "%.1f", $0) }.joined(separator: ", worker ") + ")"
                + (exit == 0 ? "" : " (exit \(exit))"),
            met: largest > 0 && largest <= 20 && exit == 0))

    // Fastest of 11, the four taken in turn: a run of 1,000 tests is 30-70 ms, and on the shared
    // 2-core machine one other process at the wrong moment takes a core from `--jobs 2` (it needs
    // both cores quiet at once, `--jobs 1` one): with 5, a second of noise read 0.57-0.65 for a
    // build whose quiet runs read 0.55. Beside them, the machine's own figure: the C floor's fresh
    // states, as many as `--jobs 1` takes for the 1,000 tests, in one forked process and in two, the
    // most two processes can gain on this machine at these moments (its two CPUs do not run at one
    // speed: pinned to each, one run of the 1,000 tests read 37-40 ms on one, 55-60 ms on the other).
    let bench = CommandLine.arguments[0]
    // as many fresh states as take `--jobs 1` of the 1,000 tests' wall time (the fastest of 3)
    let sizing = fastest(3) { spawnMeasured(binary, ["--jobs", "1", folder + "/many"]).seconds }
    let states = String(max(1, Int(sizing / max(floor, 1e-9))))
    let (jobs, jobsFailed) = fastestInTurn(
        11,
        [
            (binary, ["--jobs", "1", folder + "/many"]), (binary, ["--jobs", "2", folder + "/many"]),
            (bench, ["--c-states", states, "1"]), (bench, ["--c-states", states, "2"]),
        ])
    let (oneJob, twoJobs) = (jobs[0], jobs[1])
    let (oneProcess, twoProcesses) = (jobs[2], jobs[3])
    // The 1,000 tests are now about 40 ms of work beside a start-up of a few: too few to show two
    // jobs at work. The same measure on 10 × as many is shown beside it; the row is still judged on
    // the 1,000 tests.
    _ = try writeSuite(folder + "/more", files: 10 * files, perFile: perFile, scenarioTest)
    let oneJobMore = fastest(2) { spawnMeasured(binary, ["--jobs", "1", folder + "/more"]).seconds }
    let twoJobsMore = fastest(2) { spawnMeasured(binary, ["--jobs", "2", folder + "/more"]).seconds }
    rows.append(
        BenchRow(
            measure:
                "--jobs 2 vs --jobs 1, \(count) tests (\(files) files), wall (beside it, not judged: "
                + "\(10 * count) tests in \(10 * files) files; and this machine's most for two processes, "
                + "\(states) fresh C states in 2 processes vs 1, in the same turns)",
            today: "0.46", target: "≤ 0.55",
            now: String(format: "%.3f (%.1f ms vs %.1f ms)", twoJobs / oneJob, twoJobs * 1e3, oneJob * 1e3)
                + String(
                    format: "; %.2f (%.2f s vs %.2f s)", twoJobsMore / oneJobMore, twoJobsMore, oneJobMore)
                + String(
                    format: "; machine %.3f (%.1f ms vs %.1f ms)", twoProcesses / oneProcess,
                    twoProcesses * 1e3, oneProcess * 1e3)
                + (jobsFailed == 0 ? "" : " (exit \(jobsFailed))"),
            met: jobsFailed == 0 && twoJobs / oneJob <= 0.55))
    return rows
}
