import Foundation
import StackModel
import Testing

@testable import Traces

/// The viewer page: its CSS and JS are the files in Sources/Traces/Viewer/, its traces deflated.
@Suite struct TraceViewerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func `the embedded viewer is the files in Sources/Traces/Viewer, byte for byte`() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources/Traces/Viewer").path
        ).sorted()
        #expect(onDisk.map { "Sources/Traces/Viewer/\($0)" } == EmbeddedViewer.files.map(\.path))
        for file in EmbeddedViewer.files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file.path), encoding: .utf8)
            #expect(text == file.text + "\n", "\(file.path) changed: run `make viewer`")
        }
    }

    /// Python's zlib inflates what Deflate wrote (raw DEFLATE, as the browser's
    /// DecompressionStream("deflate-raw") reads it).
    func inflate(_ base64: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sys,zlib,base64;sys.stdout.buffer.write(zlib.decompress(base64.b64decode(sys.stdin.read()),-15))",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(base64.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: [
        "", "a", "ab", "abcabcabcabcabcabc", String(repeating: "{\"x\":1.5,\"y\":[1,2,3]}\n", count: 3000),
        (0..<5000).map { "é\($0 * 7919 % 1013)→" }.joined(),
    ])
    func `Deflate and Base64 read back as the same bytes`(text: String) throws {
        let packed = Deflate.base64(Deflate.compress(Array(text.utf8)))
        #expect(try inflate(packed) == text)
        #expect(Deflate.base64(Array("Man".utf8)) == "TWFu")
        #expect(Deflate.base64(Array("Ma".utf8)) == "TWE=")
    }

    @Test func `repetitive JSON Lines shrink`() {
        let line =
            "{\"i\":0,\"t\":0.25,\"type\":\"advance\",\"frame\":{\"cards\":[{\"id\":\"a\",\"x\":16}]}}\n"
        let text = String(repeating: line, count: 200)
        #expect(Deflate.compress(Array(text.utf8)).count < text.utf8.count / 20)
    }

    @Test func `the page holds the run as data: names escaped, the same bytes every time`() {
        let tests = [
            TraceViewer.Test(
                name: "a.lua: </script><b>", status: .failed, seconds: 0.5, message: "x < y",
                screens: [.init(name: "a.jsonl", trace: "{}\n", golden: "{}\n")]),
            TraceViewer.Test(name: "b.lua", status: .passed, screens: []),
        ]
        let page = TraceViewer.html(tests)
        #expect(page == TraceViewer.html(tests))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("</script><b>"))
        #expect(page.contains("a.lua: \\u003c/script>\\u003cb>"))
        #expect(page.contains("\"status\":\"failed\",\"seconds\":0.5"))
        #expect(page.contains("\"seconds\":null"))
        #expect(page.contains("id=\"t0-0\"") && page.contains("id=\"g0-0\""))
        #expect(!page.contains("http://") || !page.contains("src=\"http"))
        #expect(!page.contains("<script src") && !page.contains("<link"))
    }

    @Test func `the page holds each test's printed output and each source text once`() {
        let script = "test(\"a\", function()\n  print(\"</script>\")\nend)\n"
        let tests = [
            TraceViewer.Test(
                name: "a.lua: a", status: .failed, message: "a.lua:2: boom", screens: [], output: "hello\n",
                sources: ["a.lua": script]),
            TraceViewer.Test(name: "a.lua: b", status: .passed, screens: [], sources: ["a.lua": script]),
        ]
        let page = TraceViewer.html(tests)
        #expect(page.contains("\"output\":\"hello\\n\",\"sources\":{\"a.lua\":\"s0\"}"))
        #expect(page.contains("\"output\":\"\",\"sources\":{\"a.lua\":\"s0\"}"))
        // One blob for the text both tests show, deflated like the traces: no raw `</script>`.
        #expect(page.components(separatedBy: "id=\"s0\" data-encoding").count == 2)
        #expect(!page.contains("id=\"s1\""))
        #expect(!page.contains("print(\"</script>\")"))
        let blob = page.split(separator: "id=\"s0\" data-encoding=\"deflate-raw;base64\">")[1].prefix {
            $0 != "<"
        }
        #expect(Deflate.base64(Deflate.compress(Array(script.utf8))) == String(blob))
    }

    @Test func `a test's sources are its script and the files its actions name that it read`() throws {
        let folder = NSTemporaryDirectory() + "stackplay-sources-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "-- the script\n".write(toFile: "\(folder)/a.lua", atomically: true, encoding: .utf8)
        try "-- a helper\n".write(toFile: "\(folder)/helper.lua", atomically: true, encoding: .utf8)
        let screen = try Screen()
        try screen.add(WalletCardStack(cards: [CardSpec(id: "a", height: 200)]))
        let call = TraceCall(serial: 1, method: "advance", file: "\(folder)/helper.lua", line: 1, source: "")
        let recorder = TraceRecorder(screen: screen, stackplay: "test", calls: { call })
        try screen.advance(by: 0.1)
        let sources = TraceViewer.sources(of: [recorder.text, "not a trace"], script: "\(folder)/a.lua") {
            TraceViewer.isModule($0, under: folder)
        }
        #expect(sources == ["\(folder)/a.lua": "-- the script\n", "\(folder)/helper.lua": "-- a helper\n"])
        #expect(TraceViewer.sources(of: [], script: "\(folder)/missing.lua") { _ in true } == [:])
        // a file the command did not read is never embedded, whatever the trace names
        let alone = TraceViewer.sources(of: [recorder.text], script: "\(folder)/a.lua") { _ in false }
        #expect(alone == ["\(folder)/a.lua": "-- the script\n"])
        #expect(!TraceViewer.isModule("\(folder)/helper.lua", under: folder + "/sub"))
        #expect(!TraceViewer.isModule("/etc/passwd", under: "/"), "only .lua files")
    }
}
