import Foundation
import LuaRuntime
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

    @Test func `the embedded bytecode is the Lua files as this Lua compiles them, byte for byte`() throws {
        // Another release compiles the same text to other bytes, and runs the source instead
        // (make drift then compares the texts' digests): nothing to compare here.
        guard LuaRelease.loads(bytecodeOf: EmbeddedChunk.prelude.release) else { return }
        let lua = try LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0))
        for chunk in [EmbeddedChunk.sandbox, .values, .prelude, .explore] {
            let compiled = try lua.compile(chunk.source, name: chunk.name)
            #expect(chunk.bytecode.count > 100, "\(chunk.name) holds no bytecode")
            #expect(Array(chunk.bytecode) == compiled, "\(chunk.name)'s bytecode is stale: run `make lua`")
        }
    }

    @Test func `a chunk whose bytecode does not load in this Lua runs from its source`() throws {
        // Bytecode of another format (here: not bytecode at all past its signature) is refused
        // by the loader; the state still gets the chunk, from its source.
        struct Foreign: LuaEmbeddedChunk {
            nonisolated(unsafe) static let bytes: UnsafeRawBufferPointer = {
                let text = Array("\u{1B}Lua not this version".utf8)
                let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 1)
                bytes.copyBytes(from: text)
                return UnsafeRawBufferPointer(bytes)
            }()
            let name = "=foreign.lua"
            let source = "answer = 42"
            var bytecode: UnsafeRawBufferPointer { Self.bytes }
            var release: String { LuaRelease.running }
        }
        let lua = try LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0))
        try lua.run(embedded: Foreign(), arguments: [])
        let answer = try lua.run("return answer")
        guard case .integer(42) = answer.first else {
            Issue.record("the chunk did not run from its source: \(answer)")
            return
        }
    }

    /// A chunk whose bytecode says one thing and whose source another, to see which one ran.
    struct Telltale: LuaEmbeddedChunk {
        nonisolated(unsafe) static let compiled: UnsafeRawBufferPointer = {
            let lua = try! LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0))
            let bytes = try! lua.compile("ran = 'bytecode'", name: "=telltale.lua")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            return UnsafeRawBufferPointer(buffer)
        }()
        let release: String
        let name = "=telltale.lua"
        let source = "ran = 'source'"
        var bytecode: UnsafeRawBufferPointer { Self.compiled }
    }

    /// Which of a ``Telltale``'s two texts ran.
    static func ran(in lua: LuaState) throws -> String? {
        guard case .string(let text) = try lua.run("return ran").first else { return nil }
        return text
    }

    @Test func `bytecode compiled by this release is loaded without parsing`() throws {
        let lua = try LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0))
        try lua.run(embedded: Telltale(release: LuaRelease.running), arguments: [])
        #expect(try Self.ran(in: lua) == "bytecode")
    }

    @Test(arguments: ["5.4.6", "5.4.8", "5.4.0", ""])
    func `bytecode another release compiled runs from its source`(release: String) throws {
        // The header of 5.4.x bytecode is the same in every release, so the loader would take
        // 5.4.4's bytes on 5.4.6: the release recorded beside them decides (issue 42).
        let lua = try LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0))
        let other = release == LuaRelease.running ? "5.4.99" : release
        try lua.run(embedded: Telltale(release: other), arguments: [])
        #expect(try Self.ran(in: lua) == "source")
    }

    @Test func `the running release is read from the linked library's ident`() {
        #expect(
            LuaRelease.release(inIdent: "$LuaVersion: Lua 5.4.6  Copyright (C) 1994-2023 Lua.org, PUC-Rio $")
                == "5.4.6")
        #expect(LuaRelease.release(inIdent: "nothing here") == "")
        #expect(LuaRelease.running.hasPrefix("5.4."))
        #expect(EmbeddedChunk.prelude.release.hasPrefix("5.4."))
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
