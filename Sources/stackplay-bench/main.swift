import Bindings
import CBenchBaseline
import Exploration
import Foundation
import LuaRuntime
import StackModel
// `make bench`: how many touch-move events per second the models take, release build.
// Each event moves a finger that is swiping a card of a 4-card open NotificationStack, then
// reads the whole frame snapshot (every card's geometry), as a scenario or a trace does.
import StackplayRunner

/// `stackplay-bench --peak-rss FILE PROGRAM ARGUMENTS...`: runs PROGRAM and writes to FILE its exit
/// status and the peak resident memory (KiB) of it and of each worker it started
/// (``spawnMeasuredWithWorkers(_:_:)``). The table runs the bench again for this, first thing:
/// `exec` counts the memory of the process that spawned into the peak, so the spawning process
/// must be small (this one, before it has done anything), not the bench after its measures.
if CommandLine.arguments.count > 3, CommandLine.arguments[1] == "--peak-rss" {
    let measured = spawnMeasuredWithWorkers(
        CommandLine.arguments[3], Array(CommandLine.arguments.dropFirst(4)))
    try ([Int(measured.status), measured.runnerKiB] + measured.workersKiB).map(String.init).joined(
        separator: " "
    )
    .write(toFile: CommandLine.arguments[2], atomically: true, encoding: .utf8)
    exit(0)
}

/// `stackplay-bench --cpu-all FILE PROGRAM ARGUMENTS...`: the end-to-end row's measure
/// (``cpuOfAll(report:program:arguments:)``), from a small process for the same reason.
if CommandLine.arguments.count > 3, CommandLine.arguments[1] == "--cpu-all" {
    try cpuOfAll(
        report: CommandLine.arguments[2], program: CommandLine.arguments[3],
        arguments: Array(CommandLine.arguments.dropFirst(4)))
    exit(0)
}

/// `stackplay-bench --c-states ROUNDS PROCESSES`: ROUNDS fresh C states (the C floor) shared by
/// PROCESSES forked children; exit 0 when all succeeded. The --jobs row's reference, spawned as
/// `stackplay` is: a small process that forks its workers.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--c-states",
    let rounds = Int(CommandLine.arguments[2]), let processes = Int32(CommandLine.arguments[3])
{
    exit(stackplay_bench_parallel_states(rounds, processes) == 0 ? 0 : 1)
}

/// `stackplay-bench --rounds N`: exactly N rounds of each measurement, for instruction counts
/// under `valgrind --tool=callgrind` (repeatable where wall time on a shared machine is not).
let fixedRounds: Int? = {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.count else { return nil }
    return Int(arguments[flag + 1])
}()

/// `stackplay-bench --profile KIND N`: only N of one unit of per-test work, for callgrind (the
/// instructions of one unit are the difference of two N's divided by their difference):
/// `state` (a fresh sandboxed state with every module, closed), `empty` and `scenario` (N files of
/// 10 empty or scenario tests, discovered and run), `one-file` (one file of N scenario tests),
/// `explore` (N of the bench's explorations, 10,000 steps each),
/// `c-state` (the C floor), `lua-moves`/`swift-moves` (N rounds of 1,000 touch moves through the
/// Lua API or the Swift model), `lua-move-card`/`swift-move-card` (each also reading a card) and
/// `swift-scenario` (N times the scenario test's four steps through the Swift model alone).
// The in-process measures on one CPU (Cores.swift); `--profile` counts instructions, not time.
if !CommandLine.arguments.contains("--profile") {
    let core = pinToOneCore()
    print("in-process measures on CPU \(core.map(String.init) ?? "any (it could not be pinned)")")
}

if let flag = CommandLine.arguments.firstIndex(of: "--profile"), flag + 2 < CommandLine.arguments.count,
    let count = Int(CommandLine.arguments[flag + 2])
{
    try profile(CommandLine.arguments[flag + 1], count: count)
    exit(0)
}

/// `stackplay-bench --sandbox [MEASURE ROUNDS]`: only the sandbox rows (issue 22), against lua5.4;
/// or one measure's Lua, ROUNDS times, for callgrind (``sandboxCommand(_:)``).
if let flag = CommandLine.arguments.firstIndex(of: "--sandbox") {
    try sandboxCommand(Array(CommandLine.arguments[(flag + 1)...]))
    exit(0)
}

/// `stackplay-bench --studio`: only the studio's rows and `--watch`'s (StudioRows.swift), against the
/// `stackplay-studio` of .build/release (or beside this program) and the `stackplay` beside it.
if CommandLine.arguments.dropFirst().first == "--studio" {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let beside = here.appendingPathComponent("stackplay-studio").path
    let studio =
        FileManager.default.isExecutableFile(atPath: ".build/release/stackplay-studio")
        ? ".build/release/stackplay-studio" : beside
    printTable(
        BenchTable(
            rows: studioRows(studio: studio, stackplay: here.appendingPathComponent("stackplay").path)
                + [onEveryCore { watchRow(stackplay: here.appendingPathComponent("stackplay").path) }],
            curve: []))
    exit(0)
}

/// `stackplay-bench --mutate`: only `mutate --incremental`'s row (MutateIncrementalRow.swift), against
/// the `stackplay` beside this program, from the package (it copies scripts/).
if CommandLine.arguments.dropFirst().first == "--mutate" {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    printTable(
        BenchTable(
            rows: [
                onEveryCore { mutateIncrementalRow(stackplay: here.appendingPathComponent("stackplay").path) }
            ],
            curve: []))
    exit(0)
}

/// `stackplay-bench --table`: only issue 21's in-process rows (no binary, no touch-move ratios),
/// with the exploration's rate: the quick loop for work on per-test cost.
if CommandLine.arguments.dropFirst().first == "--table" {
    let rate = try ExploreBench().cpuRate(rounds: 10).rate
    let rows = try measureTable(
        tests: 1000, binary: nil, touchMove: nil, touchMoveCard: nil, exploreRate: rate)
    printTable(BenchTable(rows: rows.rows, curve: rows.curve))
    exit(0)
}

/// Runs `body` for about `seconds`, prints and returns the rate of `events` per second.
@discardableResult
func measure(_ label: String, seconds: Double = 1, _ body: (Int) throws -> Int) rethrows -> Double {
    if let fixedRounds {
        var events = 0
        for round in 0..<fixedRounds { events += try body(round) }
        print("\(label): \(events) events")
        return 1
    }
    let clock = ContinuousClock()
    var events = 0
    var rounds = 0
    let start = clock.now
    var elapsed = 0.0
    while elapsed < seconds {
        events += try body(rounds)
        rounds += 1
        let duration = clock.now - start
        elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
    let rate = Double(events) / elapsed
    let perEvent = 1e9 / rate
    print("\(label): \(Int(rate)) events/s (\(String(format: "%.0f", perEvent)) ns per event)")
    return rate
}

func openStack() throws -> (Screen, NotificationStack) {
    let screen = try Screen()
    let stack = try NotificationStack(
        cards: ["messages", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) },
        isExpanded: true, isDismissible: true, origin: Point(x: 16, y: 100), width: 358)
    try screen.add(stack)
    return (screen, stack)
}

var sink = 0.0
let eventRate = try measure("swift model, touch move + frame snapshot, 4-card open NotificationStack") { _ in
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
        sink += screen.snapshot().components[0].cards[1].frame.x
    }
    try screen.touchUp(touch)
    return 1000
}
if sink == .infinity { print(sink) }
measureMutantSwitch(eventRate: eventRate)
/// 1000 touch moves on a fresh open stack, straight on the Swift model.
func directMovesRound() throws -> Int {
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
    }
    try screen.touchUp(touch)
    return 1000
}
let directMoves = try measure("  touch move only") { _ in try directMovesRound() }
try measure("  snapshot only") { _ in
    let (screen, _) = try openStack()
    for _ in 1...1000 {
        sink += screen.snapshot().components[0].cards[1].frame.x
    }
    return 1000
}

// Issue 5: the same touch moves through the Lua API, against the Swift model reading the one card
// that the Lua loop reads (`stack:card("calendar").x`). The Lua path should cost at most about
// twice the direct one.
/// 1000 touch moves on a fresh open stack, each followed by a read of one card's frame.
@MainActor func directCardRound() throws -> Int {
    let (screen, stack) = try openStack()
    let start = try stack.point(of: "calendar", in: screen.settings)
    let (touch, _) = try screen.touchDown(at: start)
    for step in 1...1000 {
        try screen.touchMove(touch, to: Point(x: start.x - Double(step % 100), y: start.y))
        sink += stack.cardSnapshots(in: screen.settings).first { $0.id == "calendar" }!.frame.x
    }
    try screen.touchUp(touch)
    return 1000
}
let direct = try measure("swift model, touch move + one card's frame") { _ in try directCardRound() }

let unlimited = LuaBudget(cpuSeconds: 0, memoryMiB: 0)
let lua = try ScriptRunner(budget: unlimited).makeState(root: nil)
try lua.run(luaRound, name: "=bench")
let throughLua = try measure("lua api, screen:touch_move + stack:card(id).x") { _ in
    try lua.run("return round()", name: "=bench")
    return 1000
}

// The touch moves alone, both ways: what a drag in a scenario costs before anything is read.
let luaMoves = try measure("lua api, screen:touch_move only") { _ in
    try lua.run("return moves()", name: "=bench")
    return 1000
}
let luaDrags = try measure("lua api, stack:drag with 1000 steps (one call, 1000 touch moves)") { _ in
    try lua.run("return drags()", name: "=bench")
    return 1000
}
// The table's two ratios: the fastest round of each path, the two taken in turn (rates read a
// second apart meet different noise on the shared machine: the touch_move + card row read 1.74×
// and 2.55× for one build).
let cardRatio = try fastestRatio {
    _ = try directCardRound()
} over: {
    try lua.run("return round()", name: "=bench")
}
let movesRatio = try fastestRatio {
    _ = try directMovesRound()
} over: {
    try lua.run("return moves()", name: "=bench")
}
print(
    "  touch move + card: the lua path costs \(String(format: "%.2f", cardRatio))× the direct one "
        + "(fastest rounds taken in turn; \(String(format: "%.2f", direct / throughLua))× from the rates above)"
)
print(
    "  touch move alone: the lua path costs \(String(format: "%.2f", movesRatio))× the direct one "
        + "(fastest rounds taken in turn; \(String(format: "%.2f", directMoves / luaMoves))× from the rates above)"
)
print(
    "  touch moves of a drag gesture: the lua path costs \(String(format: "%.2f", directMoves / luaDrags))× the direct one"
)

// The whole `scripts/` suite in-process, one test after another, as `stackplay --jobs 1 scripts`
// runs it (a fresh Lua state a test, discovery included).
let suite = scriptFiles(under: "scripts")
let runner = TestRunner()
let clock = ContinuousClock()
let suiteStart = clock.now
var testCount = 0
var failed = 0
for file in suite {
    let tests = (try? runner.discover(file: file, root: "scripts").get()) ?? []
    for test in tests {
        testCount += 1
        if runner.run(test).status == .failed { failed += 1 }
    }
}
let suiteTime = clock.now - suiteStart
let suiteMilliseconds =
    Double(suiteTime.components.seconds) * 1e3 + Double(suiteTime.components.attoseconds) * 1e-15
print(
    "scripts/ suite, one job: \(suite.count) files, \(testCount) tests (\(failed) failed) in "
        + "\(String(format: "%.1f", suiteMilliseconds)) ms")

/// The scenario files under `folder` as the runner finds them: `*.lua`, not under `helpers/`, sorted.
func scriptFiles(under folder: String) -> [String] {
    let names = FileManager.default.subpaths(atPath: folder) ?? []
    return names.filter { $0.hasSuffix(".lua") && !$0.split(separator: "/").contains("helpers") }
        .map { "\(folder)/\($0)" }.sorted()
}

// What running tests in worker processes costs (process start, fork, the pipes): the same 200
// empty tests in-process and through the `stackplay` binary beside this one, one job.
let emptyFolder = NSTemporaryDirectory() + "stackplay-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
let emptyFile = emptyFolder + "/empty.lua"
try (1...200).map { "test('t\($0)', function() end)" }.joined(separator: "\n")
    .write(toFile: emptyFile, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(atPath: emptyFolder) }
let inProcessStart = clock.now
for test in (try? runner.discover(file: emptyFile, root: emptyFolder).get()) ?? [] { _ = runner.run(test) }
let inProcess = clock.now - inProcessStart
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("stackplay")
if FileManager.default.isExecutableFile(atPath: binary.path) {
    // posix_spawn, as the table's rows: Foundation's Process took 45 ms of its own to start one
    let isolated =
        onEveryCore { fastest(3) { spawnMeasured(binary.path, ["--jobs", "1", emptyFile]).seconds } } * 1e3
    let inProcessMilliseconds =
        Double(inProcess.components.seconds) * 1e3 + Double(inProcess.components.attoseconds) * 1e-15
    print(
        "200 empty tests, one job: in-process \(String(format: "%.1f", inProcessMilliseconds)) ms, "
            + "stackplay binary with worker processes \(String(format: "%.1f", isolated)) ms "
            + "(\(String(format: "%.1f", (isolated - inProcessMilliseconds) * 1000 / 200)) µs a test "
            + "for isolation and start-up)")
} else {
    print("200 empty tests: no stackplay binary beside stackplay-bench (run `make bench`)")
}

// MARK: - --audit (accessibility audit) cost: a block of its own, kept apart from the speed rows above.
// The scripts/ suite in-process as above, without and with `--audit` (every applicable type,
// the scenarios' allow-list of .stackplay.lua), best of three each; target: at most 2×.
do {
    let allow = [
        AuditAllowance(
            type: .elementDetection, element: "card:*", kind: "wallet_card_stack", rule: "hidden_hittable"),
        AuditAllowance(type: .action, element: "card:*", kind: "notification_stack", rule: "does_nothing"),
    ]
    func suiteMilliseconds(audit: AuditOptions?) -> (Double, Int) {
        let modules = StackplayModules.standard(screen: ScreenDefaults(), audit: audit)
        let runner = TestRunner(scripts: ScriptRunner(modules: modules))
        let start = clock.now
        var failed = 0
        for file in suite {
            for test in (try? runner.discover(file: file, root: "scripts").get()) ?? []
            where runner.run(test).status == .failed {
                failed += 1
            }
        }
        let time = clock.now - start
        return (Double(time.components.seconds) * 1e3 + Double(time.components.attoseconds) * 1e-15, failed)
    }
    var without = Double.infinity
    var with = Double.infinity
    var auditFailed = 0
    for _ in 0..<3 {
        without = min(without, suiteMilliseconds(audit: nil).0)
        let (milliseconds, failed) = suiteMilliseconds(audit: AuditOptions(allow: allow))
        with = min(with, milliseconds)
        auditFailed = failed
    }
    print(
        "--audit over scripts/, one job: \(String(format: "%.1f", with)) ms with, \(String(format: "%.1f", without)) ms "
            + "without (\(String(format: "%.2f", with / without))×; target ≤ 2×; \(auditFailed) failed)")
}

// MARK: - explore (branch `explore`): explored steps per second -----------------------------------

// `stackplay explore`'s rate (ExploreBench). Target: ≥ 150,000 steps per CPU second.
let exploration = try ExploreBench()
try measure("explore: notification stack, 100-step runs, built-in invariants + 1 Lua invariant (steps)") {
    try exploration.explore($0)
}
let exploreSeeds = fixedRounds ?? 10
let exploreRepeats = fixedRounds == nil ? 3 : 1
let explored = try exploration.cpuRate(rounds: exploreSeeds, repeats: exploreRepeats)
let exploreRate: Double? = explored.rate
print(
    "explore: \(Int(explored.rate)) steps per CPU second "
        + "(\(explored.steps) steps in \(String(format: "%.2f", explored.seconds)) s of this thread's CPU time, "
        + "each of \(exploreSeeds) seeds' explorations the fastest of \(exploreRepeats))"
)

// Issue 21's table: every target as a ratio measured in this run, and the per-test cost curve.
// Under `--rounds N` (callgrind) the suites have N × 10 tests and no binary is run.
let stackplayBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("stackplay").path
let binaryExists = FileManager.default.isExecutableFile(atPath: stackplayBinary)
if !binaryExists && fixedRounds == nil {
    print("no stackplay binary beside stackplay-bench (run `make bench`)")
}
let rows = try measureTable(
    tests: fixedRounds.map { $0 * 10 } ?? 1000,
    binary: binaryExists && fixedRounds == nil ? stackplayBinary : nil,
    touchMove: fixedRounds == nil ? movesRatio : nil,
    touchMoveCard: fixedRounds == nil ? cardRatio : nil,
    exploreRate: fixedRounds == nil ? exploreRate : nil)
// The studio (issue 37): `make bench` builds it in release, dynamically linked, in .build/release.
let studioBinary = ".build/release/stackplay-studio"
let studio =
    binaryExists && fixedRounds == nil && FileManager.default.isExecutableFile(atPath: studioBinary)
    ? studioRows(studio: studioBinary, stackplay: stackplayBinary) : []
let watch =
    binaryExists && fixedRounds == nil
    ? [
        onEveryCore { watchRow(stackplay: stackplayBinary) },
        onEveryCore { mutateIncrementalRow(stackplay: stackplayBinary) },
    ] : []
printTable(BenchTable(rows: rows.rows + (try sandboxRows()) + studio + watch, curve: rows.curve))
if binaryExists && fixedRounds == nil {
    try onEveryCore {
        try measureReaders(binary: stackplayBinary)
        measureMutateSpeed(binary: stackplayBinary)
    }
}
