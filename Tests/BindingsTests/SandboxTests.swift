import LuaRuntime
import Foundation
import Testing

@testable import Bindings

extension BindingsTests {
    @Suite struct SandboxRules {
        @Test(arguments: [
            "io", "package", "debug", "dofile", "loadfile", "os.execute", "os.exit", "os.getenv",
            "os.remove", "require and nil",
        ])
        func dangerousGlobalsAreNil(name: String) throws {
            let lua = try makeState()
            #expect(try lua.run("return \(name) == nil")[0].boolean == true)
        }

        @Test func allowedLibrariesAreThere() throws {
            let lua = try makeState()
            let code =
                "return type(string.format), type(table.sort), type(math.floor), type(utf8.char), "
                + "type(coroutine.wrap), type(os.clock), type(os.time), type(os.date), stackplay.version"
            let results = try lua.run(code)
            #expect(results.dropLast().allSatisfy { $0.string == "function" })
            #expect(results.last?.string == StackplayVersion.string)
        }

        @Test func loadRefusesBinaryChunks() throws {
            let lua = try makeState()
            let results = try lua.run("return load(string.dump(function() end))")
            #expect(results[0].string == nil)
            #expect(results[1].string?.contains("attempt to load a binary chunk") == true)
            #expect(try lua.run("return load('return 1 + 1')()")[0].number == 2)
            #expect(try lua.run("return load('return x', 'c', 'b', {x = 7})()")[0].number == 7)
        }

        func scriptsFolder() throws -> URL {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("stackplay-\(UUID())")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("helpers"), withIntermediateDirectories: true)
            try "loads = (loads or 0) + 1\nreturn { swipe = function(n) return n * 2 end }"
                .write(
                    to: root.appendingPathComponent("helpers/swipe.lua"), atomically: true, encoding: .utf8)
            try "return 'outside'".write(
                to: root.deletingLastPathComponent().appendingPathComponent("x.lua"), atomically: true,
                encoding: .utf8)
            return root
        }

        @Test func requireLoadsHelpersOnceFromTheTree() throws {
            let root = try scriptsFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let lua = try makeState(root: root.path)
            let results = try lua.run(
                """
                local a = require "helpers.swipe"
                local b = require "helpers.swipe"
                return a.swipe(21), a == b, loads
                """)
            #expect(results[0].number == 42)
            #expect(results[1].boolean == true)
            #expect(results[2].number == 1)
        }

        @Test(arguments: ["../x", "..x", "/etc/passwd", "helpers/swipe", "helpers..swipe", "", "nope"])
        func requireRefusesNamesOutsideTheTree(name: String) throws {
            let root = try scriptsFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let lua = try makeState(root: root.path)
            let results = try lua.run("return pcall(require, '\(name)')")
            #expect(results[0].boolean == false)
            #expect(results[1].string?.contains("module '\(name)' not found") == true)
        }

        @Test func requireReportsTheCallersLine() throws {
            let lua = try makeState(root: try scriptsFolder().path)
            let failure = try #require(runFailure(of: "\nrequire '../x'", in: lua))
            #expect(failure.message.hasPrefix("test.lua:2: module '../x' not found: "))
        }
    }
}
