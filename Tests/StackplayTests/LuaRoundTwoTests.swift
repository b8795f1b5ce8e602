import Foundation
import Testing

/// Issue 39: the budget inside coroutines, `__gc` values that run no code, `require` as the manual
/// says, run end to end through the built binary.
@Suite struct LuaRoundTwoTests {
    @Test(arguments: ["coroutine.wrap(spin)()", "coroutine.resume(coroutine.create(spin))"])
    func `a loop inside a coroutine stops at the CPU budget, at the coroutine's line`(call: String) throws {
        let script =
            "local function spin()\n  local x = 0\n  while true do x = x + 1 end\nend\nprint(pcall(function() \(call) end))\n"
        let started = Date()
        let run = try runScript(script, ["--cpu-budget", "0.5"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("0 passed, 1 failed\n"))
        #expect(run.stderr.hasPrefix("stackplay: x.lua:3: stopped: the script used its 0.5 s of CPU time"))
        #expect(!run.stderr.contains("inside"))
    }

    @Test func `__gc values that run no code are allowed; functions and tables are refused`() throws {
        let script = """
            print(pcall(setmetatable, {}, { __gc = false }), pcall(setmetatable, {}, { __gc = true }))
            print(pcall(setmetatable, {}, { __gc = 1 }))
            print(pcall(setmetatable, {}, { __gc = function() end }))
            print(pcall(setmetatable, {}, { __gc = setmetatable({}, { __call = print }) }))
            print(pcall(debug.setmetatable, {}, { __gc = print }))
            collectgarbage()
            """
        let run = try runScript(script, ["--json"])
        #expect(run.status == 0)
        let lines = try #require(try Self.output(run)).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == "true\ttrue\ttable: 1")
        #expect(lines[1] == "true\ttable: 2")
        #expect(lines[2].hasPrefix("false\tbad argument #2 to 'setmetatable' (stackplay does not run __gc"))
        #expect(lines[3].hasPrefix("false\tbad argument #2 to 'setmetatable' (stackplay does not run __gc"))
        #expect(
            lines[4].hasPrefix("false\tbad argument #2 to ")
                && lines[4].contains("stackplay does not run __gc"))
    }

    /// The output of the first test of a `--json` report.
    static func output(_ run: Run) throws -> String? {
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return ((report?["tests"] as? [[String: Any]])?.first?["output"]) as? String
    }

    @Test func `require finds a package's init.lua, names with slashes, and the standard libraries`() throws {
        let script = """
            local pkg, file = require "pkg"
            print(pkg.value, file, require "sub/mod", require "string" == string)
            print(pcall(require, "missing"))
            """
        let run = try runScript(
            script, ["--json"],
            files: ["pkg/init.lua": "return { value = 7 }\n", "sub/mod.lua": "return 'deep'\n"])
        #expect(run.status == 0)
        let expected = """
            7\t./pkg/init.lua\tdeep\ttrue
            false\tmodule 'missing' not found:
            \tno field package.preload['missing']
            \tno file './missing.lua'
            \tno file './missing/init.lua'

            """
        #expect(try Self.output(run) == expected)
    }

    @Test func `debug cannot reach stackplay's own objects' metatables, hooks or upvalues`() throws {
        let script = """
            local screen = stackplay.screen {}
            print(debug.getmetatable(screen), pcall(debug.setmetatable, screen, {}))
            print(debug.sethook, debug.gethook, debug.getlocal, debug.getregistry, debug.getuservalue)
            print(pcall(debug.getupvalue, stackplay.screen, 1))
            print(pcall(debug.getupvalue, test, 1))
            local up = 1
            local function mine() return up end
            print(debug.getupvalue(mine, 1), debug.getinfo(1, "f").func ~= nil, debug.getinfo(1, "l").currentline)
            """
        let run = try runScript(script, ["--json"])
        #expect(run.status == 0)
        let lines = try #require(try Self.output(run)).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("locked\tfalse\tbad argument #1 to "))
        #expect(lines[1] == "nil\tnil\tnil\tnil\tnil")
        #expect(
            lines[2].hasSuffix("(stackplay keeps the upvalues of its own and of C functions out of reach)"))
        #expect(
            lines[3].hasSuffix("(stackplay keeps the upvalues of its own and of C functions out of reach)"))
        #expect(lines[4] == "up\ttrue\t8")
    }

    /// docs/sandbox.md's rule reads the bytes back: U+10FF80...U+10FFFF are the bytes 0x80...0xFF,
    /// and a real character of that range comes as its four bytes, so nothing is ambiguous.
    @Test func `--json output gives back a script's exact bytes by the documented rule`() throws {
        let run = try runScript("io.write('a\\xffb ', '\\u{10FF80}', ' é 🃏')\n", ["--json"])
        #expect(run.status == 0)
        let output = try #require(try Self.output(run))
        var bytes: [UInt8] = []
        for scalar in output.unicodeScalars {
            if (0x10_FF80...0x10_FFFF).contains(scalar.value) {
                bytes.append(UInt8(scalar.value - 0x10_FF00))
            } else {
                bytes.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        #expect(bytes == Array("a".utf8) + [0xFF] + Array("b \u{10FF80} é 🃏".utf8))
    }

    @Test func `output past the 1 MiB cap is cut with a last line saying how much was left out`() throws {
        let run = try runScript(
            "for _ = 1, 20000 do print(string.rep('x', 99)) end\nprint('last')\n", ["--json"])
        #expect(run.status == 0)
        let output = try #require(try Self.output(run))
        #expect(output.utf8.count <= (1 << 20) + 100)
        #expect(output.hasSuffix("\n... (951505 more bytes of output not kept)\n"))
    }
}
