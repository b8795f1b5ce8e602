import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// Whose `.stackplay.lua` a run may obey (``Config/nearest(from:)``): the config decides where
/// reports are written (`junit = "..."`), so one found in a folder that another user owns would
/// let that user overwrite the files of whoever runs stackplay below it. As git's
/// `safe.directory`, the upward search stops at the first folder not owned by the user running.
enum ConfigTrust {
    /// The owner of `folder` when it is not the user running (the effective user id), else nil.
    static func foreignOwner(of folder: String) -> uid_t? {
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }
        return info.st_uid == geteuid() ? nil : info.st_uid
    }

    /// The folders whose ignored config was already named on stderr (once a run).
    nonisolated(unsafe) private static var said: Set<String> = []

    /// Says on stderr that the config of `folder`, owned by `owner`, is not read (when there is one).
    static func sayIgnored(in folder: String, owner: uid_t) {
        let candidate = (folder == "/" ? "" : folder) + "/" + Config.fileName
        guard TraceFile.exists(candidate), said.insert(folder).inserted else { return }
        Output.err(
            "stackplay: not reading \(candidate): \(folder) is owned by \(userName(owner)), not by "
                + "\(userName(geteuid())) who runs stackplay (a config there could choose where your "
                + "reports are written); copy it into your own folder or name it with --config FILE")
    }

    /// Why the config at `path` cannot be read, when something is there; nil when nothing is
    /// there or it is a readable regular file (a link to one included).
    static func problem(with path: String) -> String? {
        var link = stat()
        guard lstat(path, &link) == 0 else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "it is a link to \(linkTarget(path) ?? "nothing") that does not exist (a config "
                + "that cannot be read stops the run: remove it, or fix the link)"
        }
        if let kind = TraceFile.notRegular(info.st_mode) {
            return "it is \(kind), not a file (a config that cannot be read stops the run: remove it)"
        }
        guard access(path, R_OK) == 0 else {
            return "cannot read it: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `nobody (uid 65534)`, or `uid 65534` when the user has no name.
    static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }
}
