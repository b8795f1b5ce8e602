import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Reading and writing whole files without Foundation, safely: reads never block or run away,
/// writes are checked to the end and replace a file atomically.
public enum TraceFile {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// The largest file a read accepts: 64 MiB, far above any trace a test records.
    public static let sizeLimit = 64 << 20

    /// The text of the regular file at `path` (a UTF-8 byte order mark removed). A FIFO, a device,
    /// a folder or a file over `limit` bytes is refused without reading a byte, and opening never
    /// blocks. With `followLinks` false, a link as the last part of `path` is refused too.
    public static func read(_ path: String, limit: Int = sizeLimit, followLinks: Bool = true) throws(Failure)
        -> String
    {
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if !followLinks { flags |= O_NOFOLLOW }
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw Failure(message: "cannot read \(path): it is a link") }
            throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if let kind = notRegular(info.st_mode) {
            throw Failure(message: "cannot read \(path): it is \(kind), not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw Failure(message: "cannot read \(path): it is larger than \(limit >> 20) MiB")
        }
        var bytes: [UInt8]
        switch Syscall.readAll(descriptor, limit: limit) {
        case .success(let read): bytes = read
        // The file grew while it was read.
        case .failure(Errno(EFBIG)):
            throw Failure(message: "cannot read \(path): it is larger than \(limit >> 20) MiB")
        case .failure(let error): throw Failure(message: "cannot read \(path): \(error)")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a file of `mode` is when it is not a regular file ("a FIFO"), or nil.
    public static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a link"
        default: "not a file"
        }
    }

    /// Writes `text` to `path`. A regular file (or a new one) is replaced atomically: the text
    /// goes to a temporary file in the same folder, is flushed to disk, and is renamed over
    /// `path`, so a reader never sees half a file. A link is written through to its target. A
    /// device or FIFO the user named (`--junit /dev/stdout`) is written in place. Every write,
    /// flush and close is checked: `/dev/full` is an error.
    public static func write(_ text: String, to path: String) throws(Failure) {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, let target = realPath(path) {
            return try write(text, to: target)
        }
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw Failure(message: "cannot write \(path): it is a folder")
            }
            // Opened without blocking: a FIFO with no reader is an error, never a hang.
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                if errno == ENXIO {
                    throw Failure(
                        message: "cannot write \(path): it is a FIFO with no reader (start its reader first)")
                }
                throw failure(path)
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            try writeAll(text, to: descriptor, path: path, sync: false)
            return
        }
        try replace(path, with: text)
    }

    /// Writes `text` to a new temporary file beside `path` and renames it over `path`; a link or
    /// anything else at `path` is replaced, never followed.
    public static func replace(_ path: String, with text: String) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            temporary = "\(folder).\(name).\(getpid()).\(attempt).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw failure(path) }
        do {
            try writeAll(text, to: descriptor, path: path, sync: true)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let problem = failure(path)
            unlink(temporary)
            throw problem
        }
    }

    /// Writes all of `text`, flushes it when `sync`, and closes `descriptor`, checking each step.
    private static func writeAll(_ text: String, to descriptor: Int32, path: String, sync: Bool)
        throws(Failure)
    {
        if let error = Syscall.writeAll(descriptor, text, interruptible: true) {
            close(descriptor)
            throw Failure(message: "cannot write \(path): \(error)")
        }
        if sync && fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            let problem = failure(path)
            close(descriptor)
            throw problem
        }
        if close(descriptor) != 0 && errno != EINTR { throw failure(path) }
    }

    private static func failure(_ path: String) -> Failure {
        Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
    }

    /// Makes the folder `path` and its parents.
    public static func makeDirectory(_ path: String) throws(Failure) {
        var built = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            built += (built.isEmpty || built.hasSuffix("/") ? "" : "/") + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw Failure(message: "cannot make the folder \(built): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Failure(message: "cannot make the folder \(path): something else is there")
        }
    }

    /// Whether anything (a file, a folder, a dangling link) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The real path of `path` (links resolved), or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A file name for a test's traces, readable and unique: `parts` in lower-case letters,
    /// digits, '_' and '-' (at most 120 characters each), then '-' and 8 hex digits of a hash of
    /// the exact parts (`scripts/swipe_rtl.lua`, `N11 right to left` →
    /// `scripts-swipe_rtl-lua--n11-right-to-left-1a2b3c4d`). The readable part loses case and
    /// punctuation ("Swipe left" and "swipe-left"), the hash keeps them apart.
    public static func stem(_ parts: [String]) -> String {
        let readable = parts.map { part in
            var out = ""
            var lastDash = true
            for scalar in part.lowercased().unicodeScalars {
                if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "_" {
                    out.unicodeScalars.append(scalar)
                    lastDash = false
                } else if !lastDash {
                    out += "-"
                    lastDash = true
                }
            }
            while out.hasSuffix("-") { out.removeLast() }
            return String(out.prefix(120))
        }.filter { !$0.isEmpty }.joined(separator: "--")
        return (readable.isEmpty ? "" : readable + "-") + hash(parts)
    }

    /// 32 bits of FNV-1a over the parts' UTF-8 bytes, each followed by a 0 byte, as 8 hex digits.
    public static func hash(_ parts: [String]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 + [0] {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let folded = UInt32(truncatingIfNeeded: value ^ (value >> 32))
        let digits = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
