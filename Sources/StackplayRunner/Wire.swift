import TestResults
import Traces

/// The bytes a worker process sends its parent: a test's result or a file's tests. The envelope
/// is written field by field (lengths as 8-byte little-endian integers); each test and result is
/// the one record model (``TestResult``'s `Codable` encoding, every field of it) as JSON text, so
/// that the wire and the `--json` report are one format.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func string(_ value: String) {
        int(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
    /// A string or none: a flag, then the string when there is one.
    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func test(_ test: TestCase) { record(test) }
    mutating func result(_ result: TestResult) { record(result) }

    private mutating func record(_ value: some Encodable) {
        string(Wire.encoder.json(value).text)
    }
}

/// Reads what ``WireWriter`` wrote; nil from every read once the bytes run out or make no sense.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func int() -> Int? {
        guard offset + 8 <= bytes.count else { return nil }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
        offset += 8
        return Int(Int64(bitPattern: value))
    }
    mutating func bool() -> Bool? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1] != 0
    }
    mutating func string() -> String? {
        guard let count = int(), count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    /// What ``WireWriter/optionalString(_:)`` wrote: `.some(nil)` for none, nil when the bytes
    /// run out.
    mutating func optionalString() -> String?? {
        guard let present = bool() else { return nil }
        guard present else { return .some(nil) }
        guard let text = string() else { return nil }
        return .some(text)
    }

    mutating func test() -> TestCase? { record(TestCase.self) }
    mutating func result() -> TestResult? { record(TestResult.self) }

    private mutating func record<T: Decodable>(_ type: T.Type) -> T? {
        guard let text = string(), let value = try? JSONParser.parse(text) else { return nil }
        return try? JSONValueDecoder().decode(type, from: value)
    }
}

enum Wire {
    /// Every field, also those a report leaves out.
    static let encoder = JSONValueEncoder(userInfo: [.fullRecord: true])
}
