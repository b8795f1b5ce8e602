import LuaRuntime

@testable import Bindings

/// A table argument, read field by field (raw: no metamethods run) with lauxlib-style checks: the
/// tests' way to read an options table through the raw stack (the API reads tables as
/// `LuaValue`s, through `LuaOptions`).
///
/// A bad field is reported against the argument that holds it:
/// `bad argument #1 to 'screen' (field 'width': number expected, got string)`.
/// Valid only during the call it came from.
struct LuaTable {
    let stack: LuaStack
    /// Absolute stack index of the table.
    let index: Int32
    let owner: LuaArguments
    let argument: Int
    /// "spring." for a table found at field `spring`; "" for the argument itself.
    let path: String

    init(stack: LuaStack, index: Int32, owner: LuaArguments, argument: Int, path: String) {
        self.stack = stack
        self.index = stack.absolute(index)
        self.owner = owner
        self.argument = argument
        self.path = path
    }

    /// `#t`, raw: the length of the sequence part.
    var count: Int { stack.rawLength(index) }

    /// Reads `t[key]` with `read`, which sees the value's stack index; pops it afterwards.
    private func field<T>(_ key: String, _ read: (Int32) throws -> T) throws -> T {
        try stack.ensure(2)
        stack.pushField(key, of: index)
        defer { stack.pop(1) }
        return try read(-1)
    }

    private func element<T>(_ n: Int, _ read: (Int32) throws -> T) throws -> T {
        try stack.ensure(2)
        stack.pushElement(n, of: index)
        defer { stack.pop(1) }
        return try read(-1)
    }

    private func mismatch(_ name: String, expected: String, at slot: Int32) -> LuaError {
        owner.error(at: argument, "field '\(path)\(name)': \(expected) expected, got \(stack.typeName(slot))")
    }

    /// Whether `t[key]` is not nil.
    func has(_ key: String) throws -> Bool { try field(key) { !stack.isNoneOrNil($0) } }

    /// `t[key]` read by `read`; `defaultValue` when nil; else an error naming `expected`.
    private func typed<T>(_ key: String, _ defaultValue: T?, _ expected: String, _ read: (Int32) -> T?) throws
        -> T
    {
        try field(key) { slot in
            if stack.isNoneOrNil(slot), let defaultValue { return defaultValue }
            guard let value = read(slot) else { throw mismatch(key, expected: expected, at: slot) }
            return value
        }
    }

    /// The number at `t[key]`; `defaultValue` when nil, or an error when there is none.
    func number(_ key: String, default defaultValue: Double? = nil) throws -> Double {
        try typed(key, defaultValue, "number", stack.number)
    }

    /// The number at `t[key]`, or nil.
    func optionalNumber(_ key: String) throws -> Double? { try has(key) ? try number(key) : nil }

    /// The integer at `t[key]`; `defaultValue` when nil.
    func integer(_ key: String, default defaultValue: Int? = nil) throws -> Int {
        try typed(key, defaultValue, "integer", stack.integer)
    }

    /// The string at `t[key]`; `defaultValue` when nil.
    func string(_ key: String, default defaultValue: String? = nil) throws -> String {
        try typed(key, defaultValue, "string", stack.string)
    }

    /// The string at `t[key]`, or nil.
    func optionalString(_ key: String) throws -> String? { try has(key) ? try string(key) : nil }

    /// The boolean at `t[key]`; `defaultValue` when nil.
    func boolean(_ key: String, default defaultValue: Bool? = nil) throws -> Bool {
        try typed(key, defaultValue, "boolean", stack.strictBoolean)
    }

    /// The table at `t[key]`, or nil. It stays on the Lua stack until the call returns.
    func optionalTable(_ key: String) throws -> LuaTable? {
        try stack.ensure(2)
        stack.pushField(key, of: index)
        if stack.isNoneOrNil(-1) {
            stack.pop(1)
            return nil
        }
        guard stack.isTable(-1) else {
            defer { stack.pop(1) }
            throw mismatch(key, expected: "table", at: -1)
        }
        return LuaTable(stack: stack, index: -1, owner: owner, argument: argument, path: path + key + ".")
    }

    /// The table at `t[key]`; an error when there is none.
    func table(_ key: String) throws -> LuaTable {
        guard let table = try optionalTable(key) else {
            throw owner.error(at: argument, "field '\(path)\(key)': table expected, got nil")
        }
        return table
    }

    /// The number at `t[n]` (1-based), e.g. for `{x, y}` points.
    func number(at n: Int) throws -> Double {
        try element(n) { slot in
            guard let value = stack.number(slot) else {
                throw mismatch("[\(n)]", expected: "number", at: slot)
            }
            return value
        }
    }

    /// The numbers `t[1]` to `t[#t]`.
    func numbers() throws -> [Double] { try (0..<count).map { try number(at: $0 + 1) } }

    /// `t[key]` converted as ``LuaValue``.
    func value(_ key: String) throws -> LuaValue {
        try field(key) { slot in
            do { return try stack.value(at: slot) } catch {
                throw owner.error(at: argument, "field '\(path)\(key)': \(error)")
            }
        }
    }

    /// The whole table converted as ``LuaValue``.
    func value() throws -> LuaValue {
        do { return try stack.value(at: index) } catch { throw owner.error(at: argument, "\(error)") }
    }
}

extension LuaArguments {
    /// A table, read field by field with the same checks (an options table, an array).
    func table(at position: Int) throws -> LuaTable {
        guard stack.isTable(Int32(position)) else { throw typeError(at: position, expected: "table") }
        return LuaTable(stack: stack, index: Int32(position), owner: self, argument: position, path: "")
    }

    /// A table, or nil when absent or nil (an optional options table).
    func optionalTable(at position: Int) throws -> LuaTable? {
        isNil(at: position) ? nil : try table(at: position)
    }
}
