import Foundation
import Testing

@testable import Bindings

extension BindingsTests {
    @Suite struct Errors {
        @Test func swiftErrorIsCaughtByPcallWithItsPosition() throws {
            let lua = try makeState()
            try lua.setGlobal("jam", .function("jam") { _ in throw Boom() })
            let results = try lua.run(
                "local ok, e = pcall(function() jam() end)\nreturn ok, e", name: "@test.lua")
            #expect(results[0].boolean == false)
            #expect(results[1].string == "test.lua:1: the card is stuck")
            // Called by pcall itself (a C function), there is no Lua line to name: as luaL_error.
            #expect(try lua.run("return pcall(jam)")[1].string == "the card is stuck")
        }

        /// Skipped under AddressSanitizer, whose quarantine keeps freed memory resident on purpose.
        @Test(.enabled(if: !addressSanitizerIsActive))
        func swiftErrorsInALoopLeaveResidentMemoryFlat() throws {
            let lua = try makeState()
            try lua.setGlobal("jam", .function("jam") { _ in throw Boom() })
            let loop = "for i = 1, 100000 do assert(not pcall(jam, i, 'x')) end"
            try lua.run(loop)  // warm-up: heaps and caches reach their size
            try lua.run(loop)
            let before = residentBytes()
            try lua.run(loop)
            let grown = residentBytes() - before
            #expect(grown < 2 * 1_048_576, "resident memory grew by \(grown) bytes over 100,000 errors")
        }

        @Test func uncaughtSwiftErrorFailsTheRunWithTraceback() throws {
            let lua = try makeState()
            try lua.setGlobal("jam", .function("jam") { _ in throw Boom() })
            let failure = try #require(runFailure(of: "local x = 1\njam()", in: lua))
            #expect(failure.kind == .error)
            #expect(failure.message == "test.lua:2: the card is stuck")
            #expect(failure.traceback.hasPrefix("stack traceback:"))
            #expect(failure.traceback.contains("test.lua:2: in main chunk"))
        }

        @Test func nonStringErrorIsReported() throws {
            let lua = try makeState()
            let failure = try #require(runFailure(of: "error({code = 42})", in: lua))
            #expect(failure.message == "test.lua:1: (error object is a table value)")
            let named = try #require(
                runFailure(
                    of: "error(setmetatable({}, {__tostring = function() return 'custom' end}))", in: lua))
            #expect(named.message == "custom")
        }

        @Test func syntaxErrorIsALoadFailure() throws {
            let lua = try makeState()
            let failure = try #require(runFailure(of: "local = 3", in: lua))
            #expect(failure.kind == .load)
            #expect(failure.message.hasPrefix("test.lua:1:"))
        }

        @Test(arguments: [
            ("drag('a')", "bad argument #2 to 'drag' (number expected, got no value)"),
            ("drag('a', nil)", "bad argument #2 to 'drag' (number expected, got nil)"),
            ("drag({}, 1)", "bad argument #1 to 'drag' (string expected, got table)"),
            ("drag('a', 1.5, 'x')", "bad argument #3 to 'drag' (table expected, got string)"),
            (
                "drag('a', 1, {spring = {stiffness = 'hard'}})",
                "bad argument #3 to 'drag' (field 'spring.stiffness': number expected, got string)"
            ),
            (
                "drag('a', '2', {steps = 1.5})",
                "bad argument #3 to 'drag' (field 'steps': integer expected, got number)"
            ),
        ])
        func argumentErrorsUseLauxlibWording(call: String, expected: String) throws {
            let lua = try makeState()
            try lua.setGlobal(
                "drag",
                .function("drag") { arguments in
                    let id = try arguments.string(at: 1)
                    let by = try arguments.number(at: 2)
                    let options = try arguments.optionalTable(at: 3)
                    let stiffness =
                        try options?.optionalTable("spring")?.number("stiffness", default: 170) ?? 170
                    let steps = try options?.integer("steps", default: 10) ?? 10
                    return [.string(id), .number(by + stiffness + Double(steps))]
                })
            let results = try lua.run("return pcall(function() return \(call) end)", name: "@test.lua")
            #expect(results[1].string == "test.lua:1: " + expected)
        }

        @Test func valuesRoundTrip() throws {
            let lua = try makeState()
            try lua.setGlobal(
                "echo",
                .function("echo") { arguments in
                    [try arguments.value(at: 1), ["cards": [1, 2.5, "three"], "open": true]]
                })
            let results = try lua.run("local a, b = echo({x = 1}) return a.x, #b.cards, b.cards[3], b.open")
            #expect(results[0].number == 1)
            #expect(results[1].number == 3)
            #expect(results[2].string == "three")
            #expect(results[3].boolean == true)
        }
    }
}
