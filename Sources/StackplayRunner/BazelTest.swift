import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// Bazel's test protocol (https://bazel.build/reference/test-encyclopedia), for a `sh_test` that
/// wraps `stackplay`: the shard from `TEST_TOTAL_SHARDS` and `TEST_SHARD_INDEX` (0-based), JUnit
/// to `XML_OUTPUT_FILE`, artifacts to `TEST_UNDECLARED_OUTPUTS_DIR`, temporary files under
/// `TEST_TMPDIR`; `TEST_SHARD_STATUS_FILE` is touched to say sharding is supported, and
/// `TEST_PREMATURE_EXIT_FILE` exists while the run is going. Flags win over the variables, and
/// the variables over `.stackplay.lua`.
struct BazelTest {
    var totalShards: Int?
    var shardIndex: Int?
    var shardStatusFile: String?
    var xmlOutputFile: String?
    var prematureExitFile: String?
    var temporaryDirectory: String?
    var undeclaredOutputsDirectory: String?

    /// The variables as `environment` gives them; an empty one counts as unset.
    static func read(_ environment: (String) -> String?) throws(Options.UsageError) -> BazelTest {
        func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        var bazel = BazelTest()
        let total = value("TEST_TOTAL_SHARDS")
        let index = value("TEST_SHARD_INDEX")
        if let total {
            guard let count = Int(total), count >= 1 else {
                throw Options.UsageError(
                    message: "TEST_TOTAL_SHARDS needs a whole number >= 1, not '\(total)'")
            }
            let text = index ?? "0"
            guard let shard = Int(text), shard >= 0, shard < count else {
                throw Options.UsageError(
                    message: "TEST_SHARD_INDEX needs a whole number from 0 to \(count - 1), not '\(text)'")
            }
            bazel.totalShards = count
            bazel.shardIndex = shard
        }
        bazel.shardStatusFile = value("TEST_SHARD_STATUS_FILE")
        bazel.xmlOutputFile = value("XML_OUTPUT_FILE")
        bazel.prematureExitFile = value("TEST_PREMATURE_EXIT_FILE")
        bazel.temporaryDirectory = value("TEST_TMPDIR")
        bazel.undeclaredOutputsDirectory = value("TEST_UNDECLARED_OUTPUTS_DIR")
        return bazel
    }

    /// From this process's environment.
    static func fromEnvironment() throws(Options.UsageError) -> BazelTest {
        try read { name in getenv(name).map { String(cString: $0) } }
    }

    /// Why a file Bazel named is left alone, said when the run begins.
    private var refusals: [String] = []
    /// The premature-exit file this run made (its device and inode): the end removes that file
    /// and nothing else, not one that was there before or was put there since.
    private var madePrematureExit: (device: UInt64, inode: UInt64)?

    /// Fills what the command line did not give: the shard (`--shard` wins), the JUnit file
    /// (`--junit`) and the artifacts folder (`--artifacts`). Bazel's JUnit file is written only
    /// where nothing is yet, its folders only where a folder is or nothing: anything else there
    /// (a file, a link, a FIFO, a device) is left as it is, with a message when the run begins.
    mutating func apply(to options: inout Options) {
        if options.shard == nil, let totalShards, let shardIndex {
            options.shard = (shardIndex + 1, totalShards)
        }
        if options.junit == nil, let xmlOutputFile {
            if let kind = Self.existing(xmlOutputFile) {
                refusals.append(
                    "XML_OUTPUT_FILE names \(xmlOutputFile), which is \(kind) already there: no JUnit is written, "
                        + "and it is left as it is")
            } else {
                options.junit = xmlOutputFile
            }
        }
        if options.artifactsDirectory == nil, let undeclaredOutputsDirectory {
            options.artifactsDirectory = usableFolder(
                undeclaredOutputsDirectory, "TEST_UNDECLARED_OUTPUTS_DIR", unused: "no artifacts are written")
        }
        if let temporaryDirectory {
            self.temporaryDirectory = usableFolder(
                temporaryDirectory, "TEST_TMPDIR", unused: "TMPDIR is not set")
        }
    }

    /// `path` when it is a folder (or nothing is there yet); else nil, and the refusal noted.
    private mutating func usableFolder(_ path: String, _ variable: String, unused: String) -> String? {
        guard let kind = Self.notFolder(path) else { return path }
        refusals.append(
            "\(variable) names \(path), which is \(kind), not a folder: \(unused), and it is left as it is")
        return nil
    }

    /// What happens before the run: the shard status file is made unless a regular file is there,
    /// the premature-exit file made when nothing is there, and temporary files go under
    /// `TEST_TMPDIR`. Nothing that was there is truncated, opened for long or followed.
    mutating func begin() {
        for refusal in refusals { Output.err("stackplay: \(refusal)") }
        if let shardStatusFile {
            switch Self.existing(shardStatusFile) {
            case nil: _ = Self.create(shardStatusFile, variable: "TEST_SHARD_STATUS_FILE")
            case "a regular file": break  // it says what Bazel asks already: left untouched
            case let kind?:
                Output.err(
                    "stackplay: TEST_SHARD_STATUS_FILE names \(shardStatusFile), which is \(kind), "
                        + "not a regular file: it is left as it is")
            }
        }
        if let prematureExitFile {
            if let kind = Self.existing(prematureExitFile) {
                Output.err(
                    "stackplay: TEST_PREMATURE_EXIT_FILE names \(prematureExitFile), which is \(kind) already "
                        + "there: it is left as it is, and not removed at the end")
            } else {
                madePrematureExit = Self.create(prematureExitFile, variable: "TEST_PREMATURE_EXIT_FILE")
            }
        }
        if let temporaryDirectory { setenv("TMPDIR", temporaryDirectory, 1) }
    }

    /// A run that ended with its verdict (not interrupted) removes the premature-exit file it
    /// made, when that very file (same device and inode, still a regular file) is still there.
    func end(exitCode: Int32) {
        guard let prematureExitFile, let madePrematureExit,
            exitCode == ExitCode.success || exitCode == ExitCode.failure
        else { return }
        var info = stat()
        guard lstat(prematureExitFile, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            UInt64(info.st_dev) == madePrematureExit.device, UInt64(info.st_ino) == madePrematureExit.inode
        else { return }
        unlink(prematureExitFile)
    }

    /// What is at `path` ("a regular file", "a FIFO", "a link", ...), not following a link; nil
    /// when nothing is.
    private static func existing(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : "unreachable" }
        return TraceFile.notRegular(info.st_mode) ?? "a regular file"
    }

    /// Why `path` cannot be a folder to write in ("a FIFO"), or nil when it is one (a link to a
    /// folder counts) or nothing is there yet.
    private static func notFolder(_ path: String) -> String? {
        var info = stat()
        if lstat(path, &info) != 0 { return errno == ENOENT ? nil : "unreachable" }
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return nil }
        return (info.st_mode & S_IFMT) == S_IFLNK
            ? "a broken link" : TraceFile.notRegular(info.st_mode) ?? "a file"
    }

    /// Makes an empty `path` where nothing was (`O_EXCL`: never a file that is there, never
    /// through a link, never blocking), returning its device and inode.
    private static func create(_ path: String, variable: String) -> (device: UInt64, inode: UInt64)? {
        let descriptor = open(
            path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            Output.err("stackplay: cannot create \(path) (\(variable)): \(String(cString: strerror(errno)))")
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
