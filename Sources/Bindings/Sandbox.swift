import LuaRuntime
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// What a script may reach: base, string, table, math, utf8, coroutine, and `os.clock`,
/// `os.time`, `os.date`, all deterministic. No `debug`, `dofile`, `loadfile`;
/// `load` loads text only (a `string.dump` chunk is refused; `string.dump` itself stays, harmless
/// without binary loading). `require` and `package` are the manual's for Lua files found under
/// `root` only (no C modules); `io` only writes to the test's output. The
/// deterministic functions are C (`Sources/CLuaSandbox/sandbox.c`), the trimming and `require`
/// Lua (`Sources/Bindings/Lua/sandbox.lua`).
public struct Sandbox: Sendable {
    /// The chunk name of the sandbox's Lua: positions in it read `stackplay/sandbox.lua:12:`.
    static let chunkName = "=stackplay/sandbox.lua"

    /// The folder `require` resolves module names in (`helpers.swipe` → `root/helpers/swipe.lua`);
    /// nil: `require` fails.
    public var root: String?
    /// The seed of `math.random` for this state (``RunSeed/seed(for:name:)`` gives each test its own).
    public var seed: Int

    /// A sandbox whose `require` looks under `root`, with `math.random` seeded by `seed`.
    public init(root: String?, seed: Int = RunSeed.standard) {
        self.root = root
        self.seed = seed
    }

    /// Opens the allowed libraries in a fresh state and trims them.
    public func install(in lua: LuaState) throws(LuaFailure) {
        lua.openStandardLibraries()
        if lua.isSnapshotting { lua.captureRandom() }  // each test seeds its own after a restore
        lua.scriptsRoot = root
        let root = self.root
        // package.searchpath under the root, and require's check for a module loading itself.
        let search = LuaValue.function("searchpath") { arguments in
            let found = ModulePath.search(
                try arguments.string(at: 1), path: try arguments.string(at: 2),
                separator: try arguments.string(at: 3), replacement: try arguments.string(at: 4), root: root)
            switch found {
            case .success(let file): return [.string(file)]
            case .failure(let problem): return [.nil, .string(problem.message)]
            }
        }
        let cycle = LuaValue.function("require") { arguments in
            let name = try arguments.string(at: 1)
            let file = try arguments.string(at: 2)
            let running = arguments.stack.runningChunks()
            guard let chain = ModulePath.cycle(loading: name, at: file, root: root, running: running) else {
                return []
            }
            return [.string(chain)]
        }
        let session = lua.session
        // A test stopped inside C sends what it printed from here (``CapturedOutput``).
        session.output.note = lua.outputNote
        let write = LuaValue.function("print") { arguments in
            // Only what the output keeps is copied out of Lua: printing a 10^8-byte string costs
            // no copy of it, and is cut at the output's cap, not stopped for memory.
            let piece = try arguments.string(at: 1, prefix: session.output.room)
            session.output.append(piece.text, length: piece.length)
            return []
        }
        try lua.installDeterministicLibrary(write: write, seed: seed)
        let internals = LuaValue.table(["search": search, "cycle": cycle, "write": write])
        try lua.run(embedded: EmbeddedChunk.sandbox, arguments: [internals])
    }
}
