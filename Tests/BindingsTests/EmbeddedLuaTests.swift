import Foundation
import TestResults
import Testing

@testable import Bindings
@testable import StackplayRunner

/// stackplay's own Lua lives in Sources/Bindings/Lua/*.lua; `make lua` copies it into
/// EmbeddedLua.swift. This keeps the two equal.
@Suite struct EmbeddedLuaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func `the embedded Lua is the Lua files, byte for byte`() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources/Bindings/Lua").path
        ).filter { $0.hasSuffix(".lua") }.sorted()
        #expect(onDisk.map { "Sources/Bindings/Lua/\($0)" } == EmbeddedLua.files.map(\.path))
        for file in EmbeddedLua.files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file.path), encoding: .utf8)
            #expect(text == file.text + "\n", "\(file.path) changed: run `make lua`")
        }
    }

    @Test func `the embedded chunks compile`() throws {
        #expect(EmbeddedChunk.sandbox.bytecode != nil)
        #expect(EmbeddedChunk.prelude.bytecode != nil)
    }

    @Test func `errors inside the prelude name its file and line`() throws {
        let lua = try makeState()
        let failure = runFailure(of: "expect(1):to_be_near(1, -1)", in: lua)
        #expect(
            failure?.message
                == "test.lua:1: bad argument #2 to 'to_be_near' (tolerance must be a number >= 0, got -1)")
        let traceback = try #require(failure?.traceback)
        #expect(traceback.contains("stackplay/prelude.lua:"))
    }

    @Test func `the flake detector names the first difference`() {
        let test = TestCase(
            file: "f.lua", root: nil, name: "t", position: "f.lua:1", index: 1, skipped: false)
        let a = TestResult(test: test, status: .passed, output: "1\n2\n")
        var b = a
        b.output = "1\n3\n"
        #expect(TestRunner.difference(a, b) == "the output: line 2 was '2', then '3'")
        b = a
        b.status = .failed
        b.message = "f.lua:1: boom"
        #expect(TestRunner.difference(a, b) == "it passed then failed (f.lua:1: boom)")
        b = a
        b.traces = ["x"]
        #expect(TestRunner.difference(a, b) == "it made 0 recorded screens then 1")
        #expect(TestRunner.difference(a, a) == nil)
    }

    @Test func `seeds depend on the run seed, the file and the name only`() {
        #expect(RunSeed.seed(0, file: "a.lua", name: "t") == RunSeed.seed(0, file: "a.lua", name: "t"))
        #expect(RunSeed.seed(0, file: "a.lua", name: "t") != RunSeed.seed(1, file: "a.lua", name: "t"))
        #expect(RunSeed.seed(0, file: "a.lua", name: "t") != RunSeed.seed(0, file: "a.lua", name: "u"))
        #expect(RunSeed.seed(0, file: "ab", name: "") != RunSeed.seed(0, file: "a", name: "b"))
        #expect(RunSeed.seed(5, file: "a.lua", name: "t") < 1 << 32)
    }
}
