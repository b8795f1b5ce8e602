/// A chunk of the embedder's own Lua (Bindings: the sandbox and the prelude), compiled before
/// the process starts: ``LuaState/run(embedded:arguments:keepingResult:)`` loads its bytecode
/// without parsing, or its source when the bytecode does not load in this Lua (another version's
/// format), and then a syntax error surfaces there.
package protocol LuaEmbeddedChunk {
    /// The chunk name errors and tracebacks show (`=stackplay/prelude.lua`).
    var name: String { get }
    /// The Lua source.
    var source: String { get }
    /// The compiled chunk (`string.dump`'s bytes, debug information kept), valid for the whole
    /// process.
    var bytecode: UnsafeRawBufferPointer { get }
}
