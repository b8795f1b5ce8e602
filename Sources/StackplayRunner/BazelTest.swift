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

    /// Fills what the command line did not give: the shard (`--shard` wins), the JUnit file
    /// (`--junit`) and the artifacts folder (`--artifacts`).
    func apply(to options: inout Options) {
        if options.shard == nil, let totalShards, let shardIndex {
            options.shard = (shardIndex + 1, totalShards)
        }
        if options.junit == nil { options.junit = xmlOutputFile }
        if options.artifactsDirectory == nil { options.artifactsDirectory = undeclaredOutputsDirectory }
    }

    /// What happens before the run: the shard status file is touched, the premature-exit file
    /// made, and temporary files go under `TEST_TMPDIR`.
    func begin() {
        if let shardStatusFile { Self.touch(shardStatusFile) }
        if let prematureExitFile { Self.touch(prematureExitFile) }
        if let temporaryDirectory { setenv("TMPDIR", temporaryDirectory, 1) }
    }

    /// A run that ended with its verdict (not interrupted) removes the premature-exit file.
    func end(exitCode: Int32) {
        guard let prematureExitFile, exitCode == ExitCode.success || exitCode == ExitCode.failure else {
            return
        }
        unlink(prematureExitFile)
    }

    private static func touch(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            close(descriptor)
        } else {
            Output.err("stackplay: cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}
