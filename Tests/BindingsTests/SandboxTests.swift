import CLua
import CLuaSandbox
import Foundation
import LuaRuntime
import Testing

@testable import Bindings

extension BindingsTests {
    @Suite struct SandboxRules {
        @Test(arguments: [
            "io.popen", "io.tmpfile", "os.tmpname", "debug.sethook", "debug.getlocal", "debug.getuservalue",
            "debug.getregistry", "package.loadlib", "dofile", "loadfile", "os.execute", "os.exit",
            "os.getenv",
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
            #expect(try lua.run("return load('return x', 'c', 't', {x = 7})()")[0].number == 7)
            let text = try lua.run("return load('return 1', 'c', 'b')")
            #expect(text[0].string == nil)
            #expect(text[1].string == "attempt to load a text chunk (mode is 'b')")
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

        @Test func requireTakesSlashesAsStockDoes() throws {
            let root = try scriptsFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let lua = try makeState(root: root.path)
            let results = try lua.run("local m, file = require 'helpers/swipe'; return m.swipe(2), file")
            #expect(results[0].number == 4)
            #expect(results[1].string == root.path + "/helpers/swipe.lua")
        }

        @Test(arguments: ["../x", "..x", "/etc/passwd", "", "nope"])
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
            #expect(
                failure.message.hasPrefix("test.lua:2: module '../x' not found:\n\tno field package.preload"))
        }
    }
}

extension BindingsTests {
    /// The deterministic library of sandbox.c: the manual's rules, stock's errors, numbered names.
    @Suite struct DeterministicLibrary {
        /// The strings `code` returns, in order.
        func strings(_ code: String) throws -> [String] {
            try makeState().run(code).map { $0.string ?? "<\($0)>" }
        }

        @Test func `pairs and next visit numbers, then strings bytewise, then booleans, then objects`() throws
        {
            let code = """
                local a, b = {}, {}
                local _ = tostring(b) .. tostring(a)
                local t = { zeta = 1, alpha = 2, ["Z"] = 3, [10] = 4, [2] = 5, [true] = 6, [false] = 7, [2.5] = 8,
                  [-1.5] = 9, [a] = 10, [b] = 11, ["alpha\\0"] = 12 }
                local out = {}
                for k in pairs(t) do out[#out + 1] = k == a and "a" or k == b and "b" or tostring(k) end
                return table.concat(out, " ")
                """
            #expect(try strings(code) == ["-1.5 2 2.5 10 Z alpha alpha\0 zeta false true b a"])
        }

        @Test func `a traversal of 10^5 strings and integers visits each key once, in order`() throws {
            let code = """
                local t = {}
                for i = 1, 70000 do t[("%x%d"):format((i * 2654435761) % 4294967296, i)] = i; t[i * 7 - 300000] = i end
                local last_string, last_number, ordered, n = nil, nil, true, 0
                for k in pairs(t) do
                  n = n + 1
                  if type(k) == "string" then
                    if last_string and not (last_string < k) then ordered = false end
                    last_string = k
                  else
                    if (last_number and not (last_number < k)) or last_string then ordered = false end
                    last_number = k
                  end
                end
                return tostring(n), tostring(ordered)
                """
            #expect(try strings(code) == ["140000", "true"])
        }

        /// 5,000 keys under a 1 s budget: sorting the rest again at each `next(t)` takes seconds; one
        /// scan a step is well under it.
        @Test func `clearing fields during a traversal works, next(t) sees the table as it is, sorting once`()
            throws
        {
            let code = """
                local t = {}
                for i = 1, 5000 do t["k" .. i] = i end
                local seen, emptied = 0, 0
                for k in pairs(t) do
                  t[k] = nil
                  seen = seen + 1
                  if next(t) == nil then emptied = seen end
                  if seen % 97 == 0 then collectgarbage() end
                end
                return tostring(seen), tostring(emptied)
                """
            // The plain path (STACKPLAY_PLAIN_NEXT: no layout reading, `make plain`) checks the order
            // against the table through lua_next at each `next(t)`, a hash lookup a key (about 2.4 s
            // of CPU here in a debug build): still one sort, but not within 1 s.
            let plain = ProcessInfo.processInfo.environment["STACKPLAY_PLAIN_NEXT"].map {
                !["", "0"].contains($0)
            }
            let lua = try makeState(budget: LuaBudget(cpuSeconds: plain == true ? 20 : 1, memoryMiB: 256))
            #expect(try lua.run(code).map { $0.string ?? "" } == ["5000", "5000"])
        }

        @Test func `a traversal stopped early keeps no key of a weak table alive`() throws {
            let code = """
                local weak = setmetatable({}, { __mode = "k" })
                for i = 1, 100 do weak[{}] = i end
                for _ in pairs(weak) do break end
                local empty = next(weak) == nil
                collectgarbage()
                collectgarbage()
                return tostring(next(weak)), tostring(empty)
                """
            #expect(try strings(code) == ["nil", "false"])
        }

        @Test func `next refuses a key that was never in the table, as stock does`() throws {
            let code = "return select(2, pcall(next, { a = 1 }, 'b')), select(2, pcall(next, {}, 1))"
            #expect(try strings(code) == ["invalid key to 'next'", "invalid key to 'next'"])
        }

        @Test(arguments: [
            ("pcall(pairs)", "bad argument #1 to 'pairs' (value expected)"),
            ("pcall(tostring)", "bad argument #1 to 'tostring' (value expected)"),
            ("pcall(next)", "bad argument #1 to 'next' (table expected, got no value)"),
            (
                "pcall(setmetatable, {})",
                "bad argument #2 to 'setmetatable' (nil or table expected, got no value)"
            ),
            (
                "pcall(string.format, '%d', 'x')",
                "bad argument #2 to 'string.format' (number expected, got string)"
            ),
            (
                "pcall(function() return ('%d'):format('x') end)",
                "(string):1: bad argument #1 to 'format' (number expected, got string)"
            ),
            (
                "pcall(function() for k in pairs(42) do end end)",
                "(string):1: bad argument #1 to 'for iterator' (table expected, got number)"
            ),
            (
                "pcall(os.time, { year = math.maxinteger, month = 1, day = 1 })",
                "field 'year' is out-of-bound"
            ),
            (
                "pcall(table.sort, { 3, 2, 1, 4, 5 }, function() return true end)",
                "invalid order function for sorting"
            ),
            ("pcall(string.dump, require)", "unable to dump given function"),
            ("pcall(string.dump, pairs)", "unable to dump given function"),
        ])
        func `argument errors are stock Lua's`(call: String, message: String) throws {
            #expect(try strings("return select(2, \(call))") == [message])
        }

        @Test func `a non-string error value passes through pairs untouched`() throws {
            let code = """
                local ok, e = pcall(pairs, setmetatable({}, { __pairs = function() error({ code = 7 }) end }))
                return type(e), tostring(e.code)
                """
            #expect(try strings(code) == ["table", "7"])
        }

        @Test func `tostring keeps a __tostring result, and names objects by number`() throws {
            let code = """
                local c = setmetatable({}, { __tostring = function() return "Color: 0xff00ff" end })
                return tostring(c), string.format("%s", c), tostring({}), string.format("%p|%-9p|%8p", {}, "s", 1)
                """
            #expect(
                try strings(code) == [
                    "Color: 0xff00ff", "Color: 0xff00ff", "table: 1", "table: 2|string: 3|  (null)",
                ])
        }

        @Test func `percent p honours its width and refuses what stock refuses, never showing an address`()
            throws
        {
            let code = """
                return tostring(#string.format("%20p", {})), select(2, pcall(string.format, "%.3p", {})),
                  string.format("%-20p|", "text")
                """
            let results = try strings(code)
            #expect(results[0] == "20")
            #expect(results[1] == "invalid conversion specification: '%.3p'")
            #expect(results[2] == "string: 2           |")
        }

        @Test func `os.time normalises its table as stock does on a UTC machine`() throws {
            let code = """
                local t = { year = 2020, month = 13, day = 1, isdst = true }
                local time = os.time(t)
                return tostring(time), tostring(t.year), tostring(t.month), tostring(t.wday), tostring(t.yday),
                  tostring(t.isdst), tostring(os.time { year = "2000", month = "1", day = "1", hour = "0" }),
                  os.date("%Z %z", 0), os.date(1), os.date()
                """
            #expect(
                try strings(code) == [
                    "1609498800", "2021", "1", "6", "1", "false", "946684800", "UTC +0000", "1",
                    "Thu Jan  1 00:00:00 2026",
                ])
        }

        @Test func `table.sort is deterministic for unbalanced inputs`() throws {
            let code = """
                local calls = {}
                for run = 1, 2 do
                  local list = {}
                  for i = 1, 2000 do list[i] = i % 7 == 0 and 0 or i end
                  local n = 0
                  table.sort(list, function(a, b) n = n + 1 return a < b end)
                  calls[run] = n
                end
                return tostring(calls[1] == calls[2]), tostring(calls[1])
                """
            let results = try strings(code)
            #expect(results[0] == "true")
        }

        @Test func `warn writes to the test's output once turned on`() throws {
            let lua = try makeState()
            try lua.run("warn('hidden') warn('@on') warn('shown ', 'here') warn('@off') warn('hidden')")
            #expect(lua.session.output.captured == "Lua warning: shown here\n")
        }

        /// What `code` returns in a plain state with the sandbox installed, reading tables by their
        /// layout (sandbox_scan.c) or, as on a Lua whose layout differs, only through lua_next.
        func sandboxed(_ code: String, layout: Bool) throws -> [String] {
            let state = try #require(luaL_newstate())
            defer { lua_close(state) }
            luaL_openlibs(state)
            lua_pushcclosure(state, stackplay_sandbox_install, 0)
            lua_pushcclosure(state, { _ in 0 }, 0)
            lua_pushinteger(state, 0)
            lua_pushboolean(state, layout ? 0 : 1)
            #expect(lua_pcallk(state, 3, 0, 0, 0, nil) == 0)
            return try LuaState(borrowing: state).run(code).map { $0.string ?? "<\($0)>" }
        }

        @Test func `the sandbox reads this Lua's table layout, so next(t) is one pass that reads no key`()
            throws
        {
            let state = try #require(luaL_newstate())
            defer { lua_close(state) }
            luaL_openlibs(state)
            #expect(stackplay_sandbox_reads_layout(state) == 1)
        }

        @Test(arguments: [true, false])
        func `next(t) sees a key set that changed but kept its size, for every kind of key`(layout: Bool)
            throws
        {
            let code = """
                local a, b = {}, {}
                local _ = tostring(a) .. tostring(b)
                local long = ("x"):rep(60)
                local t = { 1, 2, 3, [10] = 1, [2.5] = 1, s = 1, [long] = 1, [true] = 1, [a] = 1 }
                local names = { [a] = "a", [b] = "b", [long] = "long", [long .. "y"] = "longy" }
                local function keys()
                  local out = {}
                  for k in pairs(t) do out[#out + 1] = names[k] or tostring(k) end
                  return table.concat(out, " ")
                end
                local before, first = keys(), { tostring(next(t)) }
                t[1] = nil; t[0] = 1
                first[2] = tostring(next(t))
                t[0] = nil; t[-1.5] = 1
                first[3] = tostring(next(t))
                t[a] = nil; t[b] = 1
                t[long] = nil; t[long .. "y"] = 1
                t[true] = nil; t[false] = 1
                t[2] = 5
                return before, table.concat(first, " "), keys(), tostring(next({}))
                """
            #expect(
                try sandboxed(code, layout: layout) == [
                    "1 2 2.5 3 10 s long true a", "1 0 -1.5", "-1.5 2 2.5 3 10 s longy false b", "nil",
                ])
        }

        @Test(arguments: [true, false])
        func `traversal keeps the manual's rules whether or not it reads the layout`(layout: Bool) throws {
            let code = """
                local t = {}
                for i = 1, 3000 do t["k" .. i] = i; t[i * 2] = i end
                local seen = 0
                for k, v in pairs(t) do
                  seen = seen + 1
                  if type(k) == "number" then t["k" .. v] = nil end -- a later key goes
                  if seen % 997 == 0 then collectgarbage() end
                end
                local first = next(t)
                local weak = setmetatable({}, { __mode = "k" })
                for i = 1, 100 do weak[{}] = i end
                for _ in pairs(weak) do break end
                collectgarbage()
                collectgarbage()
                return tostring(seen), tostring(first), tostring(next(weak)), select(2, pcall(next, { a = 1 }, "b"))
                """
            #expect(try sandboxed(code, layout: layout) == ["3000", "2", "nil", "invalid key to 'next'"])
        }

        @Test func `load of a chunk that overflows the C stack returns a string`() throws {
            let code = "local f, e = load(('('):rep(1e6)) return type(f), type(e), e"
            let results = try makeState().run(code)
            #expect(results[0].string == "nil")
            #expect(results[1].string == "string")
            #expect(results[2].string?.contains("C stack overflow") == true)
        }
    }
}
