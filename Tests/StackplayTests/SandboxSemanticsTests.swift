import Foundation
import Testing

/// Issue 22, end to end through the binary: the sandbox is Lua 5.4, changed only where it must be.
@Suite struct SandboxSemanticsTests {
    /// Runs `files` (name → text) with `arguments` in a fresh folder.
    func run(_ files: [String: String], _ arguments: [String]) throws -> Run {
        let folder = try temporaryFolder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try stackplay(arguments: arguments, in: folder)
    }

    @Test func `a replaced function's argument error is the failure headline at the script's line`() throws {
        let result = try run(
            ["f.lua": "test('formats', function()\n  local s = string.format('%d', 'x')\nend)\n"], ["f.lua"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("f.lua:2: bad argument #2 to 'format' (number expected, got string)"))
        #expect(!result.stderr.contains("sandbox"))
    }

    @Test func `a CPU-budget stop inside a traversal is reported at the script's line`() throws {
        let script = """
            test('spins', function()
              local t = {}
              for i = 1, 1000 do t['k' .. i] = i end
              while true do
                for k in pairs(t) do end
              end
            end)
            """
        let result = try run(["spin.lua": script], ["--cpu-budget", "0.3", "spin.lua"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("spin.lua:5: stopped: the script used its 0.3 s of CPU time"))
        #expect(!result.stderr.contains("sandbox"))
    }

    @Test func `warn output is the test's captured output, after warn("@on")`() throws {
        let script = "test('warns', function() warn('hidden') warn('@on') warn('shown ', 'twice') end)\n"
        let result = try run(["w.lua": script], ["--json", "w.lua"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""output":"Lua warning: shown twice\n""#))
    }

    @Test func `table.sort of an organ-pipe array calls its comparator the same way on every run`() throws {
        // Stock Lua 5.4 takes a clock-seeded pivot for this input: its comparator calls differ
        // from run to run, and `--repeat` flags the printed count.
        let script = """
            test('sorts', function()
              local list, calls = {}, 0
              for i = 1, 20000 do list[i] = i < 10000 and i or 20000 - i end
              table.sort(list, function(a, b) calls = calls + 1 return a < b end)
              print(calls, list[1], list[20000])
            end)
            """
        let result = try run(["s.lua": script], ["--repeat", "3", "s.lua"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("| 365367\t0\t10000"))
    }

    @Test func `printed names never show an address, with or without a width`() throws {
        let script = """
            test('names', function()
              print(string.format('%20p|%-20p|%p', {}, 'text', print), tostring(coroutine.create(print)))
            end)
            """
        let result = try run(["p.lua": script], ["p.lua"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("             table: 1|string: 2           |function: 3\tthread: 4"))
        #expect(!result.stdout.contains("0x"))
    }
}
