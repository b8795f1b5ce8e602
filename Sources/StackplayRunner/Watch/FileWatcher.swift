import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Watches files and folders for saves, with Linux's inotify: no polling, so a watcher that waits
/// costs no CPU. A folder is watched with every folder under it (names starting with `.` aside),
/// and a folder made later is watched as soon as it appears (the files already in it count as
/// changed); a file is watched through its folder, so an editor's atomic save (a new file renamed
/// over the old one) is seen as a save of the file. Changes come in rounds: ``wait(quiet:interrupted:)``
/// blocks until something changes, then until nothing has for `quiet` seconds (50 ms by default),
/// so one save that writes, renames and touches a file is one round.
///
/// ```swift
/// let watcher = try FileWatcher(["scripts"])
/// while let changed = watcher.wait(interrupted: { WorkerPool.interruption != 0 }) {
///     print(changed)  // ["scripts/swipe.lua"]
/// }
/// ```
///
/// A caller with a loop of its own (the studio's server) polls ``descriptor`` for reading, calls
/// ``drain()`` when it is readable, and collects the changes it returns until it is quiet.
/// ``stop()`` (from any thread) makes a ``wait(quiet:interrupted:)`` in progress return nil.
public final class FileWatcher {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The inotify instance: readable when changes are waiting.
    public let descriptor: Int32
    /// Written by ``stop()`` to wake a wait.
    private let wake: (read: Int32, write: Int32)
    /// Each watch's folder, whether its subfolders are watched, and the names it reports (nil:
    /// every name; a file given alone: its own name).
    private var watches: [Int32: (folder: String, recursive: Bool, names: Set<String>?)] = [:]

    /// What a watch listens for: a file closed after writing (a save is over only then: a
    /// write in progress is not a change yet), moved in (an atomic save) or out, removed; a
    /// folder made (to watch it); the folder itself removed or moved.
    private static let mask: UInt32 =
        UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE_SELF)
        | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    /// Watches `paths` (files and folders); a path that is neither is an error naming it.
    public init(_ paths: [String]) throws(Failure) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw Failure(message: "cannot watch files: inotify_init1: \(String(cString: strerror(errno)))")
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(descriptor)
            throw Failure(message: "cannot watch files: pipe: \(String(cString: strerror(errno)))")
        }
        wake = (pipeEnds[0], pipeEnds[1])
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        do throws(Failure) {
            for path in paths {
                var info = stat()
                guard stat(path, &info) == 0 else {
                    throw Failure(message: "cannot watch \(path): \(String(cString: strerror(errno)))")
                }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    _ = try watchTree(Self.trimmed(path))
                } else {
                    let slash = path.lastIndex(of: "/")
                    let folder = slash.map { String(path[..<$0]) } ?? "."
                    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
                    try watch(folder.isEmpty ? "/" : folder, recursive: false, name: name)
                }
            }
        } catch {
            // Every stored property is set: deinit runs and closes the three descriptors (closing
            // them here too closed them twice, and a second close can close another thread's
            // newly opened file that got the same number).
            throw error
        }
    }

    deinit {
        close(descriptor)
        close(wake.read)
        close(wake.write)
    }

    /// Makes a ``wait(quiet:interrupted:)`` in progress, or the next one, return nil. Safe from
    /// any thread.
    public func stop() {
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
    }

    /// Blocks until a watched file changes, then until none has for `quiet` seconds; returns the
    /// changed files' paths (sorted, each once, as `folder/name` under the paths given). Returns
    /// nil when ``stop()`` was called, or when SIGINT or SIGTERM came and `interrupted()` (the
    /// flag their handler sets) says so: the signals are unblocked only while it waits, so one
    /// cannot slip in between the check and the wait.
    public func wait(quiet: Double = 0.05, interrupted: () -> Bool = { false }) -> [String]? {
        var changed = Set<String>()
        let quietMilliseconds = Int32((quiet * 1000).rounded())
        while true {
            let ready: Int32 = Syscall.withInterruptsBlocked {
                if interrupted() { return -2 }
                var fds = [
                    pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                ]
                let result = Syscall.pollUnblockingInterrupts(
                    &fds, timeout: changed.isEmpty ? -1 : quietMilliseconds)
                if result > 0, fds[1].revents != 0 { return -3 }
                return result
            }
            switch ready {
            case -2, -3: return nil
            case 0: return changed.sorted()  // quiet for `quiet` seconds after a change
            case ..<0:
                if errno == EINTR { continue }  // `interrupted()` says whether to stop
                return changed.sorted()
            default: changed.formUnion(drain())
            }
        }
    }

    /// Reads every change waiting, without blocking: the changed files' paths (a folder made
    /// meanwhile is watched from now on, and its files count as changed).
    public func drain() -> [String] {
        var changed: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = Syscall.read(descriptor, into: buffer)
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.baseAddress!.advanced(by: offset).loadUnaligned(as: inotify_event.self)
                let nameBytes = UnsafeRawBufferPointer(
                    start: buffer.baseAddress!.advanced(by: offset + header), count: Int(event.len))
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + Int(event.len)
                changed += handle(watch: event.wd, mask: event.mask, name: name)
            }
        }
        return changed
    }

    /// The changed paths one event means, and the watches it adds or drops.
    private func handle(watch: Int32, mask: UInt32, name: String) -> [String] {
        if mask & UInt32(IN_IGNORED) != 0 {
            watches[watch] = nil
            return []
        }
        guard let entry = watches[watch], !name.isEmpty else { return [] }
        if let names = entry.names, !names.contains(name) { return [] }
        guard !name.hasPrefix("."), !name.hasSuffix("~") else { return [] }
        let path = entry.folder == "/" ? "/" + name : entry.folder + "/" + name
        if mask & UInt32(IN_ISDIR) != 0 {
            // A folder made or moved in under a watched tree: watch it, and what it already holds
            // (written before its watch began) counts as changed.
            guard entry.recursive, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 else { return [] }
            return (try? watchTree(path)) ?? []
        }
        // A file made is a change once it is closed (IN_CLOSE_WRITE follows).
        if mask & UInt32(IN_CREATE) != 0 { return [] }
        return [path]
    }

    /// Watches `folder` and every folder under it; returns the files found in them.
    private func watchTree(_ folder: String) throws(Failure) -> [String] {
        try watch(folder, recursive: true, name: nil)
        var files: [String] = []
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var folders: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            // Links to folders are not followed (as discovery does not): a link to `.` cannot loop.
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                folders.append(path)
            } else {
                files.append(path)
            }
        }
        for path in folders.sorted() { files += (try? watchTree(path)) ?? [] }
        return files
    }

    private func watch(_ folder: String, recursive: Bool, name: String?) throws(Failure) {
        let wd = inotify_add_watch(descriptor, folder, Self.mask)
        guard wd >= 0 else {
            let reason =
                errno == ENOSPC
                ? "the system's limit of inotify watches is reached (fs.inotify.max_user_watches)"
                : String(cString: strerror(errno))
            throw Failure(message: "cannot watch \(folder): \(reason)")
        }
        // One folder may be watched for a file alone and as a tree: the watch reports the union.
        if let old = watches[wd] {
            let names: Set<String>? =
                old.names == nil || name == nil ? nil : old.names!.union([name!])
            watches[wd] = (old.folder, old.recursive || recursive, names)
        } else {
            watches[wd] = (folder, recursive, name.map { [$0] })
        }
    }

    /// `scripts/` → `scripts`: paths are reported as `folder/name`.
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
