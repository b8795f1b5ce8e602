import Foundation
import LuaRuntime
import StackplayRunner
import Testing

@testable import Bindings

extension BindingsTests {
    /// Issue 12: a file of N tests costs about N tests, not N top levels parsed N times.
    @Suite struct LinearSuiteTests {
        /// A fresh folder holding `file.lua` with `text`; the caller removes it.
        static func script(_ text: String) throws -> (folder: String, file: String) {
            let folder = NSTemporaryDirectory() + "stackplay-linear-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/file.lua"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return (folder, file)
        }

        static func tests(_ count: Int) -> String {
            (1...count).map { "test('t\($0)', function() local s = stackplay.screen {} end)" }
                .joined(separator: "\n")
        }

        @Test(arguments: [1, 2, 50])
        func `discovering and running N tests parses the file once`(count: Int) throws {
            let (folder, file) = try Self.script(Self.tests(count))
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let runner = TestRunner()
            let tests = try runner.discover(file: file, root: folder).get()
            #expect(tests.count == count)
            for test in tests { #expect(runner.run(test).status == .passed) }
            #expect(LuaState.parses(of: file) == 1)
        }

        @Test func `a file that changes is parsed again, and its new text runs`() throws {
            let (folder, file) = try Self.script("test('old', function() error('old text') end)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let runner = TestRunner()
            let old = try runner.discover(file: file, root: folder).get()
            #expect(runner.run(old[0]).status == .failed)
            try "test('new', function() end)".write(toFile: file, atomically: true, encoding: .utf8)
            let new = try runner.discover(file: file, root: folder).get()
            #expect(new.map(\.name) == ["new"])
            #expect(runner.run(new[0]).status == .passed)
            #expect(LuaState.parses(of: file) == 2)
        }

        /// A test restores the snapshot of the top level its listing ran, without looking at the
        /// file again: a file rewritten between listing and running runs the text that listed it
        /// (the next listing runs the new text, as the test above shows).
        @Test(
            .enabled(
                if: LuaState.snapshotsAvailable,
                "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"))
        func `the tests of one listing run the text that listed them`() throws {
            let listed = "print('listed text')\ntest('a', function() end)\ntest('b', function() end)"
            let (folder, file) = try Self.script(listed)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let runner = TestRunner()
            let tests = try runner.discover(file: file, root: folder).get()
            let rewritten =
                "print('rewritten text')\ntest('a', function() error('rewritten') end)\ntest('b', function() end)"
            try rewritten.write(toFile: file, atomically: true, encoding: .utf8)
            for test in tests {
                let result = runner.run(test)
                #expect(result.status == .passed)
                #expect(result.output == "listed text\n")
            }
            #expect(LuaState.parses(of: file) == 1)
        }

        @Test func `a second test of the same name still names the first one's line`() throws {
            let (folder, file) = try Self.script(
                "test('a', function() end)\ntest('b', function() end)\ntest('a', function() end)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            guard case .failure(let result) = TestRunner().discover(file: file, root: folder) else {
                Issue.record("a duplicate name was accepted")
                return
            }
            // (Lua shortens a long path from the front: "...file.lua:3:")
            #expect(result.message.contains("file.lua:3: a test called \"a\" is already defined at "))
            #expect(result.message.hasSuffix("file.lua:1"))
        }

        /// Counts the calls of `top_level()` across every state of the process.
        final class Counter: @unchecked Sendable { var runs = 0 }
        struct CountingModule: LuaModule {
            let counter: Counter
            func install(in lua: LuaState) throws {
                let counter = self.counter
                try lua.setGlobal(
                    "top_level",
                    .function("top_level") { _ in
                        counter.runs += 1
                        return []
                    })
            }
        }

        @Test(
            .enabled(
                if: LuaState.snapshotsAvailable,
                "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"))
        func `a file's top level runs once for discovering and running all its tests`() throws {
            let (folder, file) = try Self.script("top_level()\nprint('top')\n" + Self.tests(20))
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let counter = Counter()
            let runner = TestRunner(
                scripts: ScriptRunner(modules: StackplayModules.standard + [CountingModule(counter: counter)])
            )
            let tests = try runner.discover(file: file, root: folder).get()
            #expect(tests.count == 20)
            for test in tests {
                let result = runner.run(test)
                #expect(result.status == .passed)
                #expect(result.output == "top\n")
            }
            #expect(counter.runs == 1)
        }

        @Test func `a whole script is run by its discovery, with the result a run gives`() throws {
            let (folder, file) = try Self.script(
                "top_level()\nprint('whole')\nlocal s = stackplay.screen { record = true }\n")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let counter = Counter()
            let runner = TestRunner(
                scripts: ScriptRunner(modules: StackplayModules.standard + [CountingModule(counter: counter)])
            )
            let discovered = runner.discoverRunning(file: file, root: folder)
            let ran = try #require(discovered.ran)
            #expect(counter.runs == 1)
            let whole = try discovered.outcome.get()
            #expect(whole.count == 1)
            let again = runner.run(whole[0])
            #expect(ran.test == again.test)
            #expect(ran.status == .passed)
            #expect(ran.status == again.status)
            #expect(ran.output == "whole\n")
            #expect(ran.output == again.output)
            #expect(ran.traces.count == 1)
            #expect(ran.traces == again.traces)
            #expect(ran.seed == again.seed)
        }

        @Test func `a test and its mirrored copy run twice in all, not three times`() throws {
            let (folder, file) = try Self.script(
                "test('t', function() top_level(); local s = stackplay.screen {}; s:notification_stack { items = { 'a' } } end)"
            )
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let counter = Counter()
            let runner = TestRunner(
                scripts: ScriptRunner(modules: StackplayModules.standard + [CountingModule(counter: counter)])
            )
            let plain = try #require(try runner.discover(file: file, root: folder).get().first)
            let mirrored = plain.under(plain.variant.mirrored)
            let (first, second) = runner.run(plain: plain, mirrored: mirrored)
            #expect(counter.runs == 2)
            #expect(first.test == plain)
            #expect(second.test == mirrored)
            #expect(first.status == .passed)
            #expect(second.status == .passed)
            #expect(first.traces.isEmpty, "the plain run asked for no trace")
            #expect(second.traces.count == 1, "the mirrored run reports what it compared, as before")
            let alone = runner.run(plain)
            #expect(alone.output == first.output)
            #expect(alone.traces == first.traces)
        }
    }
}
