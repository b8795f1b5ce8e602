import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// `stackplay studio`'s rows (issue 37): the studio is its own dynamically linked program
// (docs/studio.md), built by `make bench` in release beside the static builds, and measured as a
// process: the pointer round trip through its server, and what it costs while nothing changes.

/// Runs `program` and returns its stdout (nil when it failed).
private func output(_ program: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// User and system CPU time of process `pid` so far, in seconds (/proc/PID/stat, clock ticks).
private func cpuTime(of pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
        return nil
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The studio's rows: pointer move → answered frame on loopback against the same move straight on
/// the model (p50, p99), the idle process's CPU time, and the page's frames per second while
/// dragging as the browser test last measured them (`artifacts/studio-fps.txt`).
func studioRows(studio: String, stackplay: String) -> [BenchRow] {
    // The studio's server and its client are two threads of one process: they run on every
    // core, not on the one the in-process measures are pinned to (which put p99 at 2.6 ms).
    onEveryCore { unpinnedStudioRows(studio: studio, stackplay: stackplay) }
}

private func unpinnedStudioRows(studio: String, stackplay: String) -> [BenchRow] {
    var rows: [BenchRow] = []
    if let line = output(studio, ["--measure-latency", "3000"]),
        case let numbers = line.split(separator: " ").compactMap({
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }),
        numbers.count == 4
    {
        let now = String(
            format: "p50 %.0f µs, p99 %.0f µs (direct touch_move + frame: p50 %.0f µs, p99 %.0f µs)",
            numbers[0],
            numbers[1], numbers[2], numbers[3])
        rows.append(
            BenchRow(
                measure: "studio: pointer move → answered frame, loopback WebSocket", today: "no studio",
                target: "p99 ≤ 2 ms", now: now, met: numbers[1] <= 2000))
    } else {
        rows.append(
            BenchRow(
                measure: "studio: pointer move → answered frame, loopback WebSocket", today: "no studio",
                target: "p99 ≤ 2 ms", now: "not measured (\(studio) --measure-latency failed)", met: nil))
    }
    rows.append(idleRow(studio: studio, stackplay: stackplay))
    let fps = try? String(contentsOfFile: "artifacts/studio-fps.txt", encoding: .utf8)
    rows.append(
        BenchRow(
            measure: "studio: page frames per second while dragging (make test-browser)", today: "no studio",
            target: "60",
            now: fps.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + " (its last run)" }
                ?? "not measured: run make test-browser",
            met: fps.flatMap { Double($0.split(separator: " ")[0]) }.map { $0 >= 55 }))
    return rows
}

/// The studio serving a folder of one script, idle: its CPU time over 5 s after start-up.
private func idleRow(studio: String, stackplay: String) -> BenchRow {
    let measure = "studio: CPU time of the idle process over 5 s"
    let folder = NSTemporaryDirectory() + "stackplay-bench-studio-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try? "test('idle', function() end)\n".write(
        toFile: folder + "/idle.lua", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: studio)
    process.arguments = ["--stackplay", stackplay, folder]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else {
        return BenchRow(
            measure: measure, today: "no studio", target: "0 (it waits)", now: "not measured", met: nil)
    }
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    // Started once it prints its URL; a second more for the listing and the fresh screen it spawns.
    var byte: UInt8 = 0
    while read(pipe.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
    sleep(1)
    guard let before = cpuTime(of: process.processIdentifier) else {
        return BenchRow(
            measure: measure, today: "no studio", target: "0 (it waits)", now: "not measured", met: nil)
    }
    sleep(5)
    let spent = (cpuTime(of: process.processIdentifier) ?? before) - before
    return BenchRow(
        measure: measure, today: "no studio", target: "0 (it waits, it does not poll)",
        now: String(format: "%.0f ms", spent * 1000), met: spent <= 0.01)
}

/// `stackplay --watch` on a file of 100 four-step scenario tests: from a save (an editor's atomic
/// one, a new file renamed over the old) to the round's `N passed, N failed` line on its stdout,
/// the median of 7 saves (its 50 ms quiet time included).
func watchRow(stackplay: String) -> BenchRow {
    let measure = "--watch: save → result of a file of 100 scenario tests"
    let unmeasured = { (why: String) in
        BenchRow(
            measure: measure, today: "no watch", target: "≤ 300 ms", now: "not measured (\(why))", met: nil)
    }
    let folder = NSTemporaryDirectory() + "stackplay-bench-watch-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/hundred.lua"
    func save(_ round: Int) -> Bool {
        let text = """
            -- save \(round)
            for i = 1, 100 do
              test("swipe " .. i, function()
                local screen = stackplay.screen {}
                local stack = screen:notification_stack { items = { "a", "b", "c", "d" }, dismissible = true }
                stack:tap(); screen:settle()
                stack:drag("b", { x = -120 }); screen:settle()
                expect(stack:count()):to_equal(3)
              end)
            end

            """
        return (try? text.write(toFile: file, atomically: true, encoding: .utf8)) != nil
    }
    guard save(0) else { return unmeasured("cannot write \(file)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stackplay)
    process.arguments = ["--watch", "--jobs", "1", folder]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return unmeasured("\(stackplay) did not start") }
    defer {
        process.interrupt()
        process.waitUntilExit()
    }
    let descriptor = pipe.fileHandleForReading.fileDescriptor
    /// Reads stdout's lines until one holds `text`, for at most 20 s: false when none did.
    func waitFor(_ text: String) -> Bool {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&waiting, 1, 20_000) == 1, read(descriptor, &byte, 1) == 1 {
            if byte != UInt8(ascii: "\n") {
                line.append(byte)
                continue
            }
            if String(decoding: line, as: UTF8.self).contains(text) { return true }
            line.removeAll(keepingCapacity: true)
        }
        return false
    }
    guard waitFor("for changes (Ctrl-C to stop)") else { return unmeasured("the first run did not end") }
    var times: [Double] = []
    for round in 1...7 {
        var answered = false
        let seconds = wallSeconds {
            answered = save(round) && waitFor("round \(round): 100 passed, 0 failed")
        }
        guard answered else { return unmeasured("round \(round) did not report 100 passed") }
        times.append(seconds)
    }
    let median = times.sorted()[times.count / 2]
    return BenchRow(
        measure: measure, today: "no watch", target: "≤ 300 ms",
        now: String(format: "%.0f ms (median of 7; the fastest %.0f ms)", median * 1000, times.min()! * 1000),
        met: median <= 0.3)
}
