import Foundation
import Testing

/// `.stackplay.lua` is found from the scripts' folders upward to a repository's root (a folder
/// holding `.git`) or the filesystem's, the nearest winning; `--config FILE` names one; a run
/// whose scripts have different nearest configs is a usage error (a config's settings are the
/// run's).
@Suite struct NearestConfigTests {
    static let printsWidth = "test('w', function() print(stackplay.screen {}:settings().width) end)\n"

    func config(width: Int) -> String { "return { screen = { width = \(width) } }\n" }

    /// The width the test printed, from the human report's output line.
    func printedWidth(_ run: Run) -> String? {
        run.stdout.split(separator: "\n").first { $0.hasPrefix("      | ") }.map { String($0.dropFirst(8)) }
    }

    @Test func `a config in a parent of the script's folder applies, wherever the run starts`() throws {
        let folder = try temporaryFolder([
            "repo/.stackplay.lua": config(width: 320), "repo/tests/deep/x.lua": Self.printsWidth,
            "elsewhere/.keep": "",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("repo/.git"), withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("repo/tests/deep/x.lua").path
        let run = try stackplay(arguments: [script], in: folder.appendingPathComponent("elsewhere"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(printedWidth(run) == "320.0", "\(run.stdout)")
        // A folder argument starts from itself.
        let byFolder = try stackplay(arguments: ["repo/tests"], in: folder)
        #expect(printedWidth(byFolder) == "320.0", "\(byFolder.stdout) \(byFolder.stderr)")
    }

    @Test func `the search stops at a repository's root and the nearest config wins`() throws {
        let folder = try temporaryFolder([
            ".stackplay.lua": config(width: 111),
            "repo/x.lua": Self.printsWidth,
            "repo/sub/.stackplay.lua": config(width: 500), "repo/sub/y.lua": Self.printsWidth,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        // A worktree's .git is a file: it marks the root too.
        try "gitdir: elsewhere\n".write(
            to: folder.appendingPathComponent("repo/.git"), atomically: true, encoding: .utf8)
        let outside = try stackplay(arguments: ["x.lua"], in: folder.appendingPathComponent("repo"))
        #expect(outside.status == 0, "\(outside.stderr)")
        #expect(printedWidth(outside) == "390.0", "the config above the repository is not read")
        let nearest = try stackplay(arguments: ["repo/sub/y.lua"], in: folder)
        #expect(printedWidth(nearest) == "500.0", "\(nearest.stdout)")
    }

    @Test
    func `scripts with different nearest configs are a usage error naming both, unless --config names one`()
        throws
    {
        let folder = try temporaryFolder([
            "a/.stackplay.lua": config(width: 320), "a/x.lua": Self.printsWidth,
            "b/.stackplay.lua": config(width: 500), "b/y.lua": Self.printsWidth,
            "c/z.lua": Self.printsWidth,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let two = try stackplay(arguments: ["a/x.lua", "b/y.lua"], in: folder)
        #expect(two.status == 64)
        #expect(two.stdout.isEmpty)
        let a = folder.appendingPathComponent("a/.stackplay.lua").resolvingSymlinksInPath().path
        let b = folder.appendingPathComponent("b/.stackplay.lua").resolvingSymlinksInPath().path
        #expect(
            two.stderr.hasPrefix(
                "stackplay: a/x.lua reads \(a) but b/y.lua reads \(b): a run reads one .stackplay.lua "
                    + "(its settings are the run's); run them apart, or name one with --config FILE\n"),
            "\(two.stderr)")
        // A folder argument whose scripts include one under a nearer config of its own.
        let nested = try stackplay(arguments: ["."], in: folder)
        #expect(nested.status == 64)
        #expect(nested.stderr.hasPrefix("stackplay: . reads no config but "), "\(nested.stderr)")
        #expect(nested.stderr.contains("a/x.lua reads \(a): a run reads one .stackplay.lua"))
        // --config names the one config of the run.
        let named = try stackplay(
            arguments: ["--config", "b/.stackplay.lua", "a/x.lua", "c/z.lua"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.components(separatedBy: "      | 500.0").count == 3, "\(named.stdout)")
    }
}
