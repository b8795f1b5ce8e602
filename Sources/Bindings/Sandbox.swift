#if canImport(Glibc)
    import Glibc
#endif

/// What a script may reach: base, string, table, math, utf8, coroutine, and `os.clock`,
/// `os.time`, `os.date`. No `io`, `package`, `debug`, `dofile`, `loadfile`; `load` loads text
/// only (a `string.dump` chunk is refused; `string.dump` itself stays, harmless without binary
/// loading). `require` loads `.lua` text files from under `root` only.
public struct Sandbox: Sendable {
    /// The folder `require` resolves module names in (`helpers.swipe` → `root/helpers/swipe.lua`);
    /// nil: `require` fails.
    public var root: String?

    /// A sandbox whose `require` looks under `root`.
    public init(root: String?) { self.root = root }

    /// Opens the allowed libraries in a fresh state and trims them.
    public func install(in lua: LuaState) throws(LuaFailure) {
        lua.openStandardLibraries()
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
        try lua.run(Self.prelude, name: "=stackplay.sandbox", arguments: [locate])
    }

    /// Runs first in every state, with `locate` (a Swift function) as its argument.
    static let prelude = """
        local locate = ...
        local load, loadfile, error, select, type, os = load, loadfile, error, select, type, os
        _G.os = { clock = os.clock, time = os.time, date = os.date }
        _G.dofile, _G.loadfile = nil, nil
        _G.load = function(chunk, name, mode, ...)
          if select("#", ...) > 0 then return load(chunk, name, "t", (...)) end
          return load(chunk, name, "t")
        end
        local loaded = {}
        _G.require = function(name)
          if type(name) ~= "string" then
            error(("bad argument #1 to 'require' (string expected, got %s)")
              :format(name == nil and "no value" or type(name)), 2)
          end
          local value = loaded[name]
          if value ~= nil then return value end
          local path, message = locate(name)
          if not path then error(message, 2) end
          local chunk, problem = loadfile(path, "t")
          if not chunk then error(problem, 0) end
          value = chunk(name, path)
          if value == nil then value = true end
          loaded[name] = value
          return value
        end
        """
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
        let path = (root.hasSuffix("/") ? root : root + "/") + parts.joined(separator: "/") + ".lua"
        guard let realRoot = realPath(root), let realFile = realPath(path), isRegularFile(realFile) else {
            return .failure(Problem(message: "no file '\(path)'"))
        }
        guard realFile.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
            return .failure(Problem(message: "'\(path)' leads outside the scripts folder"))
        }
        return .success(path)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
