import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Issue 23 (hostile inputs, round two), through the built binary.

/// Runs `stackplay arguments` in `folder` with `environment` added, stopped after `timeout`
/// seconds (a run that blocks ends by SIGTERM, status 15, and fails its test).
private func run(
    _ arguments: [String], in folder: URL, environment: [String: String] = [:], timeout: Double = 60
) throws -> Run {
    var merged = ProcessInfo.processInfo.environment.filter { $0.key != "CI" }.merging(environment) { $1 }
    merged["CI"] = nil
    return try Spawned.start(stackplayBinary().path, arguments, in: folder.path, environment: merged)
        .finish(timeout: timeout)
}

/// Runs `script` as `x.lua` (plus `files`) in a fresh folder with `arguments` before the path.
private func runScript(
    _ script: String, files: [String: String] = [:], arguments: [String] = [], environment: [String: String] = [:],
    timeout: Double = 60
) throws -> Run {
    let folder = try temporaryFolder(files.merging(["x.lua": script]) { $1 })
    defer { try? FileManager.default.removeItem(at: folder) }
    return try run(arguments + ["x.lua"], in: folder, environment: environment, timeout: timeout)
}

/// What `lstat` says of a path, and a regular file's bytes: equal before and after means untouched.
private struct Shape: Equatable, CustomStringConvertible {
    var mode: UInt32
    var inode: UInt64
    var device: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int
    var bytes: [UInt8]?
    var link: String?

    init(_ path: String) {
        var info = stat()
        if lstat(path, &info) != 0 {
            (mode, inode, device, size, modified, modifiedNanoseconds) = (0, 0, 0, -1, 0, 0)
            return
        }
        mode = UInt32(info.st_mode)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_rdev)
        size = Int64(info.st_size)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        if (info.st_mode & S_IFMT) == S_IFREG { bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
        if (info.st_mode & S_IFMT) == S_IFLNK { link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) }
    }

    var description: String { "mode \(String(mode, radix: 8)) inode \(inode) size \(size) link \(link ?? "-")" }
}

@Suite struct BazelFilesTests {
    static let variables = [
        "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE", "TEST_PREMATURE_EXIT_FILE", "TEST_TMPDIR",
        "TEST_UNDECLARED_OUTPUTS_DIR",
    ]

    /// Makes `kind` ("file", "link", "device", "fifo") at `path`; a link leads to a regular file
    /// beside it, whose shape the test checks too.
    static func make(_ kind: String, at path: String) throws {
        switch kind {
        case "file":
            try Data("kept \(path)\n".utf8).write(to: URL(fileURLWithPath: path))
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        case "link":
            try make("file", at: path + ".target")
            #expect(symlink(path + ".target", path) == 0)
        case "device":
            // A copy of /dev/null when root may make one (removing it would show), else /dev/null.
            if mknod(path, S_IFCHR | 0o666, (1 << 8) | 3) != 0 {
                #expect(symlink("/dev/null", path) == 0)
            }
        default:
            #expect(mkfifo(path, 0o644) == 0)
        }
    }

    @Test(arguments: ["file", "link", "device", "fifo"])
    func `every Bazel variable naming something already there leaves it as it was, and the run does not block`(
        kind: String
    ) throws {
        let folder = try temporaryFolder(["x.lua": "test('passes', function() end)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment: [String: String] = [:]
        var paths: [String] = []
        for variable in Self.variables {
            let path = folder.appendingPathComponent(variable).path
            try Self.make(kind, at: path)
            environment[variable] = path
            paths.append(path)
            if kind == "link" { paths.append(path + ".target") }
        }
        let before = paths.map(Shape.init)
        let started = Date()
        let result = try run(["x.lua"], in: folder, environment: environment, timeout: 30)
        #expect(Date().timeIntervalSince(started) < 25, "the run blocked")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
        let after = paths.map(Shape.init)
        for (path, (old, new)) in zip(paths, zip(before, after)) {
            #expect(old == new, "\(path) changed: \(old) → \(new)")
        }
        for variable in ["XML_OUTPUT_FILE", "TEST_PREMATURE_EXIT_FILE", "TEST_UNDECLARED_OUTPUTS_DIR"] {
            #expect(result.stderr.contains("stackplay: \(variable) names "), "\(variable): \(result.stderr)")
        }
        if kind != "file" { #expect(result.stderr.contains("stackplay: TEST_SHARD_STATUS_FILE names ")) }
        #expect(result.stderr.contains("left as it is"))
    }
}
