import LuaRuntime
import Testing

@testable import Bindings

@Test func embedsLua54() { #expect(StackplayVersion.lua == "Lua 5.4") }
