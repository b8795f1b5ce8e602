import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// `stackplay --watch`'s row (issue 37): the terminal loop's save-to-result time, measured on the
// process as a person meets it (an editor's save in, the round's summary line out).

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
