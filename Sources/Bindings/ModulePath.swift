import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// `package.searchpath` confined to the scripts' root: the manual's search (§6.3), where a file
/// name is relative to the root, not to the working folder, and a name that leaves the root
/// (absolute, `..`, a link out) is never a file found.
enum ModulePath {
    struct Problem: Error { let message: String }

    /// The first file of `path`'s templates (separated by `;`, each `?` replaced by `name`, in which
    /// each `separator` became `replacement`) that is a regular file inside the root; else the
    /// manual's list of every name tried (`no file './x.lua'\n\tno file './x/init.lua'`).
    static func search(
        _ name: String, path: String, separator: String, replacement: String, root: String?
    ) -> Result<String, Problem> {
        var name = name
        if !separator.isEmpty { name = name.replacing(separator, with: replacement) }
        let files = path.replacing("?", with: name).split(separator: ";", omittingEmptySubsequences: false)
        var tried: [String] = []
        for file in files.map(String.init) {
            guard let root, let confined = try? ConfinedPath(shown(file, root: root), under: root) else {
                tried.append("no file '\(file)'" + (root == nil ? "" : " (outside the scripts' folder)"))
                continue
            }
            let real: String
            do { real = try confined.existing() } catch {
                let outside = confined.exists
                tried.append("no file '\(confined.path)'" + (outside ? " (outside the scripts' folder)" : ""))
                continue
            }
            if isRegularFile(real) { return .success(confined.path) }
            tried.append("no file '\(confined.path)'")
        }
        return .failure(Problem(message: tried.joined(separator: "\n\t")))
    }

    /// A template's file name relative to the root: `./x.lua` stays as it is under `.` (as stock
    /// shows it), and is `scripts/x.lua` under `scripts`.
    private static func shown(_ file: String, root: String) -> String {
        guard root != "." else { return file }
        var file = Substring(file)
        while file.hasPrefix("./") { file = file.dropFirst(2) }
        return String(file)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

extension ModulePath.Problem: CustomStringConvertible {
    /// The message alone, never Swift's `Problem(message: ...)`.
    var description: String { message }
}
