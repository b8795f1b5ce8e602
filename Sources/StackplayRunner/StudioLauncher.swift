import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// `stackplay studio [args]`: replaces this process with `stackplay-studio` from beside this
/// executable (docs/studio.md). The studio links an HTTP server that Debian ships as a shared
/// library only, so it is its own dynamically linked program: the static `stackplay` stays free
/// of it, and a plain run's start-up pays nothing for the studio.
enum StudioLauncher {
    /// The name of the studio's executable.
    static let program = "stackplay-studio"

    /// Execs the studio with `arguments` and `--stackplay` naming this executable; returns only
    /// when it cannot (the exit code, after saying why on stderr).
    static func run(_ arguments: [String]) -> Int32 {
        let me = executablePath()
        let folder = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let studio = (folder.isEmpty ? "." : folder) + "/" + program
        guard access(studio, X_OK) == 0 else {
            Output.err(
                "stackplay: studio: \(studio) is missing: the studio is its own program, built beside stackplay by "
                    + "`swift build` or `make build` (make release builds the static stackplay alone)")
            return ExitCode.failure
        }
        let argv = [studio, "--stackplay", me] + arguments
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        pointers.append(nil)
        execv(studio, &pointers)
        Output.err("stackplay: studio: cannot start \(studio): \(String(cString: strerror(errno)))")
        return ExitCode.failure
    }

    /// This executable's absolute path (/proc/self/exe), else argv[0].
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "stackplay" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
