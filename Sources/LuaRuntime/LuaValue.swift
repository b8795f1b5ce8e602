/// A value crossing the Lua boundary: what a bound Swift function returns, and what Swift reads
/// back from Lua.
///
/// Arrays become Lua sequences (`{1, 2, 3}`), tables become Lua tables with string keys,
/// objects become userdata of a class defined with ``LuaState/defineClass(_:name:methods:releaseMethod:)``.
public enum LuaValue {
    case `nil`
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    /// A sequence, `t[1]` to `t[n]`.
    case array([LuaValue])
    /// A table with string keys. Read from Lua, any table that is not a sequence.
    case table([String: LuaValue])
    /// A table with string keys given in order: what observations return, pushed without hashing
    /// the keys in Swift first. Never produced when reading from Lua.
    case record([(String, LuaValue)])
    /// A table of `count` fields written straight onto the Lua stack by `write`: the cheapest way
    /// to return a value type's fields (a card's frame) on a hot path. Never read from Lua.
    case fields(count: Int, write: (LuaFieldWriter) -> Void)
    /// A Swift object, pushed as userdata of the class defined for its exact type.
    case object(AnyObject)
    /// A Swift function callable from Lua.
    case function(LuaSwiftFunction)
    /// Read from Lua only: a value Swift cannot hold (a Lua function, a coroutine, a foreign
    /// userdata), by its type name.
    case opaque(String)

    /// A Swift function value named `name` (the name is used in argument errors).
    public static func function(_ name: String, _ body: @escaping LuaFunction) -> LuaValue {
        .function(LuaSwiftFunction(name: name, body: body))
    }

    /// The number, if this is an integer or a float.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The boolean, if this is one.
    package var boolean: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    /// The string, if this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// The body of a Swift function called from Lua: reads its arguments, returns its results.
/// A thrown error becomes a Lua error at the caller's `chunkname:line:`, catchable by `pcall`.
public typealias LuaFunction = (LuaArguments) throws -> [LuaValue]

/// A named Swift function for Lua.
public struct LuaSwiftFunction {
    /// The Lua name used in messages: `bad argument #1 to 'name' (...)`.
    public var name: String
    /// Whether Lua calls it as a method (`obj:name()`): argument numbers then skip `self`.
    public var isMethod: Bool
    /// What it does.
    public var body: LuaFunction

    /// A function; `isMethod` for methods called with `:`.
    public init(name: String, isMethod: Bool = false, body: @escaping LuaFunction) {
        self.name = name
        self.isMethod = isMethod
        self.body = body
    }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .nil }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: LuaValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, LuaValue)...) {
        self = .table(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Writes the fields of a table that is being pushed: each call sets one raw field.
public struct LuaFieldWriter {
    package let stack: LuaStack

    public func number(_ key: StaticString, _ value: Double) {
        stack.pushNumberField(key, value)
    }

    public func integer(_ key: StaticString, _ value: Int) {
        stack.pushIntegerField(key, value)
    }

    public func boolean(_ key: StaticString, _ value: Bool) {
        stack.pushBooleanField(key, value)
    }

    public func string(_ key: StaticString, _ value: String) {
        stack.pushStringField(key, value)
    }
}

extension LuaValue {
    /// The strings of an array (`{ "rtl", "smoke" }`), skipping other values; empty for a non-array.
    package var strings: [String] {
        guard case .array(let list) = self else { return [] }
        return list.compactMap(\.string)
    }
}
