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
