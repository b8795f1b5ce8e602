import Bindings
import StackModel
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// The project's `.stackplay.lua`: a Lua file that returns a table of defaults, read in the same
/// sandbox as scripts. Flags on the command line win over it.
struct Config {
    static let fileName = ".stackplay.lua"
    /// The keys no option has: `paths` (the arguments), `screen` (every screen's defaults) and
    /// `reporter` (which `--tap` and `--json` both set).
    static let ownKeys = ["paths", "screen", "reporter"]
    /// Every key the config reads: its own, then the options' (``Options/table``).
    static let keys = ownKeys + Options.table.compactMap(\.config?.name)

    var paths: [String] = []
    /// `screen = { width =, height =, layout_direction =, reduce_motion =, dynamic_type = }`:
    /// what every `stackplay.screen {}` gets for the settings it does not give.
    var screen = ScreenDefaults()
    var reporter: Options.Format?
    /// The options' keys the file gives, read, in key order: each with what it does to the
    /// options.
    var settings: [(key: ConfigKey, apply: ConfigKey.Apply)] = []
    /// The `.stackplay.lua` it was read from, when found by ``nearest(from:)`` (not `--config`).
    var source: Found?

    struct Invalid: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Reads `.stackplay.lua` from `folder` (the current one by default); an empty config when
    /// there is none.
    static func load(in folder: String = ".") throws(Invalid) -> Config {
        let path = folder == "." ? fileName : folder + "/" + fileName
        guard Discovery.kind(of: path) == .file else { return Config() }
        return try read(path, root: folder, named: fileName)
    }

    /// Reads the config `options` name (`--config FILE`), else the nearest `.stackplay.lua` of the
    /// paths given (``nearest(from:)``; the current folder's when none is given). Paths whose
    /// nearest configs differ are an error: a config's settings are the run's (``ensureOne``).
    static func load(for options: Options) throws(Invalid) -> Config {
        guard let path = options.configFile else {
            // A path that is not there is discovery's to report.
            let given = options.paths.filter { Discovery.kind(of: $0) != .missing }
            let starts = given.isEmpty ? ["."] : given
            var nearestOfStarts: [(String, Found?)] = []
            for start in starts { nearestOfStarts.append((start, try nearest(from: start))) }
            guard let found = try ensureOne(nearestOfStarts) else { return Config() }
            var config = try read(found.path, root: Discovery.folder(of: found.path), named: found.name)
            config.source = found
            return config
        }
        // Refused before it is opened: a FIFO there would block the run.
        guard access(path, R_OK) == 0 else {
            throw Invalid(message: "--config: cannot read \(path): \(String(cString: strerror(errno)))")
        }
        switch Discovery.kind(of: path) {
        case .file: return try read(path, root: Discovery.folder(of: path), named: path)
        case .folder: throw Invalid(message: "--config: cannot read \(path): it is a folder, not a file")
        case .missing, .other:
            throw Invalid(message: "--config: cannot read \(path): it is not a regular file")
        }
    }

    /// A config found for a path: where it is, and how messages name it (`.stackplay.lua` for the
    /// current folder's, else its absolute path).
    struct Found: Equatable {
        var path: String
        var name: String
    }

    /// The nearest `.stackplay.lua` of `path` (a script or a folder): in the folder itself for a
    /// folder, else in the script's folder, then each parent, up to a repository's root (a folder
    /// holding `.git`) or the filesystem's, as `.editorconfig` and `.luacheckrc` are found.
    ///
    /// The search is a trust boundary (docs/sandbox.md): it stops at a folder owned by another user
    /// than the one running (as git's `safe.directory`), whose config is never read (said once on
    /// stderr when there is one), and a `.stackplay.lua` that is there but is not a readable
    /// regular file (a dangling link, a folder, a FIFO) is an error, never passed over for the
    /// parent's.
    static func nearest(from path: String) throws(Invalid) -> Found? {
        let start = Discovery.kind(of: path) == .folder ? path : Discovery.folder(of: path)
        guard var folder = absolute(start) else { return nil }
        let here = absolute(".")
        while true {
            if let owner = ConfigTrust.foreignOwner(of: folder) {
                ConfigTrust.sayIgnored(in: folder, owner: owner)
                return nil
            }
            let candidate = (folder == "/" ? "" : folder) + "/" + fileName
            if let problem = ConfigTrust.problem(with: candidate) {
                throw Invalid(message: "\(candidate): \(problem)")
            }
            if TraceFile.exists(candidate) {
                return Found(path: candidate, name: folder == here ? fileName : candidate)
            }
            let marker = (folder == "/" ? "" : folder) + "/.git"
            if folder == "/" || Discovery.kind(of: marker) != .missing { return nil }
            folder = Discovery.folder(of: folder)
            if folder.isEmpty || folder == "." { folder = "/" }
        }
    }

    /// The one config of paths, each with its nearest; paths with different ones are an error that
    /// names two of them: jobs, the reporter, the matrix and the audit are settings of the run.
    static func ensureOne(_ found: [(path: String, config: Found?)]) throws(Invalid) -> Found? {
        guard let first = found.first else { return nil }
        for other in found.dropFirst() where other.config != first.config {
            func says(_ item: (path: String, config: Found?)) -> String {
                "\(item.path) reads \(item.config?.name ?? "no config")"
            }
            throw Invalid(
                message: "\(says(first)) but \(says(other)): a run reads one .stackplay.lua (its settings "
                    + "are the run's); run them apart, or name one with --config FILE")
        }
        return first.config
    }

    /// Fails when a script found under a folder argument has a nearer `.stackplay.lua` than the
    /// run's (`loaded`, found from `paths`): one in a subfolder, which the run would not apply.
    static func check(scripts: [String], paths: [String], loaded: Found?) throws(Invalid) {
        var seen: [String: Found?] = [:]
        var found: [(path: String, config: Found?)] = [(paths.first ?? ".", loaded)]
        for script in scripts {
            let folder = Discovery.folder(of: script)
            if seen[folder] == nil {
                let config = try nearest(from: folder)
                seen[folder] = config
                found.append((script, config))
            }
        }
        _ = try ensureOne(found)
    }

    /// `path` made absolute and resolved (links, `..`); nil when it does not exist.
    private static func absolute(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Runs the config file at `path` (its `require` rooted at `root`) and reads the table it
    /// returns; messages name the file as `file`.
    private static func read(_ path: String, root: String, named file: String) throws(Invalid) -> Config {
        let values: [ScriptValue]
        do {
            values = try ScriptRunner(modules: []).evaluate(file: path, root: root)
        } catch {
            throw Invalid(message: "\(error)")
        }
        let table: [String: ScriptValue]
        switch values.first {
        case .table(let fields)?: table = fields
        case .array(let list)? where list.isEmpty: table = [:]
        default:
            throw Invalid(
                message: "\(file): must return a table, got \(values.first.map(describe) ?? "nothing")")
        }
        let optionKeys = Dictionary(
            Options.table.compactMap(\.config).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var config = Config()
        for (key, value) in table.sorted(by: { $0.key < $1.key }) {
            let entry = ConfigEntry(file: file, key: key, value: value)
            switch key {
            case "paths":
                switch value {
                case .string(let path): config.paths = [path]
                case .array(let list):
                    config.paths = try list.map { item throws(Invalid) in
                        guard let path = item.string else { throw entry.bad("a list of paths") }
                        return path
                    }
                default: throw entry.bad("a path or a list of paths")
                }
            case "screen":
                config.screen = try screenDefaults(entry)
            case "reporter":
                guard let name = value.string, let format = Options.Format(rawValue: name) else {
                    throw entry.bad("'human', 'tap', 'json' or 'github'")
                }
                config.reporter = format
            default:
                guard let option = optionKeys[key] else {
                    let near = nearestName(to: key, in: keys)
                    throw Invalid(
                        message: "\(file): unknown key '\(key)'"
                            + (near.map { " (did you mean '\($0)'?)" } ?? ""))
                }
                config.settings.append((option, try option.read(entry)))
            }
        }
        return config
    }

    /// `matrix = { "layout_direction=ltr,rtl", "dynamic_type=all" }` (axes in this order), or
    /// `matrix = { layout_direction = { "ltr", "rtl" }, dynamic_type = "all" }` (axes by key name).
    static func matrix(_ entry: ConfigEntry) throws(Invalid) -> Matrix {
        let fileName = entry.file
        var matrix = Matrix()
        do {
            switch entry.value {
            case .array(let axes):
                for axis in axes {
                    guard let text = axis.string else {
                        throw Invalid(
                            message: "\(fileName): 'matrix' must list axes as \"KEY=V1,V2\" strings")
                    }
                    try matrix.add(text)
                }
            case .table(let axes):
                for (key, values) in axes.sorted(by: { $0.key < $1.key }) {
                    switch values {
                    case .string(let text): try matrix.add(key: key, values: [text])
                    case .array(let list):
                        let texts = list.map { item -> String in
                            switch item {
                            case .string(let text): text
                            case .integer(let number): String(number)
                            case .number(let number): formatNumber(number)
                            case .boolean(let flag): String(flag)
                            default: ""
                            }
                        }
                        try matrix.add(key: key, values: texts)
                    default:
                        throw Invalid(
                            message: "\(fileName): 'matrix.\(key)' must be a value or a list of values")
                    }
                }
            default:
                throw Invalid(message: "\(fileName): 'matrix' must be a table of axes")
            }
        } catch let error as Invalid {
            throw error
        } catch let error as VariantError {
            throw Invalid(message: "\(fileName): 'matrix': \(error.message)")
        } catch {
            throw Invalid(message: "\(fileName): 'matrix': \(error)")
        }
        return matrix
    }

    /// The `audit` table, read as `screen:audit(options)` reads its options.
    static func audit(_ entry: ConfigEntry) throws(Invalid) -> AuditOptions {
        switch AuditMethods.options(try entry.fields("a table { types =, allow = }")) {
        case .success(let options): return options
        case .failure(let error): throw entry.problem(error.message)
        }
    }

    /// The `screen` table: each setting checked as `stackplay.screen {}` checks it; an unknown
    /// key is named with the nearest known one.
    private static func screenDefaults(_ entry: ConfigEntry) throws(Invalid) -> ScreenDefaults {
        let fileName = entry.file
        let fields = try entry.fields(
            "a table of screen settings (\(ScreenDefaults.keys.joined(separator: ", ")))")
        var defaults = ScreenDefaults()
        for (name, item) in fields.sorted(by: { $0.key < $1.key }) {
            func bad(_ expected: String) -> Invalid {
                Invalid(message: "\(fileName): 'screen.\(name)' must be \(expected), got \(describe(item))")
            }
            switch name {
            case "width", "height":
                guard let number = item.number, number.isFinite, number >= 0 else {
                    throw bad("a number >= 0")
                }
                if name == "width" { defaults.width = number } else { defaults.height = number }
            case "layout_direction":
                guard let text = item.string else { throw bad("'ltr' or 'rtl'") }
                guard let direction = LayoutDirection(name: text) else {
                    throw Invalid(
                        message:
                            "\(fileName): 'screen.layout_direction': \(ScreenDefaults.unknownDirection(text))"
                    )
                }
                defaults.layoutDirection = direction
            case "reduce_motion":
                guard case .boolean(let flag) = item else { throw bad("true or false") }
                defaults.reduceMotion = flag
            case "dynamic_type":
                guard let text = item.string else { throw bad("a Dynamic Type size ('large', 'AX1', ...)") }
                guard let size = DynamicTypeSize(name: text) else {
                    throw Invalid(
                        message: "\(fileName): 'screen.dynamic_type': \(ScreenDefaults.unknownSize(text))")
                }
                defaults.dynamicTypeSize = size
            default:
                let near = nearestName(to: name, in: ScreenDefaults.keys)
                throw Invalid(
                    message: "\(fileName): unknown key 'screen.\(name)'"
                        + (near.map { " (did you mean 'screen.\($0)'?)" }
                            ?? " (known: \(ScreenDefaults.keys.joined(separator: ", ")))"))
            }
        }
        return defaults
    }

    /// Fills what the command line did not give.
    func apply(to options: inout Options) {
        if options.paths.isEmpty { options.paths = paths }
        if options.format == nil { options.format = reporter }
        for (key, apply) in settings where !(key.flagWins && options.given.contains(key.name)) {
            apply(&options)
        }
    }

    static func describe(_ value: ScriptValue) -> String {
        switch value {
        case .nil: "nil"
        case .boolean(let flag): String(flag)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .string(let text): "'\(text)'"
        case .array, .table, .record, .fields: "a table"
        case .object: "userdata"
        case .function: "a function"
        case .opaque(let name): name
        }
    }
}
