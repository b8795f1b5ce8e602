/// File names that are not UTF-8, as text: each byte outside valid UTF-8 becomes `\xHH`. Swift
/// strings hold only UTF-8, so discovery names such a script this way, messages show it, and the
/// loader turns it back into the real bytes to open it.
public enum EscapedName {
    /// `bytes` as text: UTF-8 as it is, each byte that is not part of valid UTF-8 as `\xHH`.
    public static func escape(_ bytes: [UInt8]) -> String {
        if let name = String(validating: bytes, as: UTF8.self) { return name }
        var out = ""
        var index = 0
        scanning: while index < bytes.count {
            for length in 1...4 where index + length <= bytes.count {
                if let scalar = String(validating: bytes[index..<index + length], as: UTF8.self),
                    scalar.unicodeScalars.count == 1
                {
                    out += scalar
                    index += length
                    continue scanning
                }
            }
            let hex = String(bytes[index], radix: 16)
            out += "\\x" + (hex.count == 1 ? "0" : "") + hex
            index += 1
        }
        return out
    }

    /// The bytes that `escape` turned into `name`, or nil when `name` holds no `\xHH` escape of
    /// a byte that is not UTF-8 on its own.
    public static func bytes(_ name: String) -> [UInt8]? {
        let utf8 = Array(name.utf8)
        var out: [UInt8] = []
        var escaped = false
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
                utf8[index + 1] == UInt8(ascii: "x"),
                let byte = UInt8(String(decoding: utf8[index + 2...index + 3], as: UTF8.self), radix: 16),
                byte >= 0x80
            {
                out.append(byte)
                escaped = true
                index += 4
            } else {
                out.append(utf8[index])
                index += 1
            }
        }
        return escaped ? out : nil
    }
}
