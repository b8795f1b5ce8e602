import Foundation
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

        /// The watchdog's timer stays armed from one chunk to the next (no timer_settime per
        /// call): a chunk that starts after many short ones still gets its whole budget (the
        /// timer, gone off at an earlier chunk's deadline, is armed again for the rest), and is
        /// still stopped when it spends it. On a thread that hears the timer's signal, as a
        /// worker's main thread does (the test runner's threads block it: they use the count hook).
        @Test func `a chunk after many short ones gets its whole CPU budget and no more`() throws {
            final class Outcome: @unchecked Sendable {
                var spun: LuaFailure?
                var endless: LuaFailure?
                var error: (any Error)?
            }
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                defer { done.signal() }
                var signals = sigset_t()
                sigemptyset(&signals)
                sigaddset(&signals, SIGXCPU)
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                func cpu() -> Double {
                    var time = timespec()
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
                }
                do {
                    let lua = try makeState(budget: LuaBudget(cpuSeconds: 0.3, memoryMiB: 256))
                    try lua.run("function spin(n) local x = 0 for i = 1, n do x = x + i end return x end")
                    let calibration = cpu()
                    try lua.run("spin(2000000)")
                    let perIteration = max(cpu() - calibration, 1e-6) / 2_000_000
                    // short chunks for most of a budget, then one of a third of a budget
                    let start = cpu()
                    while cpu() - start < 0.25 { try lua.run("spin(\(Int(0.005 / perIteration)))") }
                    outcome.spun = runFailure(of: "spin(\(Int(0.1 / perIteration)))", in: lua)
                    outcome.endless = runFailure(of: "while true do end", in: lua)
                } catch {
                    outcome.error = error
                }
            }
            thread.start()
            done.wait()
            #expect(outcome.error == nil)
            #expect(outcome.spun == nil)
            #expect(outcome.endless?.kind == .cpuBudget)
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
