import CLua
import CLuaRuntime
import Wording

#if canImport(Glibc)
    import Glibc
#endif

/// The one owner of a raw `lua_State`: everything else in Bindings goes through this file.
///
/// Rules kept here (see LUA_EMBEDDING.md): Swift never calls a raising Lua API function. Swift
/// code only runs while the state's guard is exempt from the memory budget (set-up, bound
/// functions, reading results), so `m` calls cannot fail; only raw accessors are used, so no
/// metamethod runs; Lua code runs only under `stackplay_pcall`. One state per thread.
public final class LuaState {
    package let stack: LuaStack
    /// The budget this state enforces.
    public let budget: LuaBudget
    /// What the layer above keeps per state (Bindings: the script's session of screens, traces
    /// and printed output), made on first use by ``attachment(_:)``.
    private var attachmentObject: AnyObject?
    /// Swift functions for stackplay's own Lua (the prelude) and never for scripts: modules add
    /// them, the prelude receives them as its argument.
    package var internals: [String: LuaValue] = [:]
    /// The scripts' folder, set by ``Sandbox``: paths a script names resolve inside it.
    package var scriptsRoot: String?
    /// Whether the state is a host's (``init(borrowing:)``): no guard, no budgets, not closed here.
    package let isHost: Bool

    /// Calls the Swift closure of the Lua function running on `state` (the C trampoline's side).
    private static let dispatch: stackplay_dispatch_fn = { state, box in
        Unmanaged<FunctionBox>.fromOpaque(box!).takeUnretainedValue().call(LuaStack(state!))
    }
    /// Balances the retain a userdata slot holds.
    private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { object in
        Unmanaged<AnyObject>.fromOpaque(object!).release()
    }

    /// A fresh state with no libraries open, enforcing `budget` while chunks run.
    public convenience init(budget: LuaBudget = .standard) throws(LuaFailure) {
        let memory = budget.memoryBytes > 0 ? budget.memoryBytes : 0
        guard let state = stackplay_newstate(memory, budget.cpuSeconds, Self.dispatch, Self.release) else {
            throw LuaFailure(kind: .error, message: "cannot create a Lua state: out of memory")
        }
        self.init(owning: state, budget: budget)
    }

    /// Takes `state`, made by stackplay_newstate or stackplay_newstate_arena, enforcing `budget`.
    package init(owning state: OpaquePointer, budget: LuaBudget) {
        stack = LuaStack(state)
        self.budget = budget
        isHost = false
        stackplay_set_budget_texts(state, budget.cpuStopText, budget.memoryStopText)
    }

    /// Calls the Swift closure of a Lua function and balances a userdata's retain (the C side's two
    /// callbacks), for states made elsewhere in LuaRuntime.
    package static var callbacks: (stackplay_dispatch_fn, @convention(c) (UnsafeMutableRawPointer?) -> Void) {
        (dispatch, release)
    }

    /// The state of a host that loaded stackplay as a library (`require "stackplay"`), borrowed:
    /// its allocator, extra space and hooks stay the host's, so there are no budgets and no
    /// sandbox, and the state is not closed when this object goes.
    public init(borrowing state: OpaquePointer) {
        stack = LuaStack(state)
        budget = LuaBudget(cpuSeconds: 0, memoryMiB: 0)
        isHost = true
        stackplay_host_install(state, Self.dispatch, Self.release)
        makeHostGlobals()
    }

    deinit { if !isHost { stackplay_close(stack.L) } }

    /// The object the layer above keeps with this state, made by `make` on first use. One kind
    /// of object per state (Bindings keeps its `ScriptSession` here).
    package func attachment<T: AnyObject>(_ make: () -> T) -> T {
        if let object = attachmentObject { return unsafeDowncast(object, to: T.self) }
        let object = make()
        attachmentObject = object
        return object
    }

    /// Whether a budget has stopped the script (every further line raises the stop again).
    package var isStopped: Bool { !isHost && stackplay_stopped(stack.L) != 0 }

    /// Bytes Lua holds now (0 in a host's state, whose allocator stackplay does not count).
    public var memoryUsed: Int { isHost ? 0 : stackplay_memory_used(stack.L) }

    /// Bytes of Swift objects charged to the memory budget, as the meter last estimated them.
    public var memoryCharged: Int { isHost ? 0 : stackplay_memory_charged(stack.L) }

    /// Charges what `meter` estimates (the bytes of Swift objects the scripts made: screens,
    /// cards, recorders) to the memory budget, on top of Lua's own memory. The state calls it
    /// after a Swift call at most every 2 ms, and after a call that hands a new object to Lua;
    /// past the budget the call raises the memory stop.
    /// A host's state (the Lua module) has no budget: nothing is charged there.
    public func setMemoryMeter(_ meter: @escaping () -> Int) {
        if isHost { return }
        final class Meter {
            let measure: () -> Int
            init(_ measure: @escaping () -> Int) { self.measure = measure }
        }
        let box = Unmanaged.passRetained(Meter(meter)).toOpaque()
        stackplay_set_meter(
            stack.L,
            { box in max(0, Unmanaged<Meter>.fromOpaque(box!).takeUnretainedValue().measure()) },
            box)
    }

    /// Interns `keys` in this state now (a module's install, before any snapshot of the state),
    /// so that no test's first record of them (``LuaValue/fields(_:write:)``) interns them again.
    public func intern(_ keys: LuaKeys) throws {
        try stack.ensure(4)
        stack.pushKeys(keys)
        stack.pop(1)
    }

    /// Opens base, string, table, math, utf8, coroutine and os, unfiltered: ``Sandbox`` trims them.
    package func openStandardLibraries() { stackplay_open_libraries(stack.L) }

    // MARK: Globals

    /// Sets the global `name`. Lua: `name = value`.
    public func setGlobal(_ name: String, _ value: LuaValue) throws {
        try stack.ensure(4)
        pushGlobals()
        try stack.push(value)
        stack.setField(name, in: -2)
        stackplay_lua_pop(stack.L, 1)
    }

    /// The global `name`, read without metamethods.
    public func global(_ name: String) -> LuaValue {
        pushGlobals()
        stack.pushField(name, of: -1)
        defer { stackplay_lua_pop(stack.L, 2) }
        return (try? stack.value(at: -1)) ?? .opaque("table")
    }

    /// Sets `table.key = value` for the global table `table`, creating it if it is missing.
    /// Lua: `stackplay.screen = ...` for `setField("screen", in: "stackplay", ...)`.
    public func setField(_ key: String, in table: String, _ value: LuaValue) throws {
        try stack.ensure(5)
        pushGlobals()
        stack.pushField(table, of: -1)
        if lua_type(stack.L, -1) != LUA_TTABLE {
            stackplay_lua_pop(stack.L, 1)
            stackplay_lua_newtable(stack.L)
            lua_pushvalue(stack.L, -1)
            stack.setField(table, in: -3)
        }
        try stack.push(value)
        stack.setField(key, in: -2)
        stackplay_lua_pop(stack.L, 2)
    }

    // MARK: Classes

    /// Defines the Lua class for Swift objects of exactly type `type`, so that `.object(x)` can be
    /// returned to Lua and read back with ``LuaArguments/object(at:as:)``.
    ///
    /// Each userdata holds one retained reference, released once by `__gc` (or by
    /// `releaseMethod`, if given, e.g. `"dispose"` for Lua `obj:dispose()`); a released object
    /// is dead and using it is an error. `methods` become the `__index` table (called with `:`,
    /// so argument numbers in messages skip `self`); `__metatable` hides the metatable.
    /// A method named in `fast` tries that function first (``FastMethod``; not in a host's state).
    public func defineClass<T: AnyObject>(
        _ type: T.Type, name: String, methods: [String: LuaFunction], releaseMethod: String? = nil
    ) throws {
        try defineClass(type, name: name, methods: methods, releaseMethod: releaseMethod, fast: [:])
    }

    package func defineClass<T: AnyObject>(
        _ type: T.Type, name: String, methods: [String: LuaFunction], releaseMethod: String? = nil,
        fast: [String: FastMethod]
    ) throws {
        var all = methods.map { method, body in LuaSwiftFunction(name: method, isMethod: true, body: body) }
        if let releaseMethod {
            all.append(
                LuaSwiftFunction(name: releaseMethod, isMethod: true) { arguments in
                    try arguments.releaseObject(at: 1, as: T.self)
                    return []
                })
        }
        let known = all.map(\.name).sorted()
        let unknown = LuaValue.function("__index") { a in
            throw Self.unknownMember(try a.value(at: 2), of: name, known: known)
        }
        try defineClass(
            type, name: name,
            methods: all.map { function in (function.name, { try $0.push(.function(function)) }) },
            unknown: { try $0.push(unknown) }, fast: fast)
    }

    /// Defines the Lua class for `type` with methods boxed once a process (``MethodTable``): as
    /// ``defineClass(_:name:methods:releaseMethod:)``, without a box, a userdata and a finalizer
    /// for each method in each state.
    package func defineClass<T: AnyObject>(_ type: T.Type, table: MethodTable) throws {
        let isHost = self.isHost
        try defineClass(
            type, name: table.className,
            methods: table.methods.map { method in (method.name, { method.box.push(on: $0, isHost: isHost) })
            },
            unknown: { table.unknown.push(on: $0, isHost: isHost) }, fast: table.fast)
    }

    /// The metatable of a class: `methods` as its `__index` table, whose own `__index` is
    /// `unknown()` (the error for a name the class lacks), `__gc`, `__name` and a locked `__metatable`.
    private func defineClass<T: AnyObject>(
        _ type: T.Type, name: String, methods: [(String, (LuaStack) throws -> Void)],
        unknown: (LuaStack) throws -> Void, fast: [String: FastMethod] = [:]
    ) throws {
        try stack.ensure(6)
        stackplay_lua_newtable(stack.L)  // metatable
        let metatable = lua_gettop(stack.L)
        stackplay_lua_newtable(stack.L)  // methods
        for (method, push) in methods {
            try push(stack)
            if !isHost, let function = fast[method] {
                stackplay_push_fast_method(stack.L, function, metatable)
            }
            stack.setField(method, in: -2)
        }
        // A name the methods table lacks falls through to this: `stack:tapp()` raises
        // "unknown method 'tapp' of notification_stack (did you mean 'tap'?)" at the script's line.
        stackplay_lua_newtable(stack.L)
        try unknown(stack)
        stack.setField("__index", in: -2)
        try stack.push(.string("locked"))
        stack.setField("__metatable", in: -2)
        lua_setmetatable(stack.L, -2)
        stack.setField("__index", in: -2)
        stackplay_push_release_gc(stack.L)
        stack.setField("__gc", in: -2)
        try stack.push(.string(name))
        stack.setField("__name", in: -2)
        try stack.push(.string("locked"))
        stack.setField("__metatable", in: -2)
        lua_rawsetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(T.self))
    }

    /// The error for reading a name a bound object does not have, with the nearest known name.
    package static func unknownMember(_ key: LuaValue, of className: String, known: [String]) -> LuaError {
        let kind = className.hasPrefix("stackplay.") ? String(className.dropFirst(10)) : className
        guard let name = key.string else {
            return LuaError("\(kind) has no field \(key.number.map { formatNumber($0) } ?? "of that type")")
        }
        var message = "unknown method '\(name)' of \(kind)"
        if let near = nearestName(to: name, in: known) {
            message += " (did you mean '\(near)'?)"
        } else {
            message += " (it has: \(known.joined(separator: ", ")))"
        }
        return LuaError(message)
    }

    // MARK: Running chunks

    /// Loads the text file at `path` as a chunk named `@path` and runs it. The file is parsed
    /// once a process while it does not change (``LuaState/parses(of:)``).
    public func run(file path: String) throws(LuaFailure) {
        if loadCompiled(file: path) != LUA_OK {
            throw LuaFailure(kind: .load, message: stack.popErrorMessage())
        }
        _ = try call(arguments: [], results: 0)
    }

    /// Loads the text file at `path` as a chunk named `@path`, runs it and returns its results
    /// (a config file's table).
    public func evaluate(file path: String) throws(LuaFailure) -> [LuaValue] {
        if load(file: path) != LUA_OK {
            throw LuaFailure(kind: .load, message: stack.popErrorMessage())
        }
        return try call(arguments: [], results: stackplay_lua_multret())
    }

    /// Loads (compiles) the text file at `path` without running it: a syntax error is a
    /// `.load` failure. `stackplay check` uses it.
    public func compile(file path: String) throws(LuaFailure) {
        if load(file: path) != LUA_OK {
            throw LuaFailure(kind: .load, message: stack.popErrorMessage())
        }
        stack.pop(1)
    }

    /// Compiles Lua source text to bytecode without running it, for ``run(bytecode:name:)`` in
    /// other states of this process (the prelude is parsed once, not once per test).
    public func compile(_ code: String, name: String) throws(LuaFailure) -> [UInt8] {
        var code = code
        let status = code.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                stackplay_loadstring(stack.L, $0.baseAddress, $0.count, name)
            }
        }
        if status != LUA_OK { throw LuaFailure(kind: .load, message: stack.popErrorMessage()) }
        var buffer = stackplay_buffer(data: nil, size: 0, capacity: 0)
        defer { free(buffer.data) }
        let dumped = stackplay_dump(stack.L, &buffer)
        stack.pop(1)
        guard dumped == 0, let data = buffer.data else {
            throw LuaFailure(kind: .load, message: "\(name): cannot dump the compiled chunk")
        }
        return Array(UnsafeRawBufferPointer(start: data, count: buffer.size))
    }

    /// Runs bytecode that ``compile(_:name:)`` made in this process.
    @discardableResult
    public func run(bytecode: [UInt8], name: String) throws(LuaFailure) -> [LuaValue] {
        let status = bytecode.withUnsafeBytes { bytes in
            stackplay_loadbytecode(
                stack.L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, name)
        }
        if status != LUA_OK { throw LuaFailure(kind: .load, message: stack.popErrorMessage()) }
        return try call(arguments: [], results: stackplay_lua_multret())
    }

    /// The registry key of the runner table the prelude returns.
    private final class RunnerKey {}

    /// Runs one of stackplay's own chunks with `arguments`. With `keepingResult`, its first result
    /// stays in the Lua registry (the prelude's runner table), where ``callRunner(_:_:)`` finds it
    /// and no script can; with `passingKept`, the result the chunk before kept is passed after
    /// `arguments` (one chunk's table of functions handed to the next, out of any script's reach).
    package func run(
        embedded chunk: some LuaEmbeddedChunk, arguments: [LuaValue], passingKept: Bool = false,
        keepingResult: Bool = false
    )
        throws(LuaFailure)
    {
        var status = LUA_ERRSYNTAX
        if LuaRelease.loads(bytecodeOf: chunk.release) {
            let bytecode = chunk.bytecode
            status = stackplay_loadbytecode(
                stack.L, bytecode.baseAddress?.assumingMemoryBound(to: CChar.self), bytecode.count, chunk.name
            )
            if status != LUA_OK { stack.pop(1) }
        }
        if status != LUA_OK {
            // Another release's bytecode, or bytecode that does not load here: the source always does.
            var code = chunk.source
            status = code.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    stackplay_loadstring(stack.L, $0.baseAddress, $0.count, chunk.name)
                }
            }
        }
        if status != LUA_OK { throw LuaFailure(kind: .load, message: stack.popErrorMessage()) }
        if isHost { setChunkGlobals() }
        _ = try call(
            arguments: arguments, results: keepingResult ? 1 : 0, passingKept: passingKept,
            keepingResult: keepingResult)
    }

    /// Calls `runner[name](arguments...)` on the prelude's runner table and returns its results.
    package func callRunner(_ name: String, _ arguments: [LuaValue]) throws(LuaFailure) -> [LuaValue] {
        try pushRunner(name)
        return try call(arguments: arguments, results: stackplay_lua_multret())
    }

    /// Calls `runner[name](arguments...)` and hands its results to `read` where they are, on the
    /// stack (the first one's index and their count), instead of converting them: a listing of
    /// 10,000 tests read entry by entry makes no Swift copy of the whole list (issue 21).
    package func callRunner(
        _ name: String, _ arguments: [LuaValue], reading read: (_ first: Int32, _ count: Int32) -> Void
    ) throws(LuaFailure) {
        try pushRunner(name)
        _ = try call(arguments: arguments, results: stackplay_lua_multret()) { first, count in
            read(first, count)
            return true
        }
    }

    /// Pushes the prelude's runner function `name`.
    private func pushRunner(_ name: String) throws(LuaFailure) {
        lua_rawgetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(RunnerKey.self))
        guard lua_type(stack.L, -1) == LUA_TTABLE else {
            stack.pop(1)
            throw LuaFailure(kind: .error, message: "stackplay: the prelude is not installed")
        }
        stack.pushField(name, of: -1)
        lua_rotate(stack.L, -2, 1)
        stack.pop(1)
    }

    /// Runs Lua source text as a chunk named `name` (`"@path"` or `"=label"`); returns its results.
    @discardableResult
    public func run(_ code: String, name: String = "=(string)", arguments: [LuaValue] = [])
        throws(LuaFailure) -> [LuaValue]
    {
        var code = code
        let status = code.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                stackplay_loadstring(stack.L, $0.baseAddress, $0.count, name)
            }
        }
        if status != LUA_OK { throw LuaFailure(kind: .load, message: stack.popErrorMessage()) }
        return try call(arguments: arguments, results: stackplay_lua_multret())
    }

    /// Calls the function on top of the stack under the message handler and the budgets.
    private func call(
        arguments: [LuaValue], results: Int32, passingKept: Bool = false, keepingResult: Bool = false,
        reading read: (_ first: Int32, _ count: Int32) -> Bool = { _, _ in false }
    ) throws(LuaFailure) -> [LuaValue] {
        let base = lua_gettop(stack.L) - 1
        do {
            try stack.ensure(Int32(arguments.count) + 2)
            for argument in arguments { try stack.push(argument) }
        } catch {
            lua_settop(stack.L, base)
            throw LuaFailure(kind: .error, message: "\(error)")
        }
        if passingKept {
            lua_rawgetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(RunnerKey.self))
        }
        let count = Int32(arguments.count) + (passingKept ? 1 : 0)
        let status =
            isHost
            ? stackplay_lua_pcall(stack.L, count, results, 0)
            : stackplay_pcall(stack.L, count, results)
        defer { lua_settop(stack.L, base) }
        if status == LUA_OK {
            if keepingResult {
                lua_pushvalue(stack.L, base + 1)
                lua_rawsetp(stack.L, stackplay_lua_registryindex(), LuaStack.classKey(RunnerKey.self))
                return []
            }
            if read(base + 1, lua_gettop(stack.L) - base) { return [] }
            do {
                return try (base + 1..<lua_gettop(stack.L) + 1).map {
                    index throws(LuaStack.ConversionError) in
                    try stack.value(at: index)
                }
            } catch {
                throw LuaFailure(kind: .error, message: "the chunk returned \(error)")
            }
        }
        let reported = stack.popErrorMessage()
        let (message, traceback) = LuaFailure.split(reported)
        switch isHost ? 0 : stackplay_stopped(stack.L) {
        case Int32(STACKPLAY_STOP_CPU):
            throw LuaFailure(
                kind: .cpuBudget, message: String(cString: stackplay_stop(stack.L)), traceback: traceback)
        case Int32(STACKPLAY_STOP_MEMORY):
            throw LuaFailure(
                kind: .memoryBudget, message: String(cString: stackplay_stop(stack.L)), traceback: traceback)
        default:
            throw LuaFailure(kind: .error, message: message, traceback: traceback)
        }
    }
}

/// A hot method's fast path (stackplay_fast_trampoline): a context-free function of the state and
/// `self`'s object, which reads its arguments without raising and pushes its results, or returns
/// STACKPLAY_FALLBACK, having changed nothing, to leave the call to the method's ordinary closure
/// (which then reads the arguments, and words every error, as always).
package typealias FastMethod = stackplay_fast_fn

/// A Swift closure behind a Lua function; retained by the userdata upvalue of its C closure.
package final class FunctionBox {
    package let function: LuaSwiftFunction
    package init(_ function: LuaSwiftFunction) { self.function = function }

    /// Runs the closure for the Lua call on `stack`: results pushed and counted, or the error
    /// message pushed and STACKPLAY_RAISE, which the C trampoline raises after this returns.
    package func call(_ stack: LuaStack) -> Int32 {
        let arguments = LuaArguments(stack: stack, function: function.name, isMethod: function.isMethod)
        do {
            let results = try function.body(arguments)
            let base = lua_gettop(stack.L)
            do {
                try stack.ensure(Int32(results.count) + 2)
                for result in results { try stack.push(result) }
            } catch {
                lua_settop(stack.L, base)
                throw error
            }
            return Int32(results.count)
        } catch {
            var message = "\(error)"
            message.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    stackplay_push_error(stack.L, $0.baseAddress, $0.count)
                }
            }
            return STACKPLAY_RAISE
        }
    }
}

/// A class's methods boxed once a process, for ``LuaState/defineClass(_:table:)``: every state's
/// method table calls the same boxes, which live as long as the process.
///
/// `@unchecked Sendable`: immutable after `init`, and the closures it boxes hold no state (they
/// reach everything through their arguments), so states on any thread may share them.
package final class MethodTable: @unchecked Sendable {
    package let className: String
    package let methods: [(name: String, box: FunctionBox)]
    /// `__index` of the methods table: the error for a name the class lacks, with the nearest one.
    package let unknown: FunctionBox
    /// Fast paths of some of `methods` (``FastMethod``).
    package let fast: [String: FastMethod]

    /// The methods of class `className` (`"stackplay.notification_stack"`).
    package init(className: String, methods: [String: LuaFunction], fast: [String: FastMethod] = [:]) {
        self.className = className
        self.fast = fast
        self.methods = methods.map { name, body in
            (name, FunctionBox(LuaSwiftFunction(name: name, isMethod: true, body: body)))
        }
        let known = methods.keys.sorted()
        unknown = FunctionBox(
            LuaSwiftFunction(name: "__index") { a in
                throw LuaState.unknownMember(try a.value(at: 2), of: className, known: known)
            })
    }
}

extension FunctionBox {
    /// Pushes a Lua function calling this box, which outlives the state: a light userdata upvalue,
    /// or in a host's state (no guard) a retained box its finalizer releases, as any function there.
    package func push(on stack: LuaStack, isHost: Bool) {
        if isHost {
            stackplay_push_swift_function(stack.L, Unmanaged.passRetained(self).toOpaque())
        } else {
            stackplay_push_static_function(stack.L, Unmanaged.passUnretained(self).toOpaque())
        }
    }
}
