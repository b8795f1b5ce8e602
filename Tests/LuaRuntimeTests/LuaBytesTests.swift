import Testing

@testable import LuaRuntime

/// Lua strings come into Swift losslessly (``LuaBytes``): ASCII as itself, read eight bytes at a
/// time; valid UTF-8 as its characters; any other byte as a character of its own.
@Suite struct LuaBytesTests {
    static func decoded(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { LuaBytes.decode($0) }
    }

    static func roundTrip(_ text: String) -> [UInt8] {
        LuaBytes.withBytes(text) { Array($0) }
    }

    /// ASCII of every length around the eight-byte reads, with one byte above 0x7F at each place.
    static let placed: [[UInt8]] = (0...17).flatMap { length -> [[UInt8]] in
        let ascii = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        return [ascii]
            + (0..<length).flatMap { at -> [[UInt8]] in
                var invalid = ascii
                invalid[at] = 0xFF
                var accented = ascii
                accented.replaceSubrange(at...at, with: [0xC3, 0xA9])  // é
                return [invalid, accented]
            }
    }

    @Test("every string comes back as the bytes it was, whatever its length and where a high byte is")
    func everyPlacement() {
        for bytes in Self.placed {
            #expect(Self.roundTrip(Self.decoded(bytes)) == bytes, "\(bytes)")
        }
    }

    @Test("ASCII and valid UTF-8 come in as their characters; other bytes as escapes")
    func characters() {
        for bytes in Self.placed {
            let text = Self.decoded(bytes)
            if bytes.contains(0xFF) {
                #expect(text.unicodeScalars.contains { $0.value == LuaBytes.base + 0xFF }, "\(bytes)")
            } else {
                #expect(text == String(decoding: bytes, as: UTF8.self), "\(bytes)")
            }
        }
        #expect(Self.decoded(Array("calendar".utf8)) == "calendar")
        #expect(Self.decoded([]) == "")
        // a valid character in the escapes' own range comes in as its four bytes, escaped
        let inRange: [UInt8] = [0xF4, 0x8F, 0xBF, 0xBF]  // U+10FFFF
        #expect(Self.decoded(inRange).unicodeScalars.count == 4)
        #expect(Self.roundTrip(Self.decoded(inRange)) == inRange)
    }
}
