import CLua
import CLuaSnapshot
import LuaRuntime
import Testing

/// The arena's invariant checks (arena_check.c; docs/design/arena.md, "Invariants"): they hold
/// after takes and restores, and they find a changed byte and a broken free list. Read through
/// `stackplay_arena_verify`, which returns a status: the abort is only in the path after a take or
/// restore (`STACKPLAY_ARENA_CHECKS`, `make invariants`), which would end this test process.
@Suite(
    .enabled(
        if: LuaState.snapshotsAvailable, "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"),
    .enabled(if: stackplay_arena_checks_compiled() != 0, "the checks are compiled into debug builds only")
)
struct ArenaCheckTests {
    /// nil when every check holds, else the first broken one.
    static func verify(_ lua: LuaState, restored: Bool) -> String? {
        var why = [CChar](repeating: 0, count: 400)
        guard stackplay_arena_verify(lua.stack.L, restored ? 1 : 0, &why, why.count) != 0 else { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A state with its checks on, free small blocks on its lists, the global `anchor` a long
    /// string, and a snapshot of all that: its level, and where the anchor's bytes start from the
    /// arena's base (found before the snapshot: reading it pushes onto the Lua stack, in the arena).
    static func checkedState() throws -> (lua: LuaState, level: Int, anchor: Int) {
        let lua = try LuaState(snapshotting: LuaBudget(cpuSeconds: 10, memoryMiB: 64))
        lua.openStandardLibraries()
        stackplay_arena_checking(lua.stack.L, 1)
        try lua.run(
            """
            anchor = string.rep("a", 48) .. "anchor"
            local t = {}
            for i = 1, 200 do t[i] = { i } end
            t = nil
            collectgarbage()
            """)
        let anchor = try anchorOffset(lua)
        let level = try #require(lua.takeSnapshot())
        return (lua, level, anchor)
    }

    /// Where the bytes of the global `anchor` start, from the arena's base.
    static func anchorOffset(_ lua: LuaState) throws -> Int {
        let state = lua.stack.L
        let base = try #require(stackplay_arena_base(try #require(stackplay_arena_of(state))))
        lua_getglobal(state, "anchor")
        defer { lua_settop(state, -2) }
        let bytes = try #require(lua_tolstring(state, -1, nil))
        return UnsafeRawPointer(bytes) - UnsafeRawPointer(base)
    }

    @Test func `takes and restores keep every invariant, test after test`() throws {
        let (lua, level, _) = try Self.checkedState()
        #expect(Self.verify(lua, restored: true) == nil)
        for round in 0..<3 {
            try lua.run("junk = {}; for i = 1, 500 do junk[i] = tostring(i) .. 'x' end; anchor = nil")
            #expect(Self.verify(lua, restored: false) == nil, "the heap holds together while a test runs")
            try lua.restore(snapshot: level)  // with the checks on: a broken one would have aborted
            #expect(Self.verify(lua, restored: true) == nil, "round \(round)")
            #expect(try lua.run("return #anchor").count == 1)
            #expect(SnapshotTests.words(try lua.run("return #anchor, junk")) == ["54", "nil"])
        }
    }

    @Test func `one changed byte of the arena is found, and restoring it again passes`() throws {
        let (lua, level, offset) = try Self.checkedState()
        #expect(Self.verify(lua, restored: true) == nil)
        #expect(stackplay_arena_test_flip_byte(lua.stack.L, offset) == 0)
        let why = try #require(Self.verify(lua, restored: true))
        #expect(why.contains("hash to"), "\(why)")
        #expect(why.contains("snapshot \(level)"), "\(why)")
        #expect(Self.verify(lua, restored: false) == nil, "the heap itself is whole: only the bytes differ")
        #expect(stackplay_arena_test_flip_byte(lua.stack.L, offset) == 0)
        #expect(Self.verify(lua, restored: true) == nil)
    }

    @Test func `a restore that brings back other bytes than the snapshot's is found`() throws {
        let (lua, level, offset) = try Self.checkedState()
        // the copy a restore copies back, changed after its checksum was taken
        #expect(stackplay_arena_test_flip_snapshot_byte(lua.stack.L, offset) == 0)
        stackplay_arena_checking(lua.stack.L, 0)  // this restore's own check would abort
        try lua.restore(snapshot: level)
        let why = try #require(Self.verify(lua, restored: true))
        #expect(why.contains("hash to"), "\(why)")
        #expect(stackplay_arena_test_flip_snapshot_byte(lua.stack.L, offset) == 0)
        stackplay_arena_checking(lua.stack.L, 1)
        try lua.restore(snapshot: level)
        #expect(Self.verify(lua, restored: true) == nil)
    }

    @Test func `a free list that names a misaligned block is found`() throws {
        let (lua, _, _) = try Self.checkedState()
        #expect(Self.verify(lua, restored: true) == nil)
        #expect(stackplay_arena_test_flip_free_link(lua.stack.L) == 0, "the state has free small blocks")
        let why = try #require(Self.verify(lua, restored: false))
        #expect(why.contains("free list of class"), "\(why)")
        #expect(why.contains("not 16-byte aligned"), "\(why)")
        #expect(stackplay_arena_test_flip_free_link(lua.stack.L) == 0)
        #expect(Self.verify(lua, restored: true) == nil)
    }

    @Test func `a state without an arena has nothing to verify`() throws {
        let lua = try LuaState(budget: LuaBudget(cpuSeconds: 10, memoryMiB: 64))
        #expect(Self.verify(lua, restored: false) == "the state has no arena")
        #expect(stackplay_arena_test_flip_byte(lua.stack.L, 0) == -1)
    }
}
