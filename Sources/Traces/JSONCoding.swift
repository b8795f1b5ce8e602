/// `Codable` to and from ``JSONValue``, without Foundation: what the `--json` report, `stackplay
/// merge` and the worker's wire write and read a test's result with (one model, one format).
/// Object keys keep the order the type encodes them in, so that the bytes are the same run to run.
/// JSON has no NaN or infinity: a non-finite `Double` is written as the string `"nan"`, `"inf"` or
/// `"-inf"`, which the decoder reads back where a number belongs (never `null`, which reads as
/// nothing).
public struct JSONValueEncoder: Sendable {
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) { self.userInfo = userInfo }

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = EncodingNode()
        try value.encode(
            to: NodeEncoder(node: node, codingPath: [], userInfo: userInfo as [CodingUserInfoKey: Any]))
        return node.json
    }

    /// `value` as JSON, for a type whose `encode(to:)` only writes into its containers: those
    /// never fail here.
    public func json<T: Encodable>(_ value: T) -> JSONValue {
        do { return try encode(value) } catch { preconditionFailure("\(T.self) did not encode: \(error)") }
    }
}

/// Reads what ``JSONValueEncoder`` wrote: a missing key, a value of the wrong JSON type or a
/// value out of a type's range is a `DecodingError` naming its path (``JSONDecodingProblem``
/// says it in words), never a silent default.
public struct JSONValueDecoder: Sendable {
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) { self.userInfo = userInfo }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey] = [])
        throws -> T
    {
        try T(
            from: NodeDecoder(value: value, codingPath: path, userInfo: userInfo as [CodingUserInfoKey: Any]))
    }
}

/// A `DecodingError` in words: the field's path (`tests[3].seconds`) and what is wrong with it.
public struct JSONDecodingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(path: "", message: "\(error)")
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), message: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self.init(path: Self.path(context.codingPath), message: context.debugDescription)
        @unknown default:
            self.init(path: "", message: "\(error)")
        }
    }

    /// `tests[3].audit[0].frame.x`.
    public static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue, key.stringValue == "\(index)" {
                out += "[\(index)]"
            } else {
                out += (out.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return out
    }

    public var description: String { "field '\(path)': \(message)" }
}

/// A key of a coding path: an object's key (`JSONKey("tests")`) or an array's index (`JSONKey(3)`).
public struct JSONKey: CodingKey {
    public var intValue: Int?
    public var stringValue: String
    public init(_ index: Int) {
        intValue = index
        stringValue = "\(index)"
    }
    public init(_ name: String) { stringValue = name }
    public init?(intValue: Int) { self.init(intValue) }
    public init?(stringValue: String) { self.init(stringValue) }
}

// MARK: Encoding

/// One value being encoded: the encoder's containers write into it, and it becomes a JSONValue
/// when the whole value is done.
private final class EncodingNode {
    private enum Content {
        case value(JSONValue)
        case object([(String, EncodingNode)], [String: Int])
        case array([EncodingNode])
    }
    private var content = Content.value(.null)

    func set(_ value: JSONValue) { content = .value(value) }

    /// The node of `key`, made an object first (a second container of the same encoder, as
    /// `super.encode(to:)` makes, adds to the same object).
    func field(_ key: String) -> EncodingNode {
        var (fields, index) = ([(String, EncodingNode)](), [String: Int]())
        if case .object(let f, let i) = content { (fields, index) = (f, i) }
        content = .value(.null)  // no second reference to `fields` while it grows
        let node: EncodingNode
        if let at = index[key] {
            node = fields[at].1
        } else {
            node = EncodingNode()
            index[key] = fields.count
            fields.append((key, node))
        }
        content = .object(fields, index)
        return node
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([], [:])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    func append() -> EncodingNode {
        var items: [EncodingNode] = []
        if case .array(let existing) = content { items = existing }
        content = .value(.null)
        let node = EncodingNode()
        items.append(node)
        content = .array(items)
        return node
    }

    var count: Int {
        if case .array(let items) = content { return items.count }
        return 0
    }

    var json: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let fields, _): .object(fields.map { ($0.0, $0.1.json) })
        case .array(let items): .array(items.map(\.json))
        }
    }

    static func number(_ number: Double) -> JSONValue {
        guard !number.isFinite else { return .number(number) }
        return .string(number.isNaN ? "nan" : number > 0 ? "inf" : "-inf")
    }

    /// A value of a type JSON holds directly, or nil for one that encodes itself.
    static func primitive(_ value: any Encodable) -> JSONValue? {
        switch value {
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Double: Self.number(number)
        case let number as any BinaryInteger: .number(Double(number))
        case let number as any BinaryFloatingPoint: Self.number(Double(number))
        default: nil
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func child(_ node: EncodingNode, _ key: any CodingKey) -> NodeEncoder {
        NodeEncoder(node: node, codingPath: codingPath + [key], userInfo: userInfo)
    }

    func encode(_ value: some Encodable, into node: EncodingNode, key: any CodingKey) throws {
        if let primitive = EncodingNode.primitive(value) {
            node.set(primitive)
        } else {
            try value.encode(to: child(node, key))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedNodeEncoder(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeEncoder(encoder: self) }
}

private struct KeyedNodeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { encoder.node.field(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: encoder.node.field(key.stringValue), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.child(encoder.node.field(key.stringValue), key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(encoder.node.field(key.stringValue), key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.child(encoder.node.field(key.stringValue), key)
    }
}

private struct UnkeyedNodeEncoder: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    mutating func encodeNil() throws { encoder.node.append().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = JSONKey(count)
        try encoder.encode(value, into: encoder.node.append(), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let key = JSONKey(count)
        return encoder.child(encoder.node.append(), key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = JSONKey(count)
        return encoder.child(encoder.node.append(), key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = JSONKey(count)
        return encoder.child(encoder.node.append(), key)
    }
}

private struct SingleNodeEncoder: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.set(.null) }
    mutating func encode(_ value: Bool) throws { encoder.node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.node.set(EncodingNode.number(value)) }
    mutating func encode(_ value: Int) throws { encoder.node.set(.number(Double(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let primitive = EncodingNode.primitive(value) {
            encoder.node.set(primitive)
        } else {
            try value.encode(to: encoder)
        }
    }
}

// MARK: Decoding

private struct NodeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    func child(_ value: JSONValue, _ key: any CodingKey) -> NodeDecoder {
        NodeDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(
            Any.self,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected \(expected), got \(value.typeName)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(KeyedNodeDecoder<Key>(decoder: self, fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array") }
        return UnkeyedNodeDecoder(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeDecoder(decoder: self)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == String.self {
            guard case .string(let text) = value else { throw mismatch("a string") }
            return text as! T
        }
        if type == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch("a boolean") }
            return flag as! T
        }
        if type == Double.self { return try number() as! T }
        if let integer = type as? any FixedWidthInteger.Type {
            guard let whole = Self.whole(try number(), as: integer) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "expected a whole number, got \(value.text)"))
            }
            return whole as! T
        }
        if let floating = type as? any BinaryFloatingPoint.Type { return floating.init(try number()) as! T }
        return try T(from: self)
    }

    private static func whole<I: FixedWidthInteger>(_ number: Double, as type: I.Type) -> I? {
        I(exactly: number)
    }

    private func number() throws -> Double {
        switch value {
        case .number(let number): return number
        case .string("nan"): return .nan
        case .string("inf"): return .infinity
        case .string("-inf"): return -.infinity
        default: throw mismatch("a number")
        }
    }
}

private struct KeyedNodeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let index: [String: JSONValue]
    let allKeys: [Key]
    var codingPath: [any CodingKey] { decoder.codingPath }

    init(decoder: NodeDecoder, fields: [(String, JSONValue)]) {
        self.decoder = decoder
        var index: [String: JSONValue] = [:]
        for (key, value) in fields { index[key] = value }
        self.index = index
        allKeys = fields.compactMap { Key(stringValue: $0.0) }
    }

    func contains(_ key: Key) -> Bool { index[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = index[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.child(try value(key), key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(try value(key), key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try value(key), key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try value(key), key) }
}

private struct UnkeyedNodeDecoder: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [JSONValue]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(decoder: NodeDecoder, items: [JSONValue]) {
        self.decoder = decoder
        self.items = items
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "the array ends too early"))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], JSONKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleNodeDecoder: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
