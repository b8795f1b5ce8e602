/// The arguments of one call from Lua to a bound Swift function, read with lauxlib's checks.
///
/// A failed check throws ``LuaError`` worded as lauxlib does, e.g.
/// `bad argument #2 to 'drag' (number expected, got nil)`; Lua sees it at the caller's line.
/// Valid only during the call.
public struct LuaArguments {
    package let stack: LuaStack
    /// The Lua name of the function being called, for messages.
    public let function: String
    /// Whether the function is a method: messages then number arguments from after `self`.
    public let isMethod: Bool
    /// How many arguments Lua passed (including `self` for a method).
    public let count: Int

    package init(stack: LuaStack, function: String, isMethod: Bool) {
        self.stack = stack
        self.function = function
        self.isMethod = isMethod
        count = Int(stack.top)
    }

    package func error(at position: Int, _ detail: String) -> LuaError {
        .badArgument(position, to: function, isMethod: isMethod, detail)
    }

    package func typeError(at position: Int, expected: String) -> LuaError {
        error(at: position, "\(expected) expected, got \(stack.typeName(Int32(position)))")
    }

    /// Whether argument `position` is absent or nil.
    public func isNil(at position: Int) -> Bool { stack.isNoneOrNil(Int32(position)) }

    /// The argument read by `read`, or a type error naming `expected`.
    private func check<T>(_ position: Int, _ expected: String, _ read: (Int32) -> T?) throws -> T {
        guard let value = read(Int32(position)) else { throw typeError(at: position, expected: expected) }
        return value
    }

    /// A number (numeric strings are accepted, as in Lua).
    public func number(at position: Int) throws -> Double { try check(position, "number", stack.number) }

    /// A number, or nil when the argument is absent or nil.
    public func optionalNumber(at position: Int) throws -> Double? {
        isNil(at: position) ? nil : try number(at: position)
    }

    /// An integer; a float without an integer value is refused as lauxlib does.
    public func integer(at position: Int) throws -> Int {
        if let value = stack.integer(Int32(position)) { return value }
        if stack.number(Int32(position)) != nil {
            throw error(at: position, "number has no integer representation")
        }
        throw typeError(at: position, expected: "number")
    }

    /// An integer, or nil when absent or nil.
    public func optionalInteger(at position: Int) throws -> Int? {
        isNil(at: position) ? nil : try integer(at: position)
    }

    /// An integer within `range` (say a stack level that must fit a C `int`); out of range is
    /// `bad argument #1 to 'f' (number out of range: from 0 to 9, got 12)`.
    public func integer(at position: Int, in range: ClosedRange<Int>) throws -> Int {
        let value = try integer(at: position)
        guard range.contains(value) else {
            throw error(
                at: position,
                "number out of range: from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return value
    }

    /// An integer that fits a C `int` (a stack level), or nil when absent or nil.
    public func optionalInt32(at position: Int) throws -> Int32? {
        try optionalInteger(at: position, in: Int(Int32.min)...Int(Int32.max)).map { Int32($0) }
    }

    /// An integer within `range`, or nil when absent or nil.
    public func optionalInteger(at position: Int, in range: ClosedRange<Int>) throws -> Int? {
        isNil(at: position) ? nil : try integer(at: position, in: range)
    }

    /// A string (a number is converted, as in Lua).
    public func string(at position: Int) throws -> String { try check(position, "string", stack.string) }

    /// A string's first `limit` bytes and its length in bytes (a number is converted, as in Lua):
    /// what a bounded sink keeps of a string that may be far larger.
    public func string(at position: Int, prefix limit: Int) throws -> (text: String, length: Int) {
        try check(position, "string") { stack.string($0, prefix: limit) }
    }

    /// A string, or nil when absent or nil.
    public func optionalString(at position: Int) throws -> String? {
        isNil(at: position) ? nil : try string(at: position)
    }

    /// A boolean; strictly `true` or `false`.
    public func boolean(at position: Int) throws -> Bool {
        try check(position, "boolean", stack.strictBoolean)
    }

    /// A boolean, or nil when absent or nil.
    public func optionalBoolean(at position: Int) throws -> Bool? {
        isNil(at: position) ? nil : try boolean(at: position)
    }

    /// Any value, converted as ``LuaValue`` (tables deeply); a table nested too deep or holding
    /// itself is `bad argument #1 to 'screen' (field 'width': a table that holds itself (a cycle))`.
    public func value(at position: Int) throws -> LuaValue {
        do { return try stack.value(at: Int32(position)) } catch {
            throw self.error(at: position, "\(error)")
        }
    }

    /// The Swift object held by a userdata of the class defined for `T`; for a method, position 1
    /// is `self`. A released object or another type is an argument error.
    /// The type names of values that are no object: a method's first argument of one of these
    /// was most likely called with `.` instead of `:`.
    private static let plainValues: Set<String> = [
        "no value", "string", "number", "boolean", "table", "function", "thread",
    ]

    public func object<T: AnyObject>(at position: Int, as type: T.Type) throws -> T {
        switch stack.object(at: Int32(position), as: type) {
        case .object(let object): return object
        case .released: throw error(at: position, "\(stack.typeName(Int32(position))) has been released")
        case .wrongType where position == 1 && isMethod && Self.plainValues.contains(stack.typeName(1)):
            // `stack.card("a")`: the method was called with `.`, and its first argument is not the
            // object (another object, or nil, was passed on purpose: no hint)
            throw error(
                at: position,
                "\(stack.className(type)) expected, got \(stack.typeName(1)): use ':' as in "
                    + "x:\(function)(...), not x.\(function)(...)")
        case .wrongType:
            throw typeError(at: position, expected: stack.className(type))
        }
    }

    /// Releases the object held by the userdata at `position` now (it must be a `T`); any later
    /// use of that userdata is an error. Its `__gc` will then do nothing.
    public func releaseObject<T: AnyObject>(at position: Int, as type: T.Type) throws {
        _ = try object(at: position, as: type)
        stack.releaseObject(at: Int32(position), of: type)
    }
}
