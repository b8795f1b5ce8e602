/// An object of a trace line read field by field: a missing field or a wrong type is a
/// `TraceError` that names the file, the line and the field's path. A component kind reads its
/// trace header fields with it (`TraceableComponent.make(name:from:)`).
public struct TraceFields: Sendable {
    public let fields: [(String, JSONValue)]
    public let file: String
    public let line: Int
    /// The path to this object, `""` for the line itself, `"frame.components[0]."` below it.
    public let path: String

    public init(_ value: JSONValue, file: String, line: Int, path: String = "") throws(TraceError) {
        self.file = file
        self.line = line
        self.path = path
        guard case .object(let fields) = value else {
            throw TraceError(
                file: file, line: line, field: path.isEmpty ? nil : String(path.dropLast()),
                message: "object expected, got \(value.typeName)")
        }
        self.fields = fields
    }

    public func error(_ key: String, _ message: String) -> TraceError {
        TraceError(file: file, line: line, field: path + key, message: message)
    }

    public func has(_ key: String) -> Bool { fields.contains { $0.0 == key } }

    public func value(_ key: String) throws(TraceError) -> JSONValue {
        guard let value = fields.first(where: { $0.0 == key })?.1 else { throw error(key, "missing") }
        return value
    }

    public func number(_ key: String) throws(TraceError) -> Double {
        let value = try value(key)
        guard case .number(let number) = value else {
            throw error(key, "number expected, got \(value.typeName)")
        }
        return number
    }

    public func nonNegative(_ key: String) throws(TraceError) -> Double {
        let number = try number(key)
        guard number >= 0 else { throw error(key, "must not be negative, got \(JSONValue.format(number))") }
        return number
    }

    public func integer(_ key: String) throws(TraceError) -> Int {
        let number = try number(key)
        guard number == number.rounded(), abs(number) < 1e15 else {
            throw error(key, "a whole number expected, got \(JSONValue.format(number))")
        }
        return Int(number)
    }

    public func string(_ key: String) throws(TraceError) -> String {
        let value = try value(key)
        guard case .string(let string) = value else {
            throw error(key, "string expected, got \(value.typeName)")
        }
        return string
    }

    /// A string, or nil for `null` or a missing field.
    public func optionalString(_ key: String) throws(TraceError) -> String? {
        guard has(key) else { return nil }
        let value = try value(key)
        if case .null = value { return nil }
        guard case .string(let string) = value else {
            throw error(key, "string or null expected, got \(value.typeName)")
        }
        return string
    }

    public func bool(_ key: String) throws(TraceError) -> Bool {
        let value = try value(key)
        guard case .bool(let flag) = value else {
            throw error(key, "boolean expected, got \(value.typeName)")
        }
        return flag
    }

    public func array(_ key: String) throws(TraceError) -> [JSONValue] {
        let value = try value(key)
        guard case .array(let values) = value else {
            throw error(key, "array expected, got \(value.typeName)")
        }
        return values
    }

    public func object(_ key: String) throws(TraceError) -> TraceFields {
        try TraceFields(try value(key), file: file, line: line, path: path + key + ".")
    }

    /// The objects of the array `key`, each with its path (`items[1].`).
    public func objects(_ key: String) throws(TraceError) -> [TraceFields] {
        var result: [TraceFields] = []
        for (index, element) in try array(key).enumerated() {
            result.append(try TraceFields(element, file: file, line: line, path: "\(path)\(key)[\(index)]."))
        }
        return result
    }

    /// One of `choices` by name.
    public func choice<T>(_ key: String, _ choices: [(String, T)]) throws(TraceError) -> T {
        let name = try string(key)
        guard let match = choices.first(where: { $0.0 == name }) else {
            throw error(
                key,
                "unknown value '\(name)' (expected one of \(choices.map { "'\($0.0)'" }.joined(separator: ", ")))"
            )
        }
        return match.1
    }
}
