import LuaRuntime
import Testing

@testable import Bindings

extension BindingsTests {
    @Suite struct Budgets {
        let short = LuaBudget(cpuSeconds: 0.2, memoryMiB: 256)
        let small = LuaBudget(cpuSeconds: 10, memoryMiB: 16)

        @Test(arguments: [
            "while true do end",
            "while true do pcall(function() while true do end end) end",
            "local ok = pcall(function() while true do end end)\nwhile true do end",
            "local co = coroutine.wrap(function() while true do end end)\nwhile true do pcall(co) end",
        ])
        func endlessLoopStopsOnTheCPUBudget(code: String) throws {
            let lua = try makeState(budget: short)
            let failure = try #require(runFailure(of: code, in: lua))
            #expect(failure.kind == .cpuBudget)
            #expect(failure.message.hasPrefix("test.lua:"))
            #expect(failure.message.hasSuffix(": stopped: the script used its 0.2 s of CPU time"))
        }

        @Test func stopMessageNamesTheLine() throws {
            let lua = try makeState(budget: short)
            let failure = try #require(runFailure(of: "local x = 0\n\nwhile true do x = x + 1 end", in: lua))
            #expect(failure.message == "test.lua:3: stopped: the script used its 0.2 s of CPU time")
        }

        static let bomb = """
            local t = {} local i = 0
            while true do i = i + 1 t[i] = string.rep("x", 4096) .. i end
            """

        @Test(arguments: [
            bomb, "pcall(function()\n\(bomb)\nend)\nwhile true do end",
            "local s = string.rep('x', 64 * 1048576)",
        ])
        func memoryBombStopsOnTheMemoryBudget(code: String) throws {
            let lua = try makeState(budget: small)
            let failure = try #require(runFailure(of: code, in: lua))
            #expect(failure.kind == .memoryBudget)
            #expect(failure.message.hasPrefix("test.lua:"))
            #expect(failure.message.hasSuffix(": stopped: the script used its 16 MiB of memory"))
            #expect(lua.memoryUsed < 16 * 1_048_576 + 4 * 1_048_576)
        }

        @Test func bombStopNamesItsLine() throws {
            let lua = try makeState(budget: small)
            let failure = try #require(runFailure(of: Self.bomb, in: lua))
            #expect(failure.message == "test.lua:2: stopped: the script used its 16 MiB of memory")
        }

        @Test(arguments: [(10.0, "10 s"), (0.5, "0.5 s"), (0.25, "0.25 s")])
        func cpuTextIsNatural(seconds: Double, text: String) {
            #expect(
                LuaBudget(cpuSeconds: seconds, memoryMiB: 1).cpuStopText.hasSuffix("its \(text) of CPU time"))
        }

        @Test func memoryTextIsNatural() {
            #expect(LuaBudget.standard.memoryStopText == "stopped: the script used its 256 MiB of memory")
            #expect(LuaBudget(cpuSeconds: 1, memoryMiB: 0.5).memoryStopText.contains("0.5 MiB"))
        }
    }
}
