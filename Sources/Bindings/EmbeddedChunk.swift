import CEmbeddedLua
import LuaRuntime

/// stackplay's own Lua chunks (``EmbeddedLua``), compiled when `make lua` ran: a state loads the
/// bytecode without parsing, in a worker and in a test's fresh state alike.
enum EmbeddedChunk: LuaEmbeddedChunk, Sendable {
    case sandbox, values, prelude, explore

    /// The chunk name: errors and tracebacks read `stackplay/prelude.lua:12:`, the line of the
    /// file in `Sources/Bindings/Lua/`.
    var name: String {
        switch self {
        case .sandbox: Sandbox.chunkName
        case .values: "=stackplay/values.lua"
        case .prelude: "=stackplay/prelude.lua"
        case .explore: "=stackplay/explore.lua"
        }
    }

    var source: String {
        switch self {
        case .sandbox: EmbeddedLua.sandbox
        case .values: EmbeddedLua.values
        case .prelude: EmbeddedLua.prelude
        case .explore: EmbeddedLua.explore
        }
    }

    /// The release of the lua5.4 `make lua` ran (`stackplay_embedded_release`).
    var release: String { String(cString: stackplay_embedded_release) }

    /// The chunk as `make lua` compiled it (Sources/CEmbeddedLua/chunks.c): no start parses it.
    var bytecode: UnsafeRawBufferPointer {
        let chunk =
            switch self {
            case .sandbox: stackplay_embedded_sandbox
            case .values: stackplay_embedded_values
            case .prelude: stackplay_embedded_prelude
            case .explore: stackplay_embedded_explore
            }
        return UnsafeRawBufferPointer(start: chunk.bytes, count: Int(chunk.size))
    }
}
