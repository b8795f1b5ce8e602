import Testing
@testable import Bindings

@Test func embedsLua54() { #expect(BindingsInfo.luaVersion == "Lua 5.4") }
