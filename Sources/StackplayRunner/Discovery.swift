import Bindings
import Traces
import Wording

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
    /// `includingHelpers`: `stackplay check` reads the modules in `helpers/` folders too.
    static func scripts(in paths: [String], root: String?, includingHelpers: Bool = false) throws(Missing)
        -> [Script]
    {
        var scripts: [Script] = []
        for path in paths {
            switch kind(of: path) {
            case .file: scripts.append(Script(path: path, root: root ?? folder(of: path)))
            case .folder:
                scripts += luaFiles(under: path, includingHelpers: includingHelpers).map {
                    Script(path: $0, root: root ?? path)
                }
            case .missing: throw Missing(message: "no such file or folder: \(path)")
            case .other: throw Missing(message: "not a regular file or a folder: \(path)")
            }
        }
        return onceEach(scripts)
    }

    /// `scripts` with each path once, compared as bytes with `.` parts and repeated slashes
    /// left out: `a.lua a.lua`, `./a.lua a.lua` or a folder and a file in it never run a file
    /// twice under one name (a link is another name, and runs under it).
    static func onceEach(_ scripts: [Script]) -> [Script] {
        guard scripts.count > 1 else { return scripts }
        var seen: Set<ByteKey> = []
        seen.reserveCapacity(scripts.count)
        var kept: [Script] = []
        kept.reserveCapacity(scripts.count)
        for script in scripts {
            if !seen.insert(ByteKey(plainPath(script.path))).inserted {
                Output.err("stackplay: \(script.path) is named more than once: it runs once")
                continue
            }
            kept.append(script)
        }
        return kept
    }

    /// `path` without `.` parts and repeated slashes (`./a//b.lua` is `a/b.lua`); most paths, a
    /// folder's files among them, have neither and are themselves.
    static func plainPath(_ path: String) -> String {
        var path = path
        // (over the bytes in one piece: a folder's every file is looked at)
        let plain = path.withUTF8 { bytes -> Bool in
            var part = 0  // bytes of the part so far
            var dot = false  // the part so far is "."
            for offset in 0..<bytes.count {
                if bytes[offset] == UInt8(ascii: "/") {
                    // a `.` part, or an empty one after the start (`a//b`)
                    if dot || (offset > 0 && part == 0) { return false }
                    part = 0
                } else {
                    dot = part == 0 && bytes[offset] == UInt8(ascii: ".")
                    part += 1
                }
            }
            // a `.` at the end, or a slash at the end of more than `/`
            return !dot && !(part == 0 && bytes.count > 1)
        }
        if plain { return path }
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    enum Kind { case file, folder, other, missing }

    /// What is at `path`, links followed: a path named on the command line is taken as meant.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The folder `path` is in: what comes before its last slash (a byte, as the system reads
    /// the path: a combining mark after it does not hide it), `/` for a path right under the
    /// root, `.` for a bare name.
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(decoding: path.utf8[..<slash], as: UTF8.self)
    }

    /// Every `*.lua` file under `folder`, sorted by path (byte order, so runs are stable). Links
    /// to folders are not followed, so a link to `.` cannot make the walk loop or run a script
    /// twice; links to files are. A `*.lua` that is not a regular file (a FIFO, a device) is
    /// reported on stderr and skipped: opening it could block the run. A script whose name is not
    /// UTF-8 is named with its bad bytes escaped (``ScriptFileName``, `b\xff.lua`) and runs: the
    /// loader opens the real bytes. A folder whose name is not UTF-8 is noted and skipped.
    static func luaFiles(under folder: String, includingHelpers: Bool = false) -> [String] {
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            guard let directory = opendir(current) else {
                Output.err(
                    "stackplay: cannot read the folder \(current): \(String(cString: strerror(errno)))")
                continue
            }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
                let name = ScriptFileName.escape(bytes)
                if name.hasPrefix(".") { continue }
                // `helpers/` folders hold modules that scenarios `require`; they are not run.
                if name == "helpers" && !includingHelpers { continue }
                let path = current.hasSuffix("/") ? current + name : current + "/" + name
                // what the folder says an entry is, when it says (most file systems): a file or a
                // folder with a UTF-8 name and a path the system takes needs no `lstat`
                let type = entry.pointee.d_type
                if type == DT_REG || type == DT_DIR, path.utf8.count < PATH_MAX / 2,
                    bytes.elementsEqual(name.utf8)
                {
                    if type == DT_DIR {
                        pending.append(path)
                    } else if name.hasSuffix(".lua") {
                        found.append(path)
                    }
                    continue
                }
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    // A name that is not UTF-8 (or a file removed meanwhile): a script runs under
                    // its escaped name (the loader opens its real bytes), anything else is noted.
                    // A path the system cannot take (ENAMETOOLONG: folders 3,000 deep) is noted too.
                    if errno == ENAMETOOLONG || errno == ELOOP {
                        let problem = String(cString: strerror(errno))
                        let shown = path.utf8.count > 200 ? "\(path.prefix(80))...\(path.suffix(80))" : path
                        Output.err(
                            "stackplay: skipped \(shown) and what is under it: \(problem) (\(path.utf8.count) bytes)"
                        )
                    } else if name.hasSuffix(".lua") {
                        found.append(path)
                    } else if !bytes.elementsEqual(name.utf8) {
                        Output.err("stackplay: skipped \(path): its name is not UTF-8")
                    }
                    continue
                }
                var mode = info.st_mode & S_IFMT
                if mode == S_IFLNK {
                    guard stat(path, &info) == 0 else { continue }
                    mode = info.st_mode & S_IFMT
                    if mode == S_IFDIR { continue }
                }
                switch mode {
                case S_IFDIR: pending.append(path)
                case S_IFREG where name.hasSuffix(".lua"): found.append(path)
                case _ where name.hasSuffix(".lua"):
                    Output.err("stackplay: skipped \(path): it is not a regular file")
                default: break
                }
            }
        }
        return found.sortedByBytes()
    }
}
