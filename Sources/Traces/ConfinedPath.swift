#if canImport(Glibc)
    import Glibc
#endif

/// A path that a script named, resolved inside a folder it may not leave: the scripts' root for
/// `require`, golden traces and replays. The name is relative to the folder; an absolute path, a
/// `..` part, or a link whose real path leaves the folder is refused, and so is anything but a
/// regular file when it is read. Messages name the path and never the contents of a file outside.
public struct ConfinedPath: Sendable, Equatable {
    /// The folder as given, and the path as messages show it: `golden/x.jsonl` under `.`,
    /// `scripts/golden/x.jsonl` under `scripts`.
    public let root: String
    public let path: String
    /// The name as the script gave it, relative to `root`.
    public let name: String

    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Resolves `name` under `root` without touching the disk: refuses empty names, absolute
    /// paths, `..` parts and NUL bytes.
    public init(_ name: String, under root: String, what: String = "the scripts' folder") throws(Refusal) {
        guard !name.isEmpty else { throw Refusal(message: "an empty path names no file") }
        guard !name.utf8.contains(0) else { throw Refusal(message: "a path cannot hold a NUL byte") }
        guard !name.hasPrefix("/") else {
            throw Refusal(
                message: "'\(name)' is an absolute path: name a file relative to \(what) (\(root))")
        }
        guard !name.split(separator: "/").contains("..") else {
            throw Refusal(message: "'\(name)' leads outside \(what) (\(root)): '..' is not allowed")
        }
        self.root = root
        self.name = name
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        path = base == "." ? name : base.isEmpty ? "/" + name : base + "/" + name
        self.what = what
    }

    private let what: String

    /// Whether `real` (a real path) is `realRoot` or inside it.
    static func contains(_ realRoot: String, _ real: String) -> Bool {
        real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    }

    private func outside() -> Refusal {
        Refusal(message: "'\(path)' leads outside \(what) (\(root)) through a link")
    }

    private func realRoot() throws(Refusal) -> String {
        guard let real = TraceFile.realPath(root) else {
            throw Refusal(message: "cannot reach \(what) \(root): \(String(cString: strerror(errno)))")
        }
        return real
    }

    /// The file's real path, checked to be inside the root; throws when it does not exist.
    public func existing() throws(Refusal) -> String {
        let realRoot = try realRoot()
        guard let real = TraceFile.realPath(path) else {
            throw Refusal(message: "no file '\(path)'")
        }
        guard Self.contains(realRoot, real) else { throw outside() }
        return real
    }

    /// Whether anything is at the path (a link leading out counts: reading it is refused later).
    public var exists: Bool { TraceFile.exists(path) }

    /// The text of the file, refused when it leads outside or is not a regular file (FIFOs and
    /// devices are never opened for long: the open does not block).
    public func read(limit: Int = TraceFile.sizeLimit) throws(Refusal) -> String {
        let real = try existing()
        do { return try TraceFile.read(real, limit: limit, followLinks: false) } catch {
            throw Refusal(message: error.message.replacing(real, with: path))
        }
    }

    /// Writes `text` to the path atomically, making the folders on the way (each checked to stay
    /// inside the root). A link or a special file at the path is refused, never written through.
    public func write(_ text: String) throws(Refusal) {
        let realRoot = try realRoot()
        var folder = realRoot
        let parts = name.split(separator: "/").filter { $0 != "." }
        guard let last = parts.last else { throw Refusal(message: "'\(path)' names a folder, not a file") }
        for part in parts.dropLast() {
            let next = (folder == "/" ? "" : folder) + "/" + part
            if mkdir(next, 0o755) != 0 && errno != EEXIST {
                throw Refusal(
                    message: "cannot make the folder for \(path): \(String(cString: strerror(errno)))")
            }
            var info = stat()
            guard let real = TraceFile.realPath(next), Self.contains(realRoot, real) else { throw outside() }
            guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw Refusal(message: "cannot write \(path): '\(part)' is not a folder")
            }
            folder = real
        }
        let target = (folder == "/" ? "" : folder) + "/" + last
        var info = stat()
        if lstat(target, &info) == 0, let kind = TraceFile.notRegular(info.st_mode) {
            throw Refusal(message: "cannot write \(path): it is \(kind), not a regular file")
        }
        do { try TraceFile.replace(target, with: text) } catch {
            throw Refusal(message: error.message.replacing(target, with: path))
        }
    }

    /// Removes the file (a link is removed, not its target).
    public func remove() throws(Refusal) {
        _ = try realRoot()
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Refusal(message: "cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }
}
