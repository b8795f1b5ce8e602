import CLua
import CLuaRuntime
import Wording

#if canImport(Glibc)
    import Glibc
#endif

/// Typed, non-raising operations on a Lua stack, for one bound-function call or one run.
///
/// With `LuaState.swift`, the only Swift that calls the Lua C API. Only raw accessors (no
/// metamethods run) and `m` calls made while the guard is exempt (they cannot fail), so nothing
/// here can `longjmp` through Swift.
package struct LuaStack {
    /// The state, named `L` as every line of Lua's C API and manual names it.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    package let L: OpaquePointer

    package init(_ state: OpaquePointer) { L = state }

    /// The registry key of the metatable for Swift objects of exactly type `type`.
    package static func classKey(_ type: AnyObject.Type) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))!
    }

    package var top: Int32 { lua_gettop(L) }

    package func absolute(_ index: Int32) -> Int32 { lua_absindex(L, index) }

    /// Makes room for `count` more values, or throws ("stack overflow", as Lua says).
    package func ensure(_ count: Int32) throws {
        if lua_checkstack(L, count) == 0 { throw LuaError("stack overflow (too many values)") }
    }

    package func pop(_ count: Int32) { stackplay_lua_pop(L, count) }

    // MARK: Reading

    /// The integer at `index`, or nil for any other value (a float too): never raises.
    package func rawInteger(at index: Int32) -> Int? {
        lua_isinteger(L, index) != 0 ? Int(lua_tointegerx(L, index, nil)) : nil
    }
    /// The number at `index`, or nil for any other value (a numeric string too): never raises.
    package func rawNumber(at index: Int32) -> Double? {
        lua_type(L, index) == LUA_TNUMBER ? lua_tonumberx(L, index, nil) : nil
    }
    package func isString(_ index: Int32) -> Bool { lua_type(L, index) == LUA_TSTRING }

    /// What a fast path (``FastMethod``) returns to leave the call to the method's ordinary closure.
    package static let fallback: Int32 = STACKPLAY_FALLBACK
    /// What a Swift function that C calls directly (`luaopen_stackplay`) returns with its error
    /// message pushed, for the C side to raise once Swift has returned.
    package static let raise: Int32 = STACKPLAY_RAISE
    /// `lua_type`'s value for a table.
    package static let tableType: Int32 = LUA_TTABLE

    package func isNoneOrNil(_ index: Int32) -> Bool { stackplay_lua_isnoneornil(L, index) != 0 }
    package func isTable(_ index: Int32) -> Bool { lua_type(L, index) == LUA_TTABLE }
    package func isInteger(_ index: Int32) -> Bool { lua_isinteger(L, index) != 0 }
    package func isBoolean(_ index: Int32) -> Bool { lua_type(L, index) == LUA_TBOOLEAN }
    package func boolean(_ index: Int32) -> Bool { lua_toboolean(L, index) != 0 }
    /// `true` or `false`, or nil for any other value.
    package func strictBoolean(_ index: Int32) -> Bool? { isBoolean(index) ? boolean(index) : nil }

    /// The type name as lauxlib's `luaL_typeerror` gives it: `__name`, "light userdata", "no value".
    package func typeName(_ index: Int32) -> String {
        if lua_type(L, index) == LUA_TNONE { return "no value" }
        if lua_getmetatable(L, index) != 0 {
            lua_pushstring(L, "__name")
            let named = lua_rawget(L, -2) == LUA_TSTRING ? string(-1) : nil
            pop(2)
            if let named { return named }
        }
        if lua_type(L, index) == LUA_TLIGHTUSERDATA { return "light userdata" }
        return String(cString: lua_typename(L, lua_type(L, index)))
    }

    /// The number at `index`, also from a numeric string, as `luaL_checknumber` accepts.
    package func number(_ index: Int32) -> Double? {
        var ok: Int32 = 0
        let value = lua_tonumberx(L, index, &ok)
        return ok != 0 ? value : nil
    }

    /// The integer at `index` (a float with an exact integer value counts).
    package func integer(_ index: Int32) -> Int? {
        var ok: Int32 = 0
        let value = lua_tointegerx(L, index, &ok)
        return ok != 0 ? Int(value) : nil
    }

    /// The first `limit` bytes of the string at `index` and its whole length in bytes, without
    /// copying the rest (what a bounded sink keeps: a test's printed output); a number is converted
    /// in place, as `luaL_checkstring` does.
    package func string(_ index: Int32, prefix limit: Int) -> (text: String, length: Int)? {
        let type = lua_type(L, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let bytes = lua_tolstring(L, index, &length) else { return nil }
        let kept = min(length, max(0, limit))
        let text = bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            LuaBytes.decode(UnsafeBufferPointer(start: $0, count: kept))
        }
        return (text, length)
    }

    /// The string at `index`; a number is converted in place, as `luaL_checkstring` does.
    package func string(_ index: Int32) -> String? {
        let type = lua_type(L, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let bytes = lua_tolstring(L, index, &length) else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            LuaBytes.decode(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The raw length (`#t` without `__len`).
    package func rawLength(_ index: Int32) -> Int { Int(lua_rawlen(L, index)) }

    /// Pushes `t[key]` for the table at `table`, raw.
    package func pushField(_ key: String, of table: Int32) {
        let table = absolute(table)
        pushString(key)
        lua_rawget(L, table)
    }

    /// Pushes `t[n]` for the table at `table`, raw.
    package func pushElement(_ n: Int, of table: Int32) { lua_rawgeti(L, table, lua_Integer(n)) }

    /// Sets `t[key]` to the value on top (popped), raw.
    package func setField(_ key: String, in table: Int32) {
        let table = absolute(table)
        pushString(key)
        lua_rotate(L, -2, 1)
        lua_rawset(L, table)
    }

    /// Pushes the table of `keys`' interned names: from the registry, or made and kept there at
    /// its first use in this state (before the file's snapshot when a module interns it at its
    /// install, ``LuaState/intern(_:)``; else again after each restore).
    package func pushKeys(_ keys: LuaKeys) {
        if lua_rawgetp(L, stackplay_lua_registryindex(), keys.registryKey) == LUA_TTABLE { return }
        pop(1)
        lua_createtable(L, Int32(clamping: keys.names.count), 0)
        for (offset, name) in keys.names.enumerated() {
            pushString(name)
            lua_rawseti(L, -2, lua_Integer(offset + 1))
        }
        lua_pushvalue(L, -1)
        lua_rawsetp(L, stackplay_lua_registryindex(), keys.registryKey)
    }

    // `t[key] = value` for the table just below the keys at `keys` (``pushKeys(_:)``), raw; the
    // key is the interned name at `index`, pushed before the value, so that no rotation is needed.

    /// Pushes the interned name at `index` of the keys at `keys`; false (nothing pushed) for an
    /// index the keys do not have: a nil key would raise inside `lua_rawset`, past Swift frames.
    private func pushKey(_ index: Int, from keys: Int32) -> Bool {
        if lua_rawgeti(L, keys, lua_Integer(index + 1)) == LUA_TSTRING { return true }
        pop(1)
        assertionFailure("no key \(index) in a record's keys")
        return false
    }

    package func setNumberField(_ index: Int, from keys: Int32, _ value: Double) {
        guard pushKey(index, from: keys) else { return }
        lua_pushnumber(L, value)
        lua_rawset(L, keys - 1)
    }

    package func setIntegerField(_ index: Int, from keys: Int32, _ value: Int) {
        guard pushKey(index, from: keys) else { return }
        lua_pushinteger(L, lua_Integer(value))
        lua_rawset(L, keys - 1)
    }

    package func setBooleanField(_ index: Int, from keys: Int32, _ value: Bool) {
        guard pushKey(index, from: keys) else { return }
        lua_pushboolean(L, value ? 1 : 0)
        lua_rawset(L, keys - 1)
    }

    package func setStringField(_ index: Int, from keys: Int32, _ value: String) {
        guard pushKey(index, from: keys) else { return }
        pushString(value)
        lua_rawset(L, keys - 1)
    }

    /// How deep a table read from Lua may nest: deeper is an error, never a silent cut.
    package static let maximumDepth = 100

    /// Why a Lua value could not become a ``LuaValue``: a table nested too deep or holding itself.
    /// `path` names where (`a.b[2]`), outermost key first.
    package struct ConversionError: Error, CustomStringConvertible {
        package var problem: String
        package var path: [String] = []

        /// "field 'a.b': table holds itself (a cycle)", or the bare problem at the top.
        package var description: String {
            guard var name = path.first else { return problem }
            for key in path.dropFirst().prefix(4) { name += key.hasPrefix("[") ? key : "." + key }
            if path.count > 5 { name += "..." }
            return "field '\(name)': \(problem)"
        }
    }

    /// Whether the memory budget has `bytes` left for Swift to make; when not, the state is
    /// marked stopped for memory (raised once the Swift call returns).
    package func hasRoom(for bytes: Int) -> Bool {
        guard bytes > Int(clamping: stackplay_memory_room(L)) else { return true }
        stackplay_memory_exhausted(L)
        return false
    }

    /// The value at `index` as Swift sees it; tables are converted deeply, each table once (the
    /// time is linear in the values), at most ``maximumDepth`` levels, and a table that holds
    /// itself is an error rather than an endless walk.
    package func value(at index: Int32) throws(ConversionError) -> LuaValue {
        var walk = TableWalk(room: Int(clamping: stackplay_memory_room(L)))
        return try value(at: index, walk: &walk)
    }

    /// The tables being converted on the way to the current one (for cycles and depth), and those
    /// already converted (a table reached twice, `t = { u, u }`, is converted once).
    private struct TableWalk {
        package var open: Set<UnsafeRawPointer> = []
        package var done: [UnsafeRawPointer: LuaValue] = [:]
        /// The bytes the memory budget allows, and those the Swift copies of strings took so far:
        /// a string Lua shares (one 4 MiB label in 200 items) is a new copy each time in Swift.
        let room: Int
        var bytes = 0
    }

    private func value(at index: Int32, walk: inout TableWalk) throws(ConversionError) -> LuaValue {
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .boolean(boolean(index))
        case LUA_TNUMBER: return isInteger(index) ? .integer(integer(index)!) : .number(number(index)!)
        case LUA_TSTRING:
            try charge(Int(lua_rawlen(L, index)), &walk)
            return .string(string(index)!)
        case LUA_TTABLE: return try table(at: absolute(index), walk: &walk)
        default: return .opaque(typeName(index))
        }
    }

    /// Counts `bytes` that the conversion makes in Swift; past the memory budget's room the
    /// state is stopped for memory (raised once the Swift call returns) and the walk ends.
    private func charge(_ bytes: Int, _ walk: inout TableWalk) throws(ConversionError) {
        walk.bytes += bytes
        guard walk.bytes > walk.room else { return }
        stackplay_memory_exhausted(L)
        throw ConversionError(problem: "it needs more memory than the budget has left")
    }

    /// What one table entry costs while it is converted, measured: its key, its value in the
    /// dictionary and in the sequence, and their copies (about 300 bytes an element of a list).
    private static let entryBytes = 320

    /// One table: a sequence when its keys are exactly 1...#t, else a table with string keys.
    private func table(at index: Int32, walk: inout TableWalk) throws(ConversionError) -> LuaValue {
        guard let identity = lua_topointer(L, index) else { return .opaque("table") }
        if let converted = walk.done[identity] { return converted }
        guard walk.open.count < Self.maximumDepth else {
            throw ConversionError(problem: "tables nested more than \(Self.maximumDepth) levels deep")
        }
        guard walk.open.insert(identity).inserted else {
            throw ConversionError(problem: "a table that holds itself (a cycle)")
        }
        defer { walk.open.remove(identity) }
        guard lua_checkstack(L, 3) != 0 else {
            throw ConversionError(problem: "stack overflow (too many values)")
        }
        let length = rawLength(index)
        var entries: [String: LuaValue] = [:]
        var sequence: [(Int, LuaValue)] = []
        var count = 0
        lua_pushnil(L)
        while lua_next(L, index) != 0 {  // raw traversal; keys are left untouched
            count += 1
            do { try charge(Self.entryBytes, &walk) } catch {
                pop(2)
                throw error
            }
            let key: String
            var position: Int?
            if lua_type(L, -2) == LUA_TSTRING {
                key = string(-2)!
            } else if lua_type(L, -2) == LUA_TNUMBER {
                if isInteger(-2), let n = integer(-2), n >= 1, n <= length { position = n }
                lua_pushvalue(L, -2)  // convert a copy, never the key lua_next needs
                key = string(-1)!
                pop(1)
            } else {
                pop(1)
                continue
            }
            let element: LuaValue
            do { element = try value(at: -1, walk: &walk) } catch {
                pop(2)  // the value and the key: the stack is as it was before the traversal
                var error = error
                error.path.insert(position.map { "[\($0)]" } ?? key, at: 0)
                throw error
            }
            // Swift's dictionary merges keys that are canonically equivalent (NFC and NFD
            // "café"), two keys in Lua: refused, never one of them lost.
            if let stored = entries.index(forKey: key), !entries.keys[stored].isSameBytes(key) {
                pop(2)
                throw ConversionError(
                    problem:
                        "keys '\(entries.keys[stored].spelledOut)' and '\(key.spelledOut)' are one key to Swift "
                        + "(canonically equivalent): give them one spelling")
            }
            entries[key] = element
            if let position { sequence.append((position, element)) }
            pop(1)
        }
        let converted: LuaValue =
            length > 0 && count == length && sequence.count == length
            ? .array(sequence.sorted { $0.0 < $1.0 }.map(\.1)) : .table(entries)
        walk.done[identity] = converted
        return converted
    }

    // MARK: Pushing

    package func pushString(_ text: String) {
        LuaBytes.withBytes(text) { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes a new table with string keys; on a failure nothing stays pushed.
    private func pushTable(_ fields: [(String, LuaValue)]) throws {
        try ensure(3)
        lua_createtable(L, 0, Int32(clamping: fields.count))
        for (key, element) in fields {
            do { try push(element) } catch {
                pop(1)
                throw error
            }
            setField(key, in: -2)
        }
    }

    /// Pushes `value`; throws (pushing nothing) for an object whose class is not defined.
    package func push(_ value: LuaValue) throws {
        switch value {
        case .nil, .opaque: lua_pushnil(L)
        case .boolean(let flag): lua_pushboolean(L, flag ? 1 : 0)
        case .integer(let number): lua_pushinteger(L, lua_Integer(number))
        case .number(let number): lua_pushnumber(L, number)
        case .string(let text): pushString(text)
        case .array(let elements):
            try ensure(3)
            lua_createtable(L, Int32(clamping: elements.count), 0)
            for (offset, element) in elements.enumerated() {
                do { try push(element) } catch {
                    pop(1)
                    throw error
                }
                lua_rawseti(L, -2, lua_Integer(offset + 1))
            }
        case .table(let entries): try pushTable(entries.map { ($0.key, $0.value) })
        case .record(let fields): try pushTable(fields)
        case .fields(let keys, let write):
            try ensure(5)
            lua_createtable(L, 0, Int32(clamping: keys.names.count))
            pushKeys(keys)
            write(LuaFieldWriter(stack: self, keys: top))
            pop(1)
        case .object(let object):
            let retained = Unmanaged.passRetained(object)
            if stackplay_push_object(L, retained.toOpaque(), Self.classKey(type(of: object))) == 0 {
                retained.release()
                throw LuaError("no Lua class is defined for \(type(of: object))")
            }
            // a new screen or component: measure Swift's memory after this call (and, in a
            // snapshot-restored state, record the retain: LuaState+Snapshot.swift)
            stackplay_pushed_object(L, retained.toOpaque())
        case .function(let function):
            stackplay_push_swift_function(L, Unmanaged.passRetained(FunctionBox(function)).toOpaque())
        }
    }

    // MARK: Objects

    /// What the userdata at `index` holds for type `T`.
    package enum ObjectLookup<T> {
        case object(T)
        case released
        case wrongType
    }

    package func object<T: AnyObject>(at index: Int32, as type: T.Type) -> ObjectLookup<T> {
        guard let slot = stackplay_object_slot(L, index, Self.classKey(type)) else { return .wrongType }
        guard let pointer = slot.pointee else { return .released }
        return .object(Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue())
    }

    /// The Lua name (`__name`) of the class defined for `type`, or its Swift name.
    package func className(_ type: AnyObject.Type) -> String {
        defer { pop(1) }
        guard lua_rawgetp(L, stackplay_lua_registryindex(), Self.classKey(type)) == LUA_TTABLE else {
            return "\(type)"
        }
        pushField("__name", of: -1)
        defer { pop(1) }
        return string(-1) ?? "\(type)"
    }

    /// Releases the object held by the userdata at `index` now; its `__gc` then finds it dead.
    package func releaseObject<T: AnyObject>(at index: Int32, of type: T.Type) {
        guard let slot = stackplay_object_slot(L, index, Self.classKey(type)) else { return }
        stackplay_release_held(L, slot)
    }

    // MARK: Errors

    /// Pops the error value a failed load or pcall left on top, as a string.
    package func popErrorMessage() -> String {
        defer { pop(1) }
        if lua_type(L, -1) == LUA_TSTRING { return string(-1)! }
        return "(error object is a \(typeName(-1)) value)"
    }

    // MARK: Positions

    /// `chunkname:line` of the innermost Lua function whose chunk name does not start with `prefix` (C
    /// functions are passed over too), or nil when there is none. Reads only: never raises.
    package func position(skippingPrefix prefix: String) -> String? {
        var record = lua_Debug()
        var level: Int32 = 1
        // The prefix is compared as C bytes: `test(...)` asks this once a registration, and
        // making Swift strings of the frames it passes over was most of its cost.
        return prefix.withCString { prefixBytes in
            let prefixLength = strlen(prefixBytes)
            while lua_getstack(L, level, &record) != 0 {
                lua_getinfo(L, "Sl", &record)
                let isSkipped = record.source.map { strncmp($0, prefixBytes, prefixLength) == 0 } ?? false
                if record.currentline > 0, !isSkipped {
                    let source = withUnsafeBytes(of: record.short_src) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    return "\(source):\(record.currentline)"
                }
                level += 1
            }
            return nil
        }
    }

    /// The chunk names (`@path`) of the main chunks running on the stack, outermost first: the
    /// script, then each module whose `require` has not returned yet. Reads only: never raises.
    package func runningChunks() -> [String] {
        var record = lua_Debug()
        var level: Int32 = 0
        var chunks: [String] = []
        while lua_getstack(L, level, &record) != 0 {
            lua_getinfo(L, "S", &record)
            if let what = record.what, String(cString: what) == "main", let source = record.source {
                chunks.append(String(cString: source))
            }
            level += 1
        }
        return chunks.reversed()
    }

    /// Lua's `stack traceback:` from `level` down, as `luaL_traceback` writes it.
    package func traceback(level: Int32) -> String {
        luaL_traceback(L, L, nil, level)
        defer { pop(1) }
        return string(-1) ?? ""
    }
}
