import Foundation
import Testing

/// Issues 40 and 42, end to end through the built binary: `pairs` with a collection step in the
/// body stays linear (it ran into the CPU budget), and next(t, k) after an abandoned traversal
/// returns the next key.
@Suite struct TraversalTests {
    @Test func `pairs over 10^5 keys with collectgarbage("step") in the body ends well within the budget`()
        throws
    {
        let script = """
            local t = {}
            for i = 1, 100000 do t["k" .. i] = i end
            local n = 0
            for _ in pairs(t) do
              n = n + 1
              collectgarbage("step")
            end
            print(n)
            """
        let run = try runScript(script, ["--json", "--cpu-budget", "5"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try LuaRoundTwoTests.output(run) == "100000\n")
    }

    @Test func `next(t, k) after an abandoned traversal returns the next key, a key added since included`()
        throws
    {
        let script = """
            local t = { a = 1, c = 3 }
            for _ in pairs(t) do break end
            t.b = 2
            print(next(t, "a"))
            print(next(t, "b"))
            print(next(t, "c"))
            """
        let run = try runScript(script, ["--json"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try LuaRoundTwoTests.output(run) == "b\t2\nc\t3\nnil\n")
    }
}
