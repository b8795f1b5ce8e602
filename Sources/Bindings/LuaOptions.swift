import LuaRuntime
import StackModel

/// An options table given to a bound function (`screen { width = 390 }`), read by name with
/// lauxlib-style errors against the argument that holds it.
///
/// Every name must be one the function knows: an unknown one is an error that suggests the
/// nearest known name (`unknown option 'spacng' (did you mean 'spacing'?)`), so a typo is never a
/// silent default.
struct LuaOptions {
    let entries: [String: LuaValue]
    let function: String
    let argument: Int
    let isMethod: Bool
    /// The stack the options came from, for what they will cost (``readCards(_:defaultHeight:)``).
    let stack: LuaStack?

    /// Reads argument `position` of `arguments` as an options table (nil or absent is empty).
    init(_ arguments: LuaArguments, at position: Int, known: [String]) throws {
        function = arguments.function
        argument = position
        isMethod = arguments.isMethod
        stack = arguments.stack
        switch try arguments.value(at: position) {
        case .nil: entries = [:]
        case .table(let table): entries = table
        case .array(let elements) where elements.isEmpty: entries = [:]
        case .array:
            throw LuaError.badArgument(
                position, to: function, isMethod: isMethod, "options table expected, got a list")
        default:
            throw arguments.typeError(at: position, expected: "table")
        }
        for key in entries.keys.sorted() where !known.contains(key) {
            var detail = "unknown option '\(key)'"
            if let near = nearestName(to: key, in: known) { detail += " (did you mean '\(near)'?)" }
            throw LuaError.badArgument(position, to: function, isMethod: isMethod, detail)
        }
    }

    func error(_ key: String, _ detail: String) -> LuaError {
        LuaError.badArgument(argument, to: function, isMethod: isMethod, "field '\(key)': \(detail)")
    }

    func has(_ key: String) -> Bool { entries[key] != nil }

    /// A finite number (`allowNegative: false` also refuses numbers below 0).
    func number(_ key: String, default defaultValue: Double? = nil, allowNegative: Bool = true) throws
        -> Double
    {
        guard let value = entries[key] else {
            if let defaultValue { return defaultValue }
            throw error(key, "number expected, got nil")
        }
        guard let number = value.number else { throw error(key, "number expected, got \(value.typeName)") }
        guard number.isFinite else { throw error(key, "number must be finite, got \(formatNumber(number))") }
        if !allowNegative, number < 0 {
            throw error(key, "number must not be negative, got \(formatNumber(number))")
        }
        return number
    }

    func optionalNumber(_ key: String, allowNegative: Bool = true) throws -> Double? {
        has(key) ? try number(key, allowNegative: allowNegative) : nil
    }

    /// A whole number; a float without an integer value (0.5, 1e300, NaN) is refused as lauxlib
    /// does, never truncated.
    func integer(_ key: String, default defaultValue: Int) throws -> Int {
        try optionalInteger(key) ?? defaultValue
    }

    /// A whole number, or nil when the key is absent.
    func optionalInteger(_ key: String) throws -> Int? {
        guard let value = entries[key] else { return nil }
        if case .integer(let integer) = value { return integer }
        if let number = value.number, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        throw error(
            key,
            value.number != nil
                ? "number has no integer representation" : "integer expected, got \(value.typeName)")
    }

    /// A whole number not below 0 (a count of events), or nil when the key is absent.
    func optionalCount(_ key: String) throws -> Int? {
        guard let count = try optionalInteger(key) else { return nil }
        guard count >= 0 else { throw error(key, "number must not be negative, got \(count)") }
        return count
    }

    func string(_ key: String, default defaultValue: String? = nil) throws -> String {
        guard let value = entries[key] else {
            if let defaultValue { return defaultValue }
            throw error(key, "string expected, got nil")
        }
        guard let string = value.string else { throw error(key, "string expected, got \(value.typeName)") }
        return string
    }

    func optionalString(_ key: String) throws -> String? { has(key) ? try string(key) : nil }

    /// A card id: a string, or an integer as `items` takes ids (`selection = 2`).
    func optionalID(_ key: String) throws -> String? {
        if case .integer(let number)? = entries[key] { return String(number) }
        return try optionalString(key)
    }

    func boolean(_ key: String, default defaultValue: Bool) throws -> Bool {
        guard let value = entries[key] else { return defaultValue }
        guard case .boolean(let flag) = value else {
            throw error(key, "boolean expected, got \(value.typeName)")
        }
        return flag
    }

    /// One of `choices`, by name in any case (`"RTL"`), as every setting's name is read.
    func choice<T>(_ key: String, _ choices: [(String, T)], default defaultValue: T) throws -> T {
        guard has(key) else { return defaultValue }
        let name = try string(key)
        if let match = choices.first(where: { $0.0 == name.lowercased() }) { return match.1 }
        var detail = "expected one of \(choices.map { "'\($0.0)'" }.joined(separator: ", ")), got '\(name)'"
        if let near = nearestName(to: name, in: choices.map(\.0)) { detail += " (did you mean '\(near)'?)" }
        throw error(key, detail)
    }
}

extension LuaValue {
    /// Lua's name of this value's type.
    var typeName: String {
        switch self {
        case .nil: "nil"
        case .boolean: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array, .table, .record, .fields: "table"
        case .object: "userdata"
        case .function: "function"
        case .opaque(let name): name
        }
    }
}
