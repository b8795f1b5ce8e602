/// A chunk of the embedder's own Lua (Bindings: the sandbox and the prelude), compiled once a
/// process: ``LuaState/run(embedded:arguments:keepingResult:)`` loads its bytecode without
/// parsing, or its source when it did not compile (then the syntax error surfaces there).
package protocol LuaEmbeddedChunk {
    /// The chunk name errors and tracebacks show (`=stackplay/prelude.lua`).
    var name: String { get }
    /// The Lua source.
    var source: String { get }
    /// The compiled chunk, or nil when it does not compile.
    var bytecode: [UInt8]? { get }
}
