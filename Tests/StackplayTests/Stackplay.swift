import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `stackplay` binary: `STACKPLAY_BIN`, else beside the test bundle (SwiftPM builds it
/// there because this target depends on it), else `.build/debug`.
func stackplayBinary() -> URL {
    if let path = ProcessInfo.processInfo.environment["STACKPLAY_BIN"] { return URL(fileURLWithPath: path) }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("stackplay")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/stackplay")
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The fixture scripts, as paths relative to the package root (the working directory of runs).
let fixtures = "Tests/StackplayTests/Fixtures"

/// What one run printed and how it exited, streams kept apart.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `stackplay arguments` in the package root.
func stackplay(_ arguments: String...) throws -> Run { try stackplay(arguments: arguments) }

/// Runs `stackplay arguments` in `directory` without `CI` in its environment, so that missing
/// golden traces are recorded, not failures.
func stackplayRecording(_ arguments: [String], in directory: URL = packageRoot) throws -> Run {
    try stackplay(arguments: arguments, in: directory, removing: ["CI"])
}

/// Runs `stackplay arguments` in `directory` (the package root by default) with `environment`
/// added to this process's and the variables in `removing` taken out (`["CI"]` for a run that
/// must record golden traces: CI runs this suite with `CI=true`). stdout and stderr are read on
/// their own threads, so a long report on one stream cannot fill its pipe and block the child.
/// `timeout`: the seconds after which a run that has not ended is stopped (SIGTERM), so that one
/// that blocks fails its test; long searches (`mutate --suggest`) give more under a loaded suite.
func stackplay(
    arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:],
    removing: [String] = [], timeout: Double = 120
) throws -> Run {
    // CI's own `CI=true` would make every run strict (no golden writes, no only()): tests that
    // mean CI pass it in `environment`.
    var merged = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }.merging(environment) { $1 }
    for name in removing { merged[name] = nil }
    return try Spawned.start(stackplayBinary().path, arguments, in: directory.path, environment: merged)
        .finish(timeout: timeout)
}

/// Everything until the end of `handle`, read with read(2) and retried on EINTR (Foundation's
/// `readDataToEndOfFile` traps when a signal, such as a child's SIGCHLD, interrupts it).
func readToEnd(_ handle: FileHandle) -> Data { readDescriptor(handle.fileDescriptor) }

/// A fresh temporary folder holding `files` (relative path → text); removed by the caller with
/// `try? FileManager.default.removeItem(at:)`.
func temporaryFolder(_ files: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "stackplay-e2e-\(UUID().uuidString)")
    for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Writes `files` (relative path → text) under `folder` from a child process, never from the test
/// process: for tests whose stackplay watches the files. Other tests fork workers without exec
/// meanwhile, and a fork that copied a descriptor of ours open for writing closes it when that
/// worker ends, which inotify reports as a save made long after the write.
func writeFromChild(_ files: [String: String], in folder: URL) throws {
    for (path, text) in files.sorted(by: { $0.key < $1.key }) {
        let result = try Spawned.start(
            "/bin/sh", ["-c", #"mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1""#, "sh", path, text],
            in: folder.path, environment: [:]
        ).finish()
        guard result.status == 0 else {
            throw FixtureError(message: "cannot write \(path) under \(folder.path): \(result.stderr)")
        }
    }
}

/// The 1-based line of `fixture` that contains `marker`, so tests need not hard-code line numbers.
func line(of marker: String, in fixture: String) throws -> Int {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(fixture), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.firstIndex(where: { $0.contains(marker) }) else {
        throw FixtureError(message: "\(fixture) has no line with '\(marker)'")
    }
    return index + 1
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs `script` (the text of `x.lua`) in a fresh folder with `arguments` before the file name;
/// `files` are added beside it.
func runScript(
    _ script: String, _ arguments: [String] = [], files: [String: String] = [:],
    environment: [String: String] = [:]
) throws -> Run {
    let folder = try temporaryFolder(files.merging(["x.lua": script]) { $1 })
    defer { try? FileManager.default.removeItem(at: folder) }
    return try stackplay(arguments: arguments + ["x.lua"], in: folder, environment: environment)
}

/// Whether this test process (and so the `stackplay` built beside it) runs under AddressSanitizer:
/// its runtime's entry point is there. Such a build makes a fresh state for each test (no
/// snapshot-restored states: ASan must see every block of Lua's heap).
let builtWithAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

/// Runs python3 with `script` and `arguments`; what it printed (stdout and stderr) and its exit status.
func python(_ script: String, _ arguments: [String]) throws -> (String, Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let text = String(decoding: readToEnd(out.fileHandleForReading), as: UTF8.self)
    process.waitUntilExit()
    return (text, process.terminationStatus)
}
