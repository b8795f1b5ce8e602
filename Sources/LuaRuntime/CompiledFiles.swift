import CLua
import CLuaRuntime
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The scripts this process has compiled, as bytecode: a file of N tests is parsed once, not once
/// a test (each test still runs in a fresh state, which loads the bytecode without parsing).
///
/// An entry is used only while the file is the same one: same device, inode, size and modification
/// time (to the nanosecond); anything else compiles it again. Only stackplay loads this bytecode,
/// from text it compiled itself: scripts' own `load` stays text only.
package final class CompiledFiles: Sendable {
    package static let shared = CompiledFiles()

    /// What identifies a file's contents without reading them.
    package struct Identity: Equatable {
        package let device: UInt64
        package let inode: UInt64
        package let size: Int64
        package let seconds: Int
        package let nanoseconds: Int

        /// The identity of the regular file at `path`, or nil.
        package init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
        }
    }

    private struct Entry {
        package let identity: Identity
        package let bytecode: [UInt8]
    }

    private struct Table {
        package var entries: [String: Entry] = [:]
        package var parses: [String: Int] = [:]
    }

    private let table = Mutex(Table())

    /// The bytecode of `path` compiled while it had `identity`, or nil.
    package func bytecode(of path: String, identity: Identity) -> [UInt8]? {
        table.withLock { table in
            guard let entry = table.entries[path], entry.identity == identity else { return nil }
            return entry.bytecode
        }
    }

    /// Keeps `bytecode` for `path` (nil identity: a file not to keep, say a FIFO) and counts a parse.
    package func parsed(_ path: String, identity: Identity?, bytecode: [UInt8]?) {
        table.withLock { table in
            table.parses[path, default: 0] += 1
            if let identity, let bytecode {
                table.entries[path] = Entry(identity: identity, bytecode: bytecode)
            }
        }
    }

    /// How many times this process parsed the file at `path` from its text to run it.
    package func parses(of path: String) -> Int { table.withLock { $0.parses[path] ?? 0 } }
}

extension LuaState {
    /// How many times this process parsed the script at `path` from its text to run it
    /// (``TestRunner`` discovering and running its tests): 1 however many tests it has, while the
    /// file does not change.
    public static func parses(of path: String) -> Int { CompiledFiles.shared.parses(of: path) }

    /// Loads the script at `path` as ``load(file:)`` does, from this process's bytecode of it
    /// when the file has not changed since it was compiled; else parses it and keeps the bytecode.
    package func loadCompiled(file path: String) -> Int32 {
        let identity = CompiledFiles.Identity(path)
        if let identity, let bytecode = CompiledFiles.shared.bytecode(of: path, identity: identity) {
            let status = bytecode.withUnsafeBytes { bytes in
                stackplay_loadbytecode(
                    stack.L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, "@" + path)
            }
            if status == LUA_OK { return status }
            stack.pop(1)
        }
        let status = load(file: path)
        var bytecode: [UInt8]?
        if status == LUA_OK, identity != nil {
            var buffer = stackplay_buffer(data: nil, size: 0, capacity: 0)
            if stackplay_dump(stack.L, &buffer) == 0, let data = buffer.data {
                bytecode = Array(UnsafeRawBufferPointer(start: data, count: buffer.size))
            }
            free(buffer.data)
        }
        CompiledFiles.shared.parsed(path, identity: identity, bytecode: bytecode)
        return status
    }
}
