import LuaRuntime
import Testing

/// Records of fixed keys (``LuaValue/fields(_:write:)``): their keys interned once a state, in its
/// registry, whether a module interned them at its install or a record first needed them, and
/// whether or not a snapshot restore took away what a test interned.
@Suite struct FieldRecordTests {
    enum Field: Int, CaseIterable { case id, x, visible, count }
    static let keys = LuaKeys(Field.allCases.map { "\($0)" })

    static func record(_ id: String) -> LuaValue {
        .fields(keys) { t in
            t.string(Field.id, id)
            t.number(Field.x, 1.5)
            t.boolean(Field.visible, true)
            t.integer(Field.count, 3)
        }
    }

    /// `record(id)` from Lua, its fields read back in the keys' order, as one string.
    static func readBack(_ lua: LuaState, _ id: String) throws -> String {
        let values = try lua.run(
            """
            local t = record(...)
            local n = 0 for _ in pairs(t) do n = n + 1 end
            return ('%s %s %s %s %d'):format(t.id, t.x, tostring(t.visible), math.type(t.count), n)
            """, arguments: [.string(id)])
        guard case .string(let text) = values.first else { return "not a string" }
        return text
    }

    static func state(snapshotting: Bool) throws -> LuaState {
        let budget = LuaBudget(cpuSeconds: 10, memoryMiB: 64)
        let lua = snapshotting ? try LuaState(snapshotting: budget) : try LuaState(budget: budget)
        lua.openStandardLibraries()
        try lua.setGlobal("record", .function("record") { a in [Self.record(try a.string(at: 1))] })
        return lua
    }

    @Test("a record has exactly its fields, with their values and types, the first time and after")
    func fieldsAndValues() throws {
        let lua = try Self.state(snapshotting: false)
        #expect(try Self.readBack(lua, "calendar") == "calendar 1.5 true integer 4")
        #expect(try Self.readBack(lua, "\u{e9}") == "\u{e9} 1.5 true integer 4")
        try lua.intern(Self.keys)  // once more: the same table
        #expect(try Self.readBack(lua, "mail") == "mail 1.5 true integer 4")
    }

    @Test(
        "keys interned during a test are made again after the restore; interned before, they stay",
        .enabled(
            if: LuaState.snapshotsAvailable, "no snapshots under AddressSanitizer or STACKPLAY_FRESH_STATES"),
        arguments: [false, true])
    func acrossRestores(internedFirst: Bool) throws {
        let lua = try Self.state(snapshotting: true)
        if internedFirst { try lua.intern(Self.keys) }
        let level = try #require(lua.takeSnapshot())
        for round in 0..<3 {
            #expect(try Self.readBack(lua, "card\(round)") == "card\(round) 1.5 true integer 4")
            try lua.restore(snapshot: level)
        }
    }
}
