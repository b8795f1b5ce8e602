// `make bench`'s table: issue 12's targets, each measured as a ratio within this one run.
import StackplayRunner
import LuaRuntime
import Bindings
import StackModel
import CBenchBaseline
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One row: what is measured, the figure ("today"), the target and what this run measured.
struct BenchRow {
    let measure: String
    let today: String
    let target: String
    let now: String
    /// Whether `now` meets `target`; nil when it was not measured.
    let met: Bool?
}

/// Seconds `body` takes, by the wall clock.
func wallSeconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// Discovers and runs every test of `files` in this process, one after another, as
/// `stackplay --jobs 1` does in its workers. Returns how many tests failed.
@discardableResult
func runInProcess(_ files: [String], root: String) -> Int {
    let runner = TestRunner()
    var failed = 0
    for file in files {
        let tests = (try? runner.discover(file: file, root: root).get()) ?? []
        if tests.isEmpty { failed += 1 }
        for test in tests where runner.run(test).status == .failed { failed += 1 }
    }
    return failed
}

/// Runs `program` with `arguments`, output to /dev/null; its wall time, exit status, and the peak
/// resident memory of it and every process it waited for (`wait4`'s `ru_maxrss`), in KiB.
func spawnMeasured(_ program: String, _ arguments: [String]) -> (seconds: Double, status: Int32, peakKiB: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    var status: Int32 = 0
    var usage = rusage()
    let seconds = wallSeconds {
        guard posix_spawnp(&pid, program, &actions, nil, argv, environ) == 0 else {
            status = -1
            return
        }
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    }
    return (seconds, status == -1 ? -1 : (status >> 8) & 0xff, Int(usage.ru_maxrss))
}

/// The smallest of `samples`: on a shared machine the least disturbed run.
func fastest(_ count: Int, _ sample: () -> Double) -> Double {
    (0..<count).map { _ in sample() }.min() ?? 0
}

/// The scenario of issue 12: tap, settle, drag 120 pt, settle on a 4-card notification stack.
func scenarioTest(_ index: Int) -> String {
    """
    test("scenario \(index)", function()
      local screen = stackplay.screen {}
      local stack = screen:notification_stack {
        items = { "messages", "calendar", "mail", "fitness" }, card_height = 70, dismissible = true,
      }
      stack:tap(); screen:settle()
      stack:drag("calendar", { x = 120 }); screen:settle()
    end)

    """
}

/// Writes `count` files of `perFile` tests made by `test` under `folder`; their paths, sorted.
func writeSuite(_ folder: String, files count: Int, perFile: Int, _ test: (Int) -> String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return try (0..<count).map { file in
        let path = folder + "/" + String(format: "t%04d.lua", file)
        try (0..<perFile).map { test(file * perFile + $0) }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Measures every row of the table. `tests` is the suite size (1,000 in `make bench`); `binary` is
/// the `stackplay` to run beside `lua5.4` (nil under callgrind: those rows are not measured), and
/// the touch-move ratios come from the measures above (nil when they ran a fixed number of rounds).
func measureTable(tests: Int, binary: String?, touchMove: Double?, touchMoveCard: Double?) throws -> [BenchRow] {
    let folder = NSTemporaryDirectory() + "stackplay-bench-table-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let perFile = 10
    let files = max(1, tests / perFile)
    let one = try writeSuite(folder + "/one", files: 1, perFile: files * perFile, scenarioTest)
    let many = try writeSuite(folder + "/many", files: files, perFile: perFile, scenarioTest)
    let empty = try writeSuite(folder + "/empty", files: files, perFile: perFile) { "test('empty \($0)', function() end)\n" }
    let count = Double(files * perFile)

    // Warm the process up (the prelude's bytecode, the allocator) before anything is timed.
    runInProcess(Array(many.prefix(2)), root: folder + "/many")
    let manyTime = wallSeconds { runInProcess(many, root: folder + "/many") }
    let oneTime = wallSeconds { runInProcess(one, root: folder + "/one") }
    let emptyTime = wallSeconds { runInProcess(empty, root: folder + "/empty") }
    var baselineSum = 0
    let baselineRounds = 2000
    let baselineTime = wallSeconds { baselineSum = stackplay_bench_fresh_states(baselineRounds) }
    guard baselineSum == 4 * baselineRounds else { throw BenchError("the C baseline failed") }
    let perTestOverhead = emptyTime / count
    let freshState = baselineTime / Double(baselineRounds)
    let scenario = manyTime / count

    func ratio(_ x: Double) -> String { String(format: "%.2f×", x) }
    func micro(_ x: Double) -> String { String(format: "%.0f µs", x * 1e6) }
    var rows = [
        BenchRow(
            measure: "one file of \(Int(count)) scenario tests vs \(files) files × \(perFile)", today: "74×",
            target: "≤ 1.2×", now: ratio(oneTime / manyTime), met: oneTime / manyTime <= 1.2),
        BenchRow(
            measure: "per-test overhead (empty test) vs C newstate+openlibs+chunk", today: "6.6×", target: "≤ 2×",
            now: ratio(perTestOverhead / freshState) + " (\(micro(perTestOverhead)) vs \(micro(freshState)))",
            met: perTestOverhead / freshState <= 2),
        BenchRow(
            measure: "the four-step scenario, per test, including overhead", today: "~270 µs", target: "≤ 50 µs",
            now: micro(scenario), met: scenario <= 50e-6),
        BenchRow(
            measure: "screen:touch_move from Lua vs the direct Swift call", today: "2.9×", target: "≤ 2×",
            now: touchMove.map(ratio) ?? "not measured", met: touchMove.map { $0 <= 2 }),
        BenchRow(
            measure: "touch_move + stack:card(id).x from Lua vs direct", today: "3.7×", target: "≤ 2×",
            now: touchMoveCard.map(ratio) ?? "not measured", met: touchMoveCard.map { $0 <= 2 }),
    ]
    guard let binary else {
        for measure in ["start-up, one-line script, vs lua5.4", "--jobs 2 vs --jobs 1, 1,000 tests, wall",
            "peak resident memory, 1,000-test file"] {
            rows.append(BenchRow(measure: measure, today: "", target: "", now: "not measured", met: nil))
        }
        return rows
    }

    let script = folder + "/one_line.lua"
    try "local answer = 6 * 7\n".write(toFile: script, atomically: true, encoding: .utf8)
    let stackplayStart = fastest(15) { spawnMeasured(binary, [script]).seconds }
    let luaStart = fastest(15) { spawnMeasured("lua5.4", [script]).seconds }
    rows.append(
        BenchRow(
            measure: "start-up, one-line script, vs lua5.4", today: "3.5×", target: "≤ 2.5×",
            now: ratio(stackplayStart / luaStart)
                + String(format: " (%.1f ms vs %.1f ms)", stackplayStart * 1e3, luaStart * 1e3),
            met: stackplayStart / luaStart <= 2.5))

    let oneJob = fastest(2) { spawnMeasured(binary, ["--jobs", "1", folder + "/many"]).seconds }
    let twoJobs = fastest(2) { spawnMeasured(binary, ["--jobs", "2", folder + "/many"]).seconds }
    rows.append(
        BenchRow(
            measure: "--jobs 2 vs --jobs 1 on \(Int(count)) tests (\(files) files), wall", today: "0.54",
            target: "≤ 0.55", now: String(format: "%.2f (%.2f s vs %.2f s)", twoJobs / oneJob, twoJobs, oneJob),
            met: twoJobs / oneJob <= 0.55))

    let report = folder + "/peak"
    _ = spawnMeasured(CommandLine.arguments[0], ["--peak-rss", report, binary, one[0]])
    let peak = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
        Int($0)
    }
    let mebibytes = Double(peak.first ?? 0) / 1024
    let exit = peak.count == 2 ? peak[1] : -1
    rows.append(
        BenchRow(
            measure: "peak resident memory, \(Int(count))-test file", today: "~17 MiB", target: "≤ 20 MiB",
            now: String(format: "%.1f MiB", mebibytes) + (exit == 0 ? "" : " (exit \(exit))"),
            met: mebibytes <= 20 && exit == 0))
    return rows
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The table as Markdown, as issue 12 writes it, with the column "now" and whether it is met.
func printTable(_ rows: [BenchRow]) {
    print("\n| measure | today | target | now | |")
    print("|---|---|---|---|---|")
    for row in rows {
        let mark = row.met.map { $0 ? "met" : "NOT met" } ?? ""
        print("| \(row.measure) | \(row.today) | \(row.target) | \(row.now) | \(mark) |")
    }
}

/// `--profile KIND N` (see main.swift).
func profile(_ kind: String, count: Int) throws {
    let folder = NSTemporaryDirectory() + "stackplay-bench-profile-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    switch kind {
    case "state":
        for _ in 0..<count { _ = try ScriptRunner().makeState(root: nil) }
    case "empty":
        let files = try writeSuite(folder, files: count, perFile: 10) { "test('empty \($0)', function() end)\n" }
        print("failed:", runInProcess(files, root: folder))
    case "scenario":
        let files = try writeSuite(folder, files: count, perFile: 10, scenarioTest)
        print("failed:", runInProcess(files, root: folder))
    case "one-file":
        let files = try writeSuite(folder, files: 1, perFile: count, scenarioTest)
        print("failed:", runInProcess(files, root: folder))
    case "lua-moves", "lua-move-card":
        // N rounds of 1,000 `screen:touch_move` (with `stack:card(id).x`) through the Lua API
        let lua = try ScriptRunner(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0)).makeState(root: nil)
        try lua.run(luaRound, name: "=bench")
        let call = kind == "lua-moves" ? "return moves()" : "return round()"
        for _ in 0..<count { try lua.run(call, name: "=bench") }
    case "swift-moves":
        for _ in 0..<count { try swiftMoves(readingCard: false) }
    case "swift-move-card":
        for _ in 0..<count { try swiftMoves(readingCard: true) }
    case "c-state":
        print("sum:", stackplay_bench_fresh_states(count))
    default:
        throw BenchError(
            "--profile takes state, empty, scenario, one-file, c-state, lua-moves, lua-move-card, "
                + "swift-moves or swift-move-card, not '\(kind)'")
    }
}

/// 1,000 touch moves on the direct Swift path, reading the card as the Lua round does when asked.
func swiftMoves(readingCard: Bool) throws {
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    var sum = 0.0
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
        if readingCard { sum += stack.cardSnapshots(in: screen.settings).first { $0.id == "calendar" }!.frame.x }
    }
    try screen.touchUp(touch)
    if sum == .infinity { print(sum) }
}
