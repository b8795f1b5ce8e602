import LuaRuntime
import Testing

/// Snapshot-restored states (`arena.h`): the Swift objects Lua userdata hold across a snapshot and
/// a restore, budgets inside the arena, and the restores that must be refused. Serialized: one
/// test holds 34 arenas at once, every fixed address among them, which another expects to get.
@Suite(
    .serialized,
    .enabled(if: LuaState.snapshotsAvailable, "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES")
)
struct SnapshotTests {
    final class Thing {}

    /// Lua results as words: "nil", "3", "userdata".
    static func words(_ values: [LuaValue]) -> [String] {
        values.map { value in
            switch value {
            case .nil: "nil"
            case .integer(let n): "\(n)"
            case .string(let text): text
            default: "?"
            }
        }
    }

    static func state(memoryMiB: Double = 64) throws -> LuaState {
        let lua = try LuaState(snapshotting: LuaBudget(cpuSeconds: 10, memoryMiB: memoryMiB))
        lua.openStandardLibraries()
        try lua.defineClass(Thing.self, name: "thing", methods: [:])
        return lua
    }

    @Test func `objects a test makes go at the restore, and the snapshot's stay however the test drops them`()
        throws
    {
        let lua = try Self.state()
        #expect(lua.isSnapshotting)
        #expect(lua.hasFixedArena)
        weak var kept: Thing?
        do {
            let thing = Thing()
            kept = thing
            try lua.setGlobal("kept", .object(thing))
        }
        let level = try #require(lua.takeSnapshot())
        weak var made: Thing?
        weak var dropped: Thing?
        do {
            let thing = Thing()
            made = thing
            try lua.setGlobal("made", .object(thing))
            let other = Thing()
            dropped = other
            try lua.setGlobal("dropped", .object(other))
        }
        #expect(lua.retainsSinceSnapshot == 2)
        try lua.run("kept, dropped = nil, nil; collectgarbage(); collectgarbage()")
        #expect(kept != nil, "the snapshot still points at it: its retain is the snapshot's")
        #expect(dropped == nil, "a test's own object goes when the test collects it")
        #expect(made != nil)
        try lua.restore(snapshot: level)
        #expect(made == nil, "the restore released what only the discarded Lua objects held")
        #expect(kept != nil)
        #expect(lua.retainsSinceSnapshot == 0)
        let result = try lua.run("return type(kept), type(made)")
        #expect(Self.words(result) == ["userdata", "nil"])
        // twice more: the same state each time
        for _ in 0..<2 {
            try lua.run("kept = nil; collectgarbage()")
            try lua.restore(snapshot: level)
            #expect(kept != nil)
            #expect(Self.words(try lua.run("return type(kept)")) == ["userdata"])
        }
    }

    @Test func `closing a restored state releases every object once`() throws {
        weak var kept: Thing?
        weak var made: Thing?
        do {
            let lua = try Self.state()
            let thing = Thing()
            kept = thing
            try lua.setGlobal("kept", .object(thing))
            _ = try #require(lua.takeSnapshot())
            let other = Thing()
            made = other
            try lua.setGlobal("made", .object(other))
            try lua.run("kept = nil; collectgarbage()")
        }
        #expect(kept == nil)
        #expect(made == nil)
    }

    @Test func `a restore while Lua runs in the state is refused and changes nothing`() throws {
        let lua = try Self.state()
        let level = try #require(lua.takeSnapshot())
        try lua.setGlobal(
            "restore",
            .function("restore") { [unowned lua] _ in
                try lua.restore(snapshot: level)
                return []
            })
        try lua.run("x = 1")
        #expect(throws: LuaFailure.self) { try lua.run("x = 2; restore()") }
        do {
            try lua.run("x = 3; restore()")
        } catch {
            #expect(error.message.contains("cannot be restored while Lua runs in it"))
        }
        #expect(Self.words(try lua.run("return x")) == ["3"])
        try lua.restore(snapshot: level)
        #expect(Self.words(try lua.run("return x")) == ["nil"])
        #expect(throws: LuaFailure.self) { try lua.restore(snapshot: level + 1) }
    }

    @Test func `the memory budget holds in an arena, and a restore brings the state back under it`() throws {
        let lua = try Self.state(memoryMiB: 2)
        let level = try #require(lua.takeSnapshot())
        let before = lua.memoryUsed
        do {
            try lua.run("local t = {} for i = 1, 1e7 do t[i] = i end")
            Issue.record("the loop ran past a 2 MiB budget")
        } catch {
            #expect(error.kind == .memoryBudget)
        }
        #expect(lua.isStopped)
        try lua.restore(snapshot: level)
        #expect(!lua.isStopped)
        #expect(lua.memoryUsed == before)
        #expect(Self.words(try lua.run("return 1 + 1")) == ["2"])
    }

    @Test func `seeding from C gives the numbers math.randomseed gives`() throws {
        let lua = try Self.state()
        lua.captureRandom()
        try lua.run("math.randomseed(42)")
        let expected = Self.words(try lua.run("return math.random(0), math.random(0)"))
        let state = lua.randomState
        #expect(!state.isEmpty)
        #expect(lua.seedRandom(42))
        #expect(
            Self.words(try lua.run("math.randomseed = nil; return math.random(0), math.random(0)"))
                == expected)
        #expect(lua.randomState == state, "the same seed and draws leave the same generator")
        _ = try lua.run("return math.random()")
        #expect(lua.randomState != state, "a draw moves it")
    }

    @Test func `a large snapshot restored page by page comes back whole, test after test`() throws {
        let lua = try Self.state()
        // about 5 MiB: restored by copying back only the pages a test wrote
        try lua.run("big = {} for i = 1, 300000 do big[i] = i end; text = string.rep('a', 100)")
        let level = try #require(lua.takeSnapshot())
        #expect(lua.arenaBytes > 2 << 20)
        let check = "local s = 0 for i = 1, #big do s = s + big[i] end return s, #big, text"
        let pristine = Self.words(try lua.run(check))
        #expect(pristine == ["45000150000", "300000", String(repeating: "a", count: 100)])
        for round in 0..<4 {
            try lua.run("big[\(1 + round * 70001)] = -1; big[300000] = nil; text = 'changed'; x = {}")
            try lua.run("for i = 1, 1000 do big[#big + 1] = i end; collectgarbage()")
            try lua.restore(snapshot: level)
            #expect(Self.words(try lua.run(check)) == pristine, "round \(round)")
            #expect(Self.words(try lua.run("return type(x)")) == ["nil"])
        }
    }

    /// Pages a test wrote stay writable and are copied back at every restore (until they pass
    /// 256 KiB, when they are all protected again): a page written in one round and not in the
    /// next still comes back, and so does everything after a round that wrote megabytes.
    @Test func `pages left writable by earlier tests are restored too, round after round`() throws {
        let lua = try Self.state()
        try lua.run("big = {} for i = 1, 300000 do big[i] = i end")
        let level = try #require(lua.takeSnapshot())
        let check = "local s = 0 for i = 1, #big do s = s + big[i] end return s, #big"
        let pristine = Self.words(try lua.run(check))
        #expect(pristine == ["45000150000", "300000"])
        for round in 0..<40 {
            if round == 20 {
                // megabytes of pages: past the writable limit, all protected again
                try lua.run("for i = 1, 300000, 3 do big[i] = 0 end")
            } else {
                try lua.run("big[\(1 + round * 7001)] = -\(round)")
            }
            try lua.restore(snapshot: level)
            #expect(Self.words(try lua.run(check)) == pristine, "round \(round)")
        }
    }

    /// The SIGSEGV handler knows 32 arenas (arena_tracking.c); a process may hold more (the
    /// runner's cache of 48 states). An arena past the 32nd is never write-protected: its
    /// snapshots of 2.5 MiB (lazily copied with a userfaultfd, tracked by write faults without)
    /// are whole copies, and a restore still gives back what the test overwrote. Before the fix
    /// the 33rd arena's first write faulted into a handler that did not know it (the process died).
    @Test func `arenas past the handler's 32 places still restore what a test wrote`() throws {
        var states: [LuaState] = []
        var levels: [Int] = []
        for index in 0..<34 {
            let lua = try Self.state(memoryMiB: 32)
            try lua.run(
                "ballast = {} for i = 1, 40000 do ballast[i] = string.rep('x', 40) .. i end marker = \(index)"
            )
            levels.append(try #require(lua.takeSnapshot(), "state \(index)"))
            states.append(lua)
        }
        for round in 0..<2 {
            for (index, lua) in states.enumerated() {
                try lua.run(
                    "marker = -1 for i = 1, 40000, 50 do ballast[i] = false end ballast[1] = 'changed'")
                try lua.restore(snapshot: levels[index])
                let back = try lua.run("return marker, ballast[1], ballast[40000], #ballast")
                #expect(
                    Self.words(back) == [
                        "\(index)", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1",
                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx40000", "40000",
                    ], "state \(index), round \(round)")
            }
        }
    }
}
