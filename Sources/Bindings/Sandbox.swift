import LuaRuntime
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// What a script may reach: base, string, table, math, utf8, coroutine, and `os.clock`,
/// `os.time`, `os.date`, all deterministic. No `io`, `package`, `debug`, `dofile`, `loadfile`;
/// `load` loads text only (a `string.dump` chunk is refused; `string.dump` itself stays, harmless
/// without binary loading). `require` loads `.lua` text files from under `root` only. The
/// deterministic functions are C (`Sources/CLuaRuntime/sandbox.c`), the trimming and `require`
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
        let locate = LuaValue.function("require") { arguments in
            let name = try arguments.string(at: 1)
            switch ModulePath.resolve(name, root: root) {
            case .success(let path):
                let running = arguments.stack.runningChunks()
                if let cycle = ModulePath.cycle(loading: name, at: path, root: root, running: running) {
                    return [.nil, .string(cycle)]
                }
                return [.string(path)]
            case .failure(let problem):
                return [.nil, .string("module '\(name)' not found: \(problem.message)")]
            }
        }
        let session = lua.session
        let write = LuaValue.function("print") { arguments in
            // Only what the output keeps is copied out of Lua: printing a 10^8-byte string costs
            // no copy of it, and is cut at the output's cap, not stopped for memory.
            let piece = try arguments.string(at: 1, prefix: session.output.room)
            session.output.append(piece.text, length: piece.length)
            return []
        }
        try lua.installDeterministicLibrary(write: write, seed: seed)
        let internals = LuaValue.table(["locate": locate])
        try lua.run(embedded: EmbeddedChunk.sandbox, arguments: [internals])
    }
}

/// Module names to files under the scripts' root, refusing anything that could leave it.
enum ModulePath {
    struct Problem: Error { let message: String }

    /// `helpers.swipe` → `root/helpers/swipe.lua`, if that is a file whose real path is inside
    /// the real root. Names are dot-separated words of letters, digits, `_` and `-`.
    static func resolve(_ name: String, root: String?) -> Result<String, Problem> {
        guard let root else { return .failure(Problem(message: "no scripts folder to look in")) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") }
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed) }) else {
            return .failure(Problem(message: "a module name is words joined by dots, like 'helpers.swipe'"))
        }
        let confined: ConfinedPath
        let real: String
        do {
            confined = try ConfinedPath(parts.joined(separator: "/") + ".lua", under: root)
            real = try confined.existing()
        } catch {
            return .failure(Problem(message: error.message))
        }
        guard isRegularFile(real) else { return .failure(Problem(message: "no file '\(confined.path)'")) }
        return .success(confined.path)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

extension ModulePath.Problem: CustomStringConvertible {
    /// The message alone, never Swift's `Problem(message: ...)`.
    var description: String { message }
}
