import LuaRuntime
import Testing

/// Script file names that are not UTF-8: escaped for messages, turned back into bytes to load.
@Suite struct EscapedNameTests {
    @Test(
        "a name that is not UTF-8 is escaped byte by byte and read back",
        arguments: [
            [0xFF], [0x61, 0xFE, 0x62], [0xC3], [0xC3, 0xA9, 0x80], [0xED, 0xA0, 0x80],
        ] as [[UInt8]])
    func escapedNames(_ bytes: [UInt8]) {
        let name = EscapedName.escape(bytes)
        #expect(name.utf8.allSatisfy { $0 < 0x80 } || name.contains("é"))
        #expect(name.contains("\\x"))
        #expect(EscapedName.bytes(name) == bytes)
        #expect(EscapedName.escape(Array("plain é.lua".utf8)) == "plain é.lua")
        #expect(EscapedName.bytes("plain é.lua") == nil)
    }
}
