import Traces

/// Which scripts a change re-runs: each changed script itself, and every script that `require`s
/// a changed module, directly or through other modules. Requires are read as `stackplay check`
/// reads them (``Check/requiredModules(of:root:)``): the literal names (`require "helpers.swipe"`)
/// resolved under the script's root as the sandbox's `require` resolves them
/// (`root/helpers/swipe.lua`). Paths are compared by their real paths, so `scripts/x.lua` and
/// `./scripts/x.lua` are one file; a removed file by its folder's real path and its name.
///
/// ```swift
/// let scripts = try AffectedScripts.scripts(in: ["scripts"], root: nil)
/// let map = AffectedScripts(scripts)
/// map.affected(by: ["scripts/helpers/lock_screen.lua"])  // every script that requires it
/// ```
///
/// Made again for each round (the requires may have changed with the save); reading the
/// `scripts/` suite's requires takes about a millisecond.
public struct AffectedScripts: Sendable {
    /// A script as a run finds it: its path as given, and the folder its `require` looks in.
    public struct Script: Hashable, Sendable {
        public var path: String
        public var root: String

        public init(path: String, root: String) {
            self.path = path
            self.root = root
        }
    }

    public let scripts: [Script]
    /// Each script's modules (real paths), everything it requires directly or not, by its path.
    public let modules: [String: [String]]

    public init(_ scripts: [Script]) {
        self.scripts = scripts
        var modules: [String: [String]] = [:]
        for script in scripts where modules[script.path] == nil {
            guard let source = Check.readFile(script.path) else {
                modules[script.path] = []
                continue
            }
            modules[script.path] = Check.requiredModules(of: source, root: script.root).map {
                Self.canonical($0.path)
            }
        }
        self.modules = modules
    }

    /// The scripts a run of `paths` finds (files as given, folders' `*.lua` without `helpers/`),
    /// as a run finds them; `root`: `--root`.
    public static func scripts(in paths: [String], root: String?) throws -> [Script] {
        try Discovery.scripts(in: paths, root: root).map { Script(path: $0.path, root: $0.root) }
    }

    /// The scripts, in their order, that `changed` (paths of files saved, made or removed) re-run.
    public func affected(by changed: [String]) -> [Script] {
        let keys = Set(changed.map(Self.canonical))
        return scripts.filter { script in
            keys.contains(Self.canonical(script.path))
                || (modules[script.path] ?? []).contains(where: keys.contains)
        }
    }

    /// The changed files that are modules some script requires (the helpers of a round's summary).
    public func helpers(in changed: [String]) -> [String] {
        let required = Set(modules.values.joined())
        return changed.filter { required.contains(Self.canonical($0)) }
    }

    /// `path`'s real path; for a file that is not there (removed), its folder's and its name.
    static func canonical(_ path: String) -> String {
        if let real = TraceFile.realPath(path) { return real }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (TraceFile.realPath(folder.isEmpty ? "/" : folder) ?? folder) + "/" + name
    }
}
