import LuaRuntime
import StackModel

/// The prelude every script runs first: `test`, `skip`, `only`, `before_each`, `after_each`,
/// `expect(...)` with its matchers, and the failure report. Written in Lua
/// (`Sources/Bindings/Lua/prelude.lua`, with `values.lua`'s showing and comparing of values and
/// `explore.lua`'s explorations),
/// since it is about Lua values; installed after the model API. Its runner table stays in the Lua
/// registry, where only ``TestRunner`` reaches it.
public struct PreludeModule: LuaModule {
    /// Chunks whose names start with this are stackplay's own: positions skip them.
    static let internalPrefix = "=stackplay/"

    public init() {}

    public func install(in lua: LuaState) throws {
        lua.internals["where"] = .function("where") { a in
            [a.stack.position(skippingPrefix: Self.internalPrefix).map { .string($0) } ?? .nil]
        }
        lua.internals["traceback"] = .function("traceback") { a in
            [.string(a.stack.traceback(level: try a.optionalInt32(at: 1) ?? 1))]
        }
        lua.internals["nearest"] = .function("nearest") { a in
            let name = try a.string(at: 1)
            guard case .array(let list) = try a.value(at: 2) else { return [.nil] }
            return [nearestName(to: name, in: list.compactMap(\.string)).map { .string($0) } ?? .nil]
        }
        // Each chunk's result, kept, is the next one's second argument: values.lua's table, then
        // what the prelude shares with explore.lua, then the runner table, which stays kept.
        try lua.run(embedded: EmbeddedChunk.values, arguments: [], keepingResult: true)
        for chunk in [EmbeddedChunk.prelude, .explore] {
            try lua.run(
                embedded: chunk, arguments: [.table(lua.internals)], passingKept: true, keepingResult: true)
        }
    }
}
