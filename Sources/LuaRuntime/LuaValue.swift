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
    /// A table of the fields `write` sets, each one of `keys`, written straight onto the Lua
    /// stack: the cheapest way to return a value type's fields (a card's frame) on a hot path
    /// (the keys are interned once a state, not hashed at every field). Never read from Lua.
    case fields(LuaKeys, write: (LuaFieldWriter) -> Void)
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

/// The keys of a kind of record (a card's `id`, `x`, `y`, ...), in order. A state interns them
/// once, at its first record of them, and keeps them in its registry: a record
/// (``LuaValue/fields(_:write:)``) then takes each key from there instead of hashing it again.
/// Made once a process (a `static let`), and never freed: its address is its registry key.
public final class LuaKeys: Sendable {
    package let names: [String]

    /// The keys `names`, in order: a record's writer names key `n` by a value whose raw value is
    /// `n` (`enum CardField: Int { case id, x, y }` for `["id", "x", "y"]`).
    public init(_ names: [String]) {
        self.names = names
        _ = Unmanaged.passRetained(self)  // lives as long as the process: states keep its address
    }

    /// The registry key of this list's names in a state.
    package var registryKey: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }
}

/// Writes the fields of a table that is being pushed: each call sets one raw field, its key one
/// of the record's ``LuaKeys``.
public struct LuaFieldWriter {
    package let stack: LuaStack
    /// Where the record's interned keys are on the stack; the table is just below them.
    package let keys: Int32

    public func number<Key: RawRepresentable<Int>>(_ key: Key, _ value: Double) {
        stack.setNumberField(key.rawValue, from: keys, value)
    }

    public func integer<Key: RawRepresentable<Int>>(_ key: Key, _ value: Int) {
        stack.setIntegerField(key.rawValue, from: keys, value)
    }

    public func boolean<Key: RawRepresentable<Int>>(_ key: Key, _ value: Bool) {
        stack.setBooleanField(key.rawValue, from: keys, value)
    }

    public func string<Key: RawRepresentable<Int>>(_ key: Key, _ value: String) {
        stack.setStringField(key.rawValue, from: keys, value)
    }
}

extension LuaValue {
    /// The strings of an array (`{ "rtl", "smoke" }`), skipping other values; empty for a non-array.
    package var strings: [String] {
        guard case .array(let list) = self else { return [] }
        return list.compactMap(\.string)
    }
}
