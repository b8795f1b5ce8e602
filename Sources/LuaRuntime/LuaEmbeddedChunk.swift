/// A chunk of the embedder's own Lua (Bindings: the sandbox and the prelude), compiled before
/// the process starts: ``LuaState/run(embedded:arguments:keepingResult:)`` loads its bytecode
/// without parsing when the running Lua is the release that compiled it (``LuaRelease``), and its
/// source otherwise or when the bytecode does not load, and then a syntax error surfaces there.
package protocol LuaEmbeddedChunk {
    /// The chunk name errors and tracebacks show (`=stackplay/prelude.lua`).
    var name: String { get }
    /// The Lua source.
    var source: String { get }
    /// The compiled chunk (`string.dump`'s bytes, debug information kept), valid for the whole
    /// process.
    var bytecode: UnsafeRawBufferPointer { get }
    /// The Lua release that compiled ``bytecode`` (`"5.4.4"`): any other release runs ``source``.
    var release: String { get }
}
