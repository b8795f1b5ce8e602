#if canImport(Glibc)
    import Glibc
#endif

/// This process's environment as `NAME=value` texts, in its order: what a process this one starts
/// (a mutant's run, the restart of a lone file's run) is given, with its own changes.
enum ProcessEnvironment {
    static var entries: [String] {
        var entries: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            entries.append(String(cString: pointer))
            entry += 1
        }
        return entries
    }
}
