import LuaRuntime

/// stackplay's own Lua chunks (``EmbeddedLua``), each compiled once per process: a test's fresh
/// state loads the bytecode without parsing.
enum EmbeddedChunk: LuaEmbeddedChunk, Sendable {
    case sandbox, prelude

    /// The chunk name: errors and tracebacks read `stackplay/prelude.lua:12:`, the line of the
    /// file in `Sources/Bindings/Lua/`.
    var name: String {
        switch self {
        case .sandbox: Sandbox.chunkName
        case .prelude: "=stackplay/prelude.lua"
        }
    }

    var source: String {
        switch self {
        case .sandbox: EmbeddedLua.sandbox
        case .prelude: EmbeddedLua.prelude
        }
    }

    /// The compiled chunk, or nil when it does not compile (then it is loaded from source, and
    /// the syntax error surfaces there).
    var bytecode: [UInt8]? {
        switch self {
        case .sandbox: Self.sandboxBytecode
        case .prelude: Self.preludeBytecode
        }
    }

    private static let sandboxBytecode = compile(.sandbox)
    private static let preludeBytecode = compile(.prelude)

    private static func compile(_ chunk: EmbeddedChunk) -> [UInt8]? {
        guard let lua = try? LuaState(budget: LuaBudget(cpuSeconds: 0, memoryMiB: 0)) else { return nil }
        return try? lua.compile(chunk.source, name: chunk.name)
    }
}
