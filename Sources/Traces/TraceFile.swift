#if canImport(Glibc)
    import Glibc
#endif

/// Reading and writing whole files without Foundation.
public enum TraceFile {
    public struct Failure: Error, Sendable { public var message: String }

    /// The text of the file at `path`.
    public static func read(_ path: String) throws(Failure) -> String {
        guard let file = fopen(path, "rb") else {
            throw Failure(message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count { break }
        }
        if ferror(file) != 0 { throw Failure(message: "cannot read: \(String(cString: strerror(errno)))") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `path`, replacing it.
    public static func write(_ text: String, to path: String) throws(Failure) {
        guard let file = fopen(path, "wb") else {
            throw Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var text = text
        let ok = text.withUTF8 { $0.isEmpty || fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
        if !ok { throw Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
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
    }

    /// Whether a file exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// A file name made of `parts`: lower-case letters, digits and '-', at most 120 characters
    /// (`scripts/swipe_rtl.lua`, `N11 right to left` → `scripts-swipe_rtl--n11-right-to-left`).
    public static func stem(_ parts: [String]) -> String {
        parts.map { part in
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
    }
}
