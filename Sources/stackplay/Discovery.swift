#if canImport(Glibc)
    import Glibc
#endif

/// A script to run and the folder its `require` looks in.
struct Script {
    var path: String
    var root: String
}

/// Finds the scripts named on the command line.
enum Discovery {
    struct Missing: Error { let message: String }

    /// Files as given; folders as every `*.lua` under them, recursively, sorted by path,
    /// skipping names that start with '.'. A file's root is `root` or its folder.
    static func scripts(in paths: [String], root: String?) throws(Missing) -> [Script] {
        var scripts: [Script] = []
        for path in paths {
            switch kind(of: path) {
            case .file: scripts.append(Script(path: path, root: root ?? folder(of: path)))
            case .folder: scripts += luaFiles(under: path).map { Script(path: $0, root: root ?? path) }
            case .missing: throw Missing(message: "no such file or folder: \(path)")
            }
        }
        return scripts
    }

    enum Kind { case file, folder, missing }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .file
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Every `*.lua` file under `folder`, sorted by path (byte order, so runs are stable).
    static func luaFiles(under folder: String) -> [String] {
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            guard let directory = opendir(current) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                // `helpers/` folders hold modules that scenarios `require`; they are not run.
                if name == "helpers" { continue }
                let path = current.hasSuffix("/") ? current + name : current + "/" + name
                switch kind(of: path) {
                case .folder: pending.append(path)
                case .file where name.hasSuffix(".lua"): found.append(path)
                default: break
                }
            }
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
