import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Issue 24, item 6: `--config FILE` names the config to read instead of ./.stackplay.lua.

private let passing = "test('t', function() end)\n"

@Test("--config FILE is read instead of ./.stackplay.lua, its require from its folder, and flags win over it")
func configFlagNamesTheFile() throws {
    let folder = try temporaryFolder([
        "x.lua": passing, ".stackplay.lua": "return { reporter = 'tap' }",
        "ci/stackplay.lua": "return { reporter = require('reporter'), seed = 5 }",
        "ci/reporter.lua": "return 'json'",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = try stackplay(arguments: ["x.lua"], in: folder)
    #expect(plain.stdout.hasPrefix("TAP version 13\n"))
    let named = try stackplay(arguments: ["--config", "ci/stackplay.lua", "x.lua"], in: folder)
    #expect(named.status == 0, "\(named.stderr)")
    #expect(named.stdout.hasPrefix("{"))
    #expect(named.stdout.contains("\"seed\":5") || named.stdout.contains("\"seed\": 5"), "\(named.stdout)")
    let flagged = try stackplay(arguments: ["--config=ci/stackplay.lua", "--tap", "x.lua"], in: folder)
    #expect(flagged.stdout.hasPrefix("TAP version 13\n"))
    let check = try stackplay(arguments: ["check", "--config", "ci/stackplay.lua", "x.lua"], in: folder)
    #expect(check.status == 0, "\(check.stderr)")
}

@Test(
    "--config naming what cannot be read is a usage error that says why, without blocking",
    arguments: [
        (
            ["--config", "missing.lua", "x.lua"],
            "--config: cannot read missing.lua: No such file or directory"
        ),
        (["--config", "sub", "x.lua"], "--config: cannot read sub: it is a folder, not a file"),
        (["--config", "fifo", "x.lua"], "--config: cannot read fifo: it is not a regular file"),
        (
            ["explore", "--config", "missing.lua", "x.lua"],
            "--config: cannot read missing.lua: No such file or directory"
        ),
        (
            ["--config", "sub/bad.lua", "x.lua"],
            "sub/bad.lua: 'jobs' must be a whole number from 1 to 1024, got 0"
        ),
        (
            ["replay", "--config", "sub/bad.lua", "t.jsonl"],
            "'--config' goes with running scripts and 'stackplay check' and 'stackplay explore' and 'stackplay mutate', not with 'stackplay replay' (did you mean 'stackplay --config ... FILE|DIR'?)"
        ),
        (["--config"], "--config needs a value"),
    ])
func configFlagRefusesWhatItCannotRead(arguments: [String], message: String) throws {
    let folder = try temporaryFolder(["x.lua": passing, "sub/bad.lua": "return { jobs = 0 }"])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(mkfifo(folder.appendingPathComponent("fifo").path, 0o600) == 0)
    let run = try stackplay(arguments: arguments, in: folder)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == "stackplay: \(message)\nSee 'stackplay --help'.\n")
}
