import Foundation

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

/// Runs `stackplay arguments` in the package root. Outputs here are small, so reading stdout
/// to its end before stderr cannot fill a pipe and block the child.
func stackplay(arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = stackplayBinary()
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outText = out.fileHandleForReading.readDataToEndOfFile()
    let errText = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: outText, as: UTF8.self),
        stderr: String(decoding: errText, as: UTF8.self))
}
