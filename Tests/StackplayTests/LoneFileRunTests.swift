import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A lone whole script loads in the runner's own process (no worker is forked for it), and says
/// exactly what it says loaded in a worker (`STACKPLAY_LOAD_IN_WORKER=1`): stdout, stderr and the
/// exit status, a stop inside C code and a crash included (the run then starts over in a worker).
@Suite struct LoneFileRunTests {
    static let inWorker = ["STACKPLAY_LOAD_IN_WORKER": "1"]

    @Test(arguments: [
        ("local screen = stackplay.screen {}\nprint('hello', 1.5)\n", [String]()),
        ("error('boom')\n", []),
        ("local x = = 1\n", []),
        ("-- nothing but a comment\n", []),
        ("local t = {} for i = 1, 1e7 do t[i] = string.rep('x', 100) .. i end\n", ["--memory-budget", "16"]),
        ("local n = 0 while true do n = n + 1 end\n", ["--cpu-budget", "0.2"]),
        ("local s = string.rep('a', 30000) s:find('.-.-.-.-.-.-b')\n", ["--cpu-budget", "0.3"]),
        (
            "local screen = stackplay.screen { layout_direction = 'rtl' }\n"
                + "local stack = screen:notification_stack { items = { 'a', 'b' } }\n"
                + "stack:tap() screen:settle() print(stack:count())\n", ["--mirror", "--format", "json"]
        ),
    ])
    func `a lone whole script reports the same bytes as loaded in a worker`(
        script: String, arguments: [String]
    )
        throws
    {
        let here = try runScript(script, arguments)
        let worker = try runScript(script, arguments, environment: Self.inWorker)
        #expect(here.status == worker.status)
        #expect(here.stdout == worker.stdout)
        #expect(here.stderr == worker.stderr)
        #expect(here.status != 0 || script.hasPrefix("local screen"), "\(here.stdout)\(here.stderr)")
    }

    @Test func `SIGINT stops a lone whole script at once and the run says it was interrupted`() throws {
        var runs: [Run] = []
        for environment in [[:], Self.inWorker] {
            let folder = try temporaryFolder(["x.lua": "local n = 0 for i = 1, 1e12 do n = n + i end\n"])
            defer { try? FileManager.default.removeItem(at: folder) }
            let started = Date()
            let process = try startStackplay(
                ["--cpu-budget", "60", "--timeout", "120", folder.appendingPathComponent("x.lua").path],
                environment: environment)
            _ = Self.waitUntilBusy(process.pid, busy: 0.3)
            kill(process.pid, SIGINT)
            let run = process.finish()
            #expect(Date().timeIntervalSince(started) < 20, "it ran on after SIGINT")
            #expect(run.status == 130, "\(run.stdout)\(run.stderr)")
            runs.append(run)
        }
        #expect(runs[0].stdout == runs[1].stdout)
        #expect(runs[0].stderr == runs[1].stderr)
    }

    /// Waits (up to 8 s) until `pid` or a child of it has used `busy` s of CPU time: the most
    /// any child has used, and what `pid` itself has.
    private static func waitUntilBusy(_ pid: Int32, busy: Double) -> (child: Double, own: Double) {
        var seen = (child: 0.0, own: 0.0)
        for _ in 0..<400 where seen.child < busy && seen.own < busy {
            Thread.sleep(forTimeInterval: 0.02)
            seen = (childCPUSeconds(of: pid).map(\.seconds).max() ?? 0, processStat(pid)?.seconds ?? 0)
        }
        return seen
    }

    @Test func `a lone whole script runs in the runner's process, a file of tests in a worker`() throws {
        let spin = "local n = 0 for i = 1, 1e12 do n = n + i end"
        for (text, loadsHere) in [(spin + "\n", true), ("test('spins', function() \(spin) end)\n", false)] {
            let folder = try temporaryFolder(["x.lua": text])
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = try startStackplay([
                "--cpu-budget", "2", folder.appendingPathComponent("x.lua").path,
            ])
            // once the script has spun for a while: in the runner itself, or in a child of it
            let seen = Self.waitUntilBusy(process.pid, busy: 0.5)
            let run = process.finish()
            #expect(run.status == 1)
            #expect(run.stderr.contains("stopped: the script used its 2 s of CPU time"), "\(run.stderr)")
            if loadsHere {
                #expect(
                    seen.own >= 0.5 && seen.child < 0.1, "the runner \(seen.own) s, a child \(seen.child) s")
            } else {
                #expect(seen.child >= 0.5, "no child spun: \(seen)")
            }
        }
    }
}
