import Wording

/// Lua strings are bytes, Swift's are Unicode: a Lua string that is not valid UTF-8 (`"\xff"`,
/// `"a\xfeb"`) would turn into U+FFFD on the way in, so that two different ids became one and
/// came back changed. Instead each byte that is not part of valid UTF-8 comes in as a character
/// of its own in U+10FF80...U+10FFFF (the last 128 code points of plane 16, private use), and
/// goes back out as that byte. A valid character of that range in the string comes in as its
/// four bytes, each escaped the same way, so every Lua string survives the round trip exactly
/// and two different Lua strings are two different Swift strings.
package enum LuaBytes {
    /// The first code point that stands for a byte: U+10FF00 + byte, for bytes 0x80...0xFF.
    package static let base = RawByte.base
    package static let escapes = RawByte.scalars

    /// `bytes` as a Swift string, losslessly.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // The commonest case, ASCII (an id, a key, a direction): every byte is its own character.
        // (`String(validating:as:)` is not specialized for a buffer: it costs ~900 instructions
        // for an 8-byte id, 8 × as much as the rest of a `stack:card(id)` read of it.)
        if ByteBuffers.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        // The common case: valid UTF-8 without a lead byte 0xF4 (where U+10FF80... starts).
        if !bytes.contains(0xF4), let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let (scalar, length) = scalarAt(bytes, index)
            if let scalar, !escapes.contains(scalar.value) {
                scalars.append(scalar)
            } else {
                for byte in bytes[index..<index + length] {
                    scalars.append(Unicode.Scalar(base + UInt32(byte))!)
                }
            }
            index += length
        }
        return String(scalars)
    }

    /// The valid UTF-8 character at `index` and its length, or nil and 1 for a byte that starts none.
    private static func scalarAt(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Unicode.Scalar?, Int)
    {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0: (length, value, low) = (3, UInt32(lead & 0x0F), 0xA0)
        case 0xED: (length, value, high) = (3, UInt32(lead & 0x0F), 0x9F)
        case 0xE1...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0: (length, value, low) = (4, UInt32(lead & 0x07), 0x90)
        case 0xF4: (length, value, high) = (4, UInt32(lead & 0x07), 0x8F)
        case 0xF1...0xF3: (length, value) = (4, UInt32(lead & 0x07))
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 1) }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte >= (offset == 1 ? low : 0x80), byte <= (offset == 1 ? high : 0xBF) else {
                return (nil, 1)
            }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (Unicode.Scalar(value), length)
    }

    /// Calls `body` with the bytes `text` stands for: its UTF-8, with each U+10FF80...U+10FFFF
    /// turned back into its byte.
    package static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = text
        return copy.withUTF8 { utf8 in
            guard utf8.contains(0xF4) else { return body(utf8) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count)
            for scalar in text.unicodeScalars {
                if escapes.contains(scalar.value) {
                    bytes.append(UInt8(scalar.value - base))
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
            return bytes.withUnsafeBufferPointer(body)
        }
    }
}
