import Testing

/// Bad input never crashes stackplay: 8,000 calls of random API methods with random arguments
/// (NaN, infinities, wrong types, unknown ids, empty tables) either work or raise Lua errors.
@Test("G1 random calls with random arguments raise Lua errors, never crash")
func randomCallsNeverCrash() throws {
    let run = try stackplay("\(fixtures)/fuzz.lua")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.isEmpty)
    #expect(run.stdout.contains("8000 calls, "))
    #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))
}
