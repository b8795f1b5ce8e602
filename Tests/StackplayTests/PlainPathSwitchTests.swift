import Foundation
import Testing

/// The `STACKPLAY_*` switches that turn a speed trick off (docs/design/speed-tricks.md) read by one
/// rule: on when set to anything but "" and "0" (issue 42). And with every trick off, a run prints
/// what it prints with every trick on.
@Suite struct PlainPathSwitchTests {
    /// Tables whose `pairs` order the layout reading and `lua_next` must agree on, changed between
    /// traversals (keys added, removed, a key set again), and a run that forks workers.
    static let script = """
        local t = { 10, 20, 30, x = 1, y = 2, [true] = "t", [2.5] = "f" }
        local function keys(tab)
          local out = {}
          for k, v in pairs(tab) do out[#out + 1] = tostring(k) .. "=" .. tostring(v) end
          return table.concat(out, " ")
        end
        test("order", function() print(keys(t)) end)
        test("order after changes", function()
          t.z = 3; t.x = nil; t[4] = 40; t.y = 5
          print(keys(t))
          local big = {}
          for i = 1, 2000 do big["k" .. i] = i end
          for i = 1, 2000, 3 do big["k" .. i] = nil end
          local n, sum = 0, 0
          for _, v in pairs(big) do n = n + 1; sum = sum + v end
          print(n, sum, next(big))
        end)

        """

    static let plain = [
        "STACKPLAY_FRESH_STATES": "1", "STACKPLAY_NO_USERFAULTFD": "1", "STACKPLAY_EAGER_SNAPSHOTS": "1",
        "STACKPLAY_PLAIN_NEXT": "1", "STACKPLAY_LOAD_IN_WORKER": "1",
    ]

    @Test func `every trick off prints what every trick on prints`() throws {
        let folder = try temporaryFolder(["a.lua": Self.script, "b.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["--jobs", "2", "--verbose", folder.path]
        let fast = try stackplay(arguments: arguments)
        let plain = try stackplay(arguments: arguments, environment: Self.plain)
        #expect(fast.status == 0, "\(fast.stdout)\(fast.stderr)")
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(fast.stdout.contains("=") && fast.stdout.contains("1333"), "\(fast.stdout)")
        let timeless = { (text: String) in
            text.split(separator: "\n").filter { !$0.contains(" ms") && !$0.contains(" s)") }
        }
        #expect(timeless(plain.stdout) == timeless(fast.stdout))
        #expect(
            !fast.stderr.contains("cannot start a worker process"), "the command has one thread when it forks"
        )
    }

    @Test func `a switch set to 0 or to nothing is off, and to any other value on`() throws {
        let folder = try temporaryFolder(["a.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["--jobs", "1", "--verbose", folder.appendingPathComponent("a.lua").path]
        for value in ["0", ""] {
            let run = try stackplay(arguments: arguments, environment: ["STACKPLAY_FRESH_STATES": value])
            #expect(run.status == 0)
            #expect(!run.stderr.contains("fresh Lua state"), "STACKPLAY_FRESH_STATES=\(value)")
        }
        let on = try stackplay(arguments: arguments, environment: ["STACKPLAY_FRESH_STATES": "yes"])
        #expect(on.status == 0)
        #expect(
            on.stderr.contains("every test runs in a fresh Lua state (STACKPLAY_FRESH_STATES=yes)"),
            "\(on.stderr)")
    }
}
