import Foundation
import Testing

/// End-to-end: every path a script names stays inside the scripts' folder, never blocks, never
/// echoes a foreign file; every write failure exits 1.
@Suite struct ConfinedFilesTests {
    /// A script that replays `path` inside `pcall` and prints the error, so each case is one line.
    static func replaying(_ paths: [String]) -> String {
        paths.enumerated().map { index, path in
            """
            test("replay \(index)", function()
              stackplay.replay(\(luaString(path)))
            end)
            """
        }.joined(separator: "\n")
    }

    static func luaString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    @Test(
        "stackplay.replay refuses absolute paths, '..', links out, FIFOs and devices, naming the path at the script's line"
    )
    func replayRefusals() throws {
        let outside = try temporaryFolder(["secret.jsonl": "{\"format\":\"top secret line\"}\n"])
        defer { try? FileManager.default.removeItem(at: outside) }
        let cases: [(path: String, message: String)] = [
            ("/etc/passwd", "bad argument #1 to 'replay' ('/etc/passwd' is an absolute path"),
            ("../x.jsonl", "bad argument #1 to 'replay' ('../x.jsonl' leads outside the scripts' folder"),
            ("sub/../../x.jsonl", "('sub/../../x.jsonl' leads outside the scripts' folder"),
            (
                "out/secret.jsonl",
                "replay: 'out/secret.jsonl' leads outside the scripts' folder (.) through a link"
            ),
            ("fifo.jsonl", "replay: cannot read fifo.jsonl: it is a FIFO, not a regular file"),
            ("zero.jsonl", "replay: 'zero.jsonl' leads outside the scripts' folder (.) through a link"),
            ("missing.jsonl", "replay: no file 'missing.jsonl'"),
        ]
        let folder = try temporaryFolder(["s.lua": Self.replaying(cases.map(\.path))])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("fifo.jsonl").path, 0o644) == 0)
        #expect(symlink("/dev/zero", folder.appendingPathComponent("zero.jsonl").path) == 0)
        #expect(symlink(outside.path, folder.appendingPathComponent("out").path) == 0)

        let run = try stackplay(arguments: ["s.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("0 passed, \(cases.count) failed\n"))
        for (index, (_, message)) in cases.enumerated() {
            #expect(run.stderr.contains("s.lua:\(index * 3 + 2): "), "case \(index)")
            #expect(run.stderr.contains(message), "\(message)")
        }
        #expect(!run.stderr.contains("top secret"))
        #expect(!run.stderr.contains("root:"))
    }

    @Test("a trace over 64 MiB is refused without reading it")
    func oversizedTrace() throws {
        let folder = try temporaryFolder(["s.lua": Self.replaying(["big.jsonl"])])
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.jsonl").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 65 << 20) == 0)  // sparse: no disk used
        let run = try stackplay(arguments: ["s.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("s.lua:2: replay: cannot read big.jsonl: it is larger than 64 MiB"))
    }

    @Test("to_match_trace cannot write outside the scripts' folder, through '..', an absolute path or a link")
    func goldenWritesStayInside() throws {
        let outside = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: outside) }
        let names = ["../escaped.jsonl", "\(outside.path)/abs.jsonl", "out/linked.jsonl", "out"]
        let script = names.enumerated().map { index, name in
            """
            test("golden \(index)", function()
              local screen = stackplay.screen { record = true }
              screen:notification_stack { items = { "rm -rf /" } }
              expect(screen):to_match_trace(\(Self.luaString(name)))
            end)
            """
        }.joined(separator: "\n")
        let folder = try temporaryFolder(["scripts/s.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(symlink(outside.path, folder.appendingPathComponent("scripts/out").path) == 0)

        let run = try stackplay(arguments: ["scripts"], in: folder, removing: ["CI"])
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("0 passed, 4 failed\n"))
        #expect(
            run.stderr.contains(
                "scripts/s.lua:4: to_match_trace: cannot use the golden trace: '../escaped.jsonl' leads outside the scripts' folder (scripts)"
            ))
        #expect(
            run.stderr.contains("is an absolute path: name a file relative to the scripts' folder (scripts)"))
        #expect(
            run.stderr.contains(
                "'scripts/out/linked.jsonl' leads outside the scripts' folder (scripts) through a link"))
        #expect(
            run.stderr.contains(
                "cannot use the golden trace: 'scripts/out' leads outside the scripts' folder (scripts) through a link"
            ))
        #expect(!run.stderr.contains("wrote"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.jsonl").path))
    }

    @Test(
        "a relative golden path resolves against the scripts' folder, not the working folder; folders are made"
    )
    func relativeToTheRoot() throws {
        let folder = try temporaryFolder(["scripts/s.lua": GoldenTests.scene("golden/deep/t.jsonl")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["scripts"], in: folder, removing: ["CI"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "stackplay: wrote the golden trace scripts/golden/deep/t.jsonl\n")
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("scripts/golden/deep").path) == ["t.jsonl"])
        // The same with --root from a file argument.
        let again = try stackplay(arguments: ["--root", "scripts", "scripts/s.lua"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "")
    }

    @Test("writing the JUnit report or a rendered frame to a full device exits 1 naming it")
    func writeFailuresExit1() throws {
        let folder = try temporaryFolder([
            "s.lua": "test('t', function() local s = stackplay.screen { record = true } s:advance(0.1) end)"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = try stackplay(arguments: ["--junit", "/dev/full", "s.lua"], in: folder)
        #expect(junit.status == 1)
        #expect(junit.stderr == "stackplay: cannot write /dev/full: No space left on device\n")

        #expect(try stackplay(arguments: ["--trace", "traces", "s.lua"], in: folder).status == 0)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("traces").path)
                .first)
        let render = try stackplay(arguments: ["render", "traces/\(trace)", "-o", "/dev/full"], in: folder)
        #expect(render.status == 1)
        #expect(render.stderr == "stackplay: cannot write /dev/full: No space left on device\n")
        #expect(!render.stderr.contains("wrote"))

        // A folder where the JUnit file should go: refused before the run, a usage error (issue 40).
        let folderTarget = try stackplay(arguments: ["--junit", "traces", "s.lua"], in: folder)
        #expect(folderTarget.status == 64)
        #expect(folderTarget.stderr.contains("--junit traces would overwrite a folder"))
    }

    @Test("stackplay replay and render refuse a FIFO or a device at once")
    func commandLineTracesDoNotBlock() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("fifo.jsonl").path, 0o644) == 0)
        let replay = try stackplay(arguments: ["replay", "fifo.jsonl", "/dev/zero"], in: folder)
        #expect(replay.status == 1)
        #expect(
            replay.stderr.contains("stackplay: cannot read fifo.jsonl: it is a FIFO, not a regular file\n"))
        #expect(
            replay.stderr.contains("stackplay: cannot read /dev/zero: it is a device, not a regular file\n"))
        let render = try stackplay(arguments: ["render", "fifo.jsonl"], in: folder)
        #expect(render.status == 1)
    }
}
