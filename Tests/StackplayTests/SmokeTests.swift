import Foundation
import Testing

/// Runs the built `stackplay` binary, which SwiftPM puts beside the test bundle.
func stackplayBinary() -> URL {
    if let path = ProcessInfo.processInfo.environment["STACKPLAY_BIN"] { return URL(fileURLWithPath: path) }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("stackplay")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug/stackplay").standardized
}

@Test func binaryRuns() throws {
    let process = Process()
    process.executableURL = stackplayBinary()
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(text.contains("Lua 5.4"))
}
