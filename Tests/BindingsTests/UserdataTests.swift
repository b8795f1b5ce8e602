import LuaRuntime
import Testing

@testable import Bindings

/// Counts the deinits of the cards it hands out.
final class Tracker {
    var deinits = 0
}

final class Card {
    let tracker: Tracker
    var pokes = 0
    init(_ tracker: Tracker) { self.tracker = tracker }
    deinit { tracker.deinits += 1 }
}

extension BindingsTests {
    @Suite struct Userdata {
        func state(_ tracker: Tracker, sandboxed: Bool = true) throws -> LuaState {
            let lua: LuaState
            if sandboxed {
                lua = try makeState()
            } else {
                // the libraries as Lua opens them: scripts cannot set __gc, stackplay's own Lua could
                lua = try LuaState()
                lua.openStandardLibraries()
            }
            try lua.defineClass(
                Card.self, name: "Card",
                methods: [
                    "poke": { arguments in
                        let card = try arguments.object(at: 1, as: Card.self)
                        card.pokes += Int(try arguments.optionalNumber(at: 2) ?? 1)
                        return [.integer(card.pokes)]
                    }
                ], releaseMethod: "dispose")
            try lua.setGlobal("card", .function("card") { _ in [.object(Card(tracker))] })
            return lua
        }

        @Test func releasedExactlyOnceByTheCollector() throws {
            let tracker = Tracker()
            var lua: LuaState? = try state(tracker)
            let results = try lua!.run(
                "local c = card() local n = c:poke(2) c = nil collectgarbage() collectgarbage() return n")
            #expect(results[0].number == 2)
            #expect(tracker.deinits == 1)
            lua = nil
            #expect(tracker.deinits == 1)
        }

        @Test func closingTheStateReleasesLiveObjects() throws {
            let tracker = Tracker()
            var lua: LuaState? = try state(tracker)
            try lua!.run("keep = { card(), card() }")
            #expect(tracker.deinits == 0)
            lua = nil
            #expect(tracker.deinits == 2)
        }

        @Test func explicitReleaseMakesTheObjectUnusable() throws {
            let tracker = Tracker()
            var lua: LuaState? = try state(tracker)
            let results = try lua!.run(
                """
                c = card()
                c:dispose()
                return pcall(function() c:poke() end)
                """, name: "@test.lua")
            #expect(tracker.deinits == 1)
            #expect(results[1].string == "test.lua:3: calling 'poke' on bad self (Card has been released)")
            try lua!.run("c = nil collectgarbage() collectgarbage()")
            lua = nil
            #expect(tracker.deinits == 1)
        }

        @Test func resurrectedObjectIsDead() throws {
            let tracker = Tracker()
            let lua = try state(tracker, sandboxed: false)
            let results = try lua.run(
                """
                local holder = { card = card() }
                setmetatable(holder, {__gc = function(h) saved = h.card end})
                holder = nil
                collectgarbage() collectgarbage()
                return pcall(saved.poke, saved)
                """, name: "@test.lua")
            #expect(tracker.deinits == 1)
            #expect(results[0].boolean == false)
            #expect(results[1].string?.contains("Card has been released") == true)
        }

        @Test func typeIsCheckedAndMetatableHidden() throws {
            let lua = try state(Tracker())
            let results = try lua.run(
                """
                local c = card()
                local ok, e = pcall(function() c.poke({}) end)
                return e, getmetatable(c), tostring(c):match('^Card: ') ~= nil
                """, name: "@test.lua")
            #expect(
                results[0].string
                    == "test.lua:2: calling 'poke' on bad self (Card expected, got table: use ':' as in x:poke(...), not x.poke(...))"
            )
            #expect(results[1].string == "locked")
            #expect(results[2].boolean == true)
        }

        @Test func undefinedClassIsAnError() throws {
            let lua = try makeState()
            try lua.setGlobal("card", .function("card") { _ in [.object(Card(Tracker()))] })
            let results = try lua.run("return pcall(card)")
            #expect(results[1].string?.contains("no Lua class is defined for Card") == true)
        }
    }
}
