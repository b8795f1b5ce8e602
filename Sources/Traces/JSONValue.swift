import Wording

/// A JSON value with its object keys in order, so that what is written is byte-identical run to
/// run and what is read can be written back as it was. No Foundation: traces stay in pure Swift.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a.bitPattern == b.bitPattern
        // Strings and keys as bytes: NFC and NFD "café" are two ids (`isSameBytes`).
        case (.string(let a), .string(let b)): a.isSameBytes(b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.0.isSameBytes($1.0) && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0.isSameBytes(key) }?.1
    }

    /// The JSON type's name, for messages: "number", "string", "object", ...
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    // MARK: Writing

    /// The value as compact JSON on one line, keys in their order.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += Self.format(number)
        case .string(let string): Self.quote(string, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// How many bytes ``text`` has, counted without writing it.
    public var textByteCount: Int {
        switch self {
        case .null: return 4
        case .bool(let flag): return flag ? 4 : 5
        case .number(let number): return Self.formattedByteCount(number)
        case .string(let string): return Self.quotedByteCount(string)
        case .array(let values):
            return values.reduce(1 + max(values.count, 1)) { $0 + $1.textByteCount }
        case .object(let fields):
            return fields.reduce(1 + max(fields.count, 1)) {
                $0 + Self.quotedByteCount($1.0) + 1 + $1.1.textByteCount
            }
        }
    }

    /// Whether every number in the value is finite (no NaN or infinity, which JSON cannot hold).
    public var isFinite: Bool {
        switch self {
        case .number(let number): return number.isFinite
        case .array(let items): return items.allSatisfy(\.isFinite)
        case .object(let fields): return fields.allSatisfy(\.1.isFinite)
        case .null, .bool, .string: return true
        }
    }

    /// The first key an object in the value repeats (byte for byte), in the order the parser
    /// would refuse it (``JSONParser``: a key is checked once its value has been read), or nil.
    public var repeatedKey: String? {
        switch self {
        case .array(let items):
            for item in items { if let key = item.repeatedKey { return key } }
        case .object(let fields):
            var seen = fields.count > 16 ? Set<ByteKey>() : nil
            for (index, (key, value)) in fields.enumerated() {
                if let inner = value.repeatedKey { return inner }
                let repeated =
                    seen != nil
                    ? !seen!.insert(ByteKey(key)).inserted
                    : fields[..<index].contains { $0.0.isSameBytes(key) }
                if repeated { return key }
            }
        case .null, .bool, .number, .string: break
        }
        return nil
    }

    /// `format(number).utf8.count`, without making the text for a whole number.
    static func formattedByteCount(_ number: Double) -> Int {
        guard number.isFinite else { return 4 }
        if number == number.rounded(), abs(number) < 1e15, !(number == 0 && number.sign == .minus) {
            var whole = Int64(number)
            var count = whole < 0 ? 2 : 1
            whole /= 10
            while whole != 0 {
                count += 1
                whole /= 10
            }
            return count
        }
        return number.description.utf8.count
    }

    /// The bytes `quote(string)` writes.
    static func quotedByteCount(_ string: String) -> Int {
        // (over the bytes in one piece, as they are for every native string: a trace's keys)
        if let count = string.utf8.withContiguousStorageIfAvailable(quotedByteCount) { return count }
        var count = 2
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: count += 2
            case ..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }

    /// The bytes `quote` writes for a string of these UTF-8 bytes.
    private static func quotedByteCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 2 + bytes.count
        for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            count += byte == 0x0A || byte == 0x0D || byte == 0x09 || byte >= 0x20 ? 1 : 5
        }
        return count
    }

    /// A number that reads back as the same bits: whole numbers without a fraction (`110`), others
    /// in Swift's shortest round-trip form (`0.1`, `1e-05`). JSON has no NaN or infinity: they are
    /// written as `null`, which a reader refuses where a number belongs.
    public static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15, !(number == 0 && number.sign == .minus) {
            return String(Int64(number))
        }
        return number.description
    }

    /// `string` as a JSON string literal: runs of bytes that need no escape are appended whole
    /// (a run ends only at an ASCII byte, so its ends are Unicode scalar boundaries).
    static func quote(_ string: String, to out: inout String) {
        out += "\""
        let utf8 = string.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else {
                utf8.formIndex(after: &index)
                continue
            }
            out += string[runStart..<index]
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default:
                let hex = String(byte, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            utf8.formIndex(after: &index)
            runStart = index
        }
        out += string[runStart..<index]
        out += "\""
    }
}

/// Why a line is not JSON: what was wrong and at which column (1-based).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var column: Int

    /// "column 12: a digit expected", never Swift's `JSONSyntaxError(message: ...)`.
    public var description: String { "column \(column): \(message)" }
}

/// A small strict JSON parser (RFC 8259) for one line of a trace.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0

    /// Parses `text`, which must hold exactly one value.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected text after the value")
        }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, column: index + 1)
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        for byte in literal.utf8 {
            guard peek == byte else {
                throw peek == nil
                    ? error("the line ends in the middle of a value (truncated?)")
                    : error("unexpected character")
            }
            index += 1
        }
        return value
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 64 else { throw error("values nested too deep") }
        guard let byte = peek else { throw error("the line ends where a value should be (truncated?)") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers: a trace holds finite numbers only")
        default: throw error("unexpected character '\(Character(UnicodeScalar(byte)))'")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var fields: [(String, JSONValue)] = []
        var seen: Set<ByteKey> = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else {
                throw peek == nil
                    ? error("the line ends inside an object (truncated?)")
                    : error("a key (a string) expected")
            }
            let key = try string()
            skipSpace()
            guard peek == UInt8(ascii: ":") else {
                throw peek == nil
                    ? error("the line ends inside an object (truncated?)")
                    : error("':' expected after key '\(key)'")
            }
            index += 1
            skipSpace()
            let value = try value(depth: depth + 1)
            // A set of the keys once there are more than a few: linear in the keys, not quadratic.
            if seen.isEmpty, fields.count < 16 {
                if fields.contains(where: { $0.0.isSameBytes(key) }) {
                    throw error("key '\(key)' is given twice")
                }
                if fields.count == 15 { seen = Set((fields.map(\.0) + [key]).map(ByteKey.init)) }
            } else if !seen.insert(ByteKey(key)).inserted {
                throw error("key '\(key)' is given twice")
            }
            fields.append((key, value))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(fields)
            case nil: throw error("the line ends inside an object (truncated?)")
            default: throw error("',' or '}' expected")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipSpace()
            values.append(try value(depth: depth + 1))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(values)
            case nil: throw error("the line ends inside an array (truncated?)")
            default: throw error("',' or ']' expected")
            }
        }
    }

    /// A string's bytes are gathered in one buffer and made a `String` once: linear in the
    /// string's length however many escapes it holds (appending to a `String.UnicodeScalarView`
    /// copied the whole string each time).
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("the line ends inside a string (truncated?)") }
            let byte = bytes[index]
            if byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "\""), byte >= 0x20 {
                index += 1
                continue
            }
            if byte < 0x20 {
                index += 1
                throw error("a control character inside a string")
            }
            out.append(contentsOf: bytes[runStart..<index])
            index += 1
            if byte == UInt8(ascii: "\"") {
                return String(decoding: out, as: UTF8.self)
            }
            guard let escape = peek else { throw error("the line ends inside a string (truncated?)") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A high surrogate must be followed by a low one: `\uD83D\uDE00`.
                    guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error(Self.loneSurrogate(code)) }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error(Self.loneSurrogate(code)) }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error(Self.loneSurrogate(code))
                }
                guard let scalar = UnicodeScalar(code) else { throw error("invalid \\u escape") }
                out.append(contentsOf: UTF8.encode(scalar)!)
            default: throw error("invalid escape in a string")
            }
            runStart = index
        }
    }

    /// "a lone surrogate \uD800 ...": UTF-16 halves that do not pair make no character.
    private static func loneSurrogate(_ code: UInt32) -> String {
        let hex = String(code, radix: 16, uppercase: true)
        return "a lone surrogate \\u\(hex) in a string (a \\uD800-\\uDBFF escape must be followed by a "
            + "\\uDC00-\\uDFFF one)"
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = Self.hexDigit(byte) else { throw error("invalid \\u escape") }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - from
        }
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "I") {
            throw error("NaN and Infinity are not JSON numbers: a trace holds finite numbers only")
        }
        let whole = digits()
        guard whole > 0 else { throw error("a digit expected") }
        if whole > 1, bytes[index - whole] == UInt8(ascii: "0") {
            throw error("a number must not start with 0")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit expected after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a digit expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw JSONSyntaxError(message: "number \(text) is out of range", column: start + 1)
        }
        return .number(number)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
