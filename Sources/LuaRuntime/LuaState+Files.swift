import CLua
import CLuaRuntime
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

extension LuaState {
    /// Loads the text file at `path` as a chunk named `@path`. A path with `\xHH` escapes that
    /// names no file as written is a name that is not UTF-8 (``EscapedName``): its real bytes are
    /// opened, and messages keep the escaped name.
    package func load(file path: String) -> Int32 {
        guard path.contains("\\x"), access(path, F_OK) != 0, let bytes = EscapedName.bytes(path) else {
            return stackplay_loadfile(stack.L, path)
        }
        var name = bytes + [0]
        let source = { () -> [UInt8]? in
            let descriptor = name.withUnsafeMutableBufferPointer {
                $0.withMemoryRebound(to: CChar.self) {
                    open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                }
            }
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return try? Syscall.readAll(descriptor, limit: Int.max).get()
        }()
        guard var source else { return stackplay_loadfile(stack.L, path) }
        // A `#` first line is skipped, as luaL_loadfilex does.
        if source.first == UInt8(ascii: "#") {
            source = Array(source.drop { $0 != UInt8(ascii: "\n") })
        }
        return source.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) {
                stackplay_loadstring(stack.L, $0.baseAddress, $0.count, "@" + path)
            }
        }
    }
}
