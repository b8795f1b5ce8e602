import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay studio` as a user starts it, and `--list --json`, which its Tests pane reads.
@Suite struct StudioCommandTests {
    @Test func `--list --json: each test's file, name, position and tags, one JSON document`() throws {
        let folder = try temporaryFolder([
            "a.lua": "test(\"one\", { tags = { \"rtl\" } }, function() end)\ntest(\"two\", function() end)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--list", "--json", "a.lua"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout
                == "{\"tests\":[{\"file\":\"a.lua\",\"name\":\"one\",\"position\":\"a.lua:1\",\"tags\":[\"rtl\"],\"skipped\":false},"
                + "{\"file\":\"a.lua\",\"name\":\"two\",\"position\":\"a.lua:2\",\"tags\":[],\"skipped\":false}],\"broken\":[]}\n"
        )
    }

    @Test func `a bad studio option is a usage error naming it`() throws {
        let run = try stackplay(arguments: ["studio", "--port", "http"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("--port: a port number 0...65535 expected, got 'http'"))
    }

    /// curl's status code for a request to the studio (`-H` headers as given).
    func status(_ url: String, _ headers: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}"] + headers.flatMap { ["-H", $0] } + [url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        return String(decoding: readToEnd(out.fileHandleForReading), as: UTF8.self)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func
        `the studio listens on 127.0.0.1 behind its token, refuses a foreign Host, and outlives a bad request`()
        throws
    {
        let folder = try temporaryFolder(["a.lua": "test(\"one\", function() end)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = stackplayBinary()
        process.arguments = ["studio", folder.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // The first line: `stackplay studio: http://127.0.0.1:PORT/?token=HEX`.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            var byte: UInt8 = 0
            guard read(out.fileHandleForReading.fileDescriptor, &byte, 1) == 1 else { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})/))
        let base = "http://127.0.0.1:\(match.output.1)"
        let token = String(match.output.2)
        #expect(try status("\(base)/?token=\(token)") == "200")
        #expect(try status("\(base)/") == "403")
        #expect(try status("\(base)/?token=\(String(repeating: "0", count: 64))") == "403")
        #expect(try status("\(base)/?token=\(token)", ["Host: rebound.example:\(match.output.1)"]) == "403")
        #expect(try status("\(base)/?token=\(token)", ["Origin: http://evil.example"]) == "403")
        #expect(try status("\(base)/viewer?token=\(token)&file=a.lua&test=nothing") == "404")
        let huge = String(repeating: "x", count: 40_000)
        #expect(try status("\(base)/?token=\(token)", ["X-Padding: \(huge)"]).hasPrefix("4"))
        #expect(try status("\(base)/?token=\(token)") == "200", "the server goes on after a bad request")
    }
}
