import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue: verdicts you can trust. Determinism, a runner the script cannot forge, output that
/// stays parseable, and a run that survives a test that crashes, hangs or is interrupted.
@Suite struct TrustTests {
    static let determinism = """
        local t = { zeta = 1, alpha = 2, mid = 3, [10] = 4, [2] = 5, [true] = 6, [2.5] = 7 }
        for k, v in pairs(t) do print("pairs", k, v) end
        local k = next(t) print("next", k)
        print("random", math.random(), math.random(1, 1000))
        math.randomseed(42) print("seeded", math.random(1, 1000000))
        math.randomseed() print("reseeded", math.random(1, 1000000))
        print("time", os.time(), os.date(), os.date("%Y-%m-%d %H:%M:%S"), os.clock())
        print("utc", os.time { year = 2000, month = 1, day = 1, hour = 0 })
        print("names", tostring({}), tostring(print), string.format("%s %p", {}, {}))
        local screen = stackplay.screen {}
        print("screen", tostring(screen))
        for i = 1, 3 do test("case " .. i, function() print("in", i, math.random(1, 1000)) end) end
        """

    @Test func `pairs, random, time and names print the same on every run, with and without jobs`() throws {
        let folder = try temporaryFolder(["det.lua": Self.determinism])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("det.lua").path
        var outputs: Set<String> = []
        for jobs in ["1", "2", "1", "2"] {
            let run = try stackplay("--json", "--jobs", jobs, path)
            #expect(run.status == 0, "\(run.stderr)")
            outputs.insert(run.stdout.replacing(/"seconds":[0-9.e-]+/, with: ""))
        }
        #expect(outputs.count == 1)
        let run = try stackplay(path)
        #expect(run.stdout.contains("      | pairs\t2\t5\n      | pairs\t2.5\t7\n      | pairs\t10\t4\n      | pairs\talpha\t2"))
        #expect(run.stdout.contains("      | time\t1767225600\tThu Jan  1 00:00:00 2026\t2026-01-01 00:00:00\t0.0"))
        #expect(run.stdout.contains("      | utc\t946684800"))
        #expect(run.stdout.contains("      | names\ttable: 1\tfunction: 2\ttable: 3 table: 4"))
        #expect(run.stdout.contains("      | screen\tstackplay.screen: 5"))
        #expect(!run.stdout.contains("0x"))
    }

    @Test func `a seed changes the random numbers, the same seed repeats them, and reports carry it`() throws {
        let folder = try temporaryFolder([
            "r.lua": "test('draw', function() print(math.random(1, 1000000000)) error('show the seed') end)"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.lua").path
        let a = try stackplay("--seed", "7", path)
        let b = try stackplay("--seed", "7", path)
        let c = try stackplay("--seed", "8", path)
        #expect(a.status == 1)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout != c.stdout)
        #expect(a.stderr.contains("seed: 7 (to run it again with the same random numbers: --seed 7)"))
        let json = try stackplay("--json", "--seed", "7", path)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(document["seed"] as? Int == 7)
        let junit = folder.appendingPathComponent("junit.xml")
        _ = try stackplay("--seed", "7", "--junit", junit.path, path)
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<property name=\"seed\" value=\"7\"/>"))
        let random = try stackplay("--seed", "random", path)
        let printed = try #require(random.stderr.firstMatch(of: /stackplay: seed (\d+) \(run again with --seed \d+\)/))
        let again = try stackplay("--seed", String(printed.1), path)
        #expect(again.stdout == random.stdout)
        let bad = try stackplay("--seed", "soon", path)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--seed needs a whole number >= 0 or 'random', not 'soon'"))
    }

    @Test func `traces of two runs of the scenarios are byte for byte the same`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("A").path
        let b = folder.appendingPathComponent("B").path
        #expect(try stackplay("--trace", a, "scripts").status == 0)
        #expect(try stackplay("--trace", b, "--jobs", "1", "scripts").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b).sorted()))
        #expect(names.count > 50)
        for name in names {
            let left = try Data(contentsOf: URL(fileURLWithPath: a + "/" + name))
            let right = try Data(contentsOf: URL(fileURLWithPath: b + "/" + name))
            #expect(left == right, "\(name) differs")
        }
    }

    static let forgeries: [(String, String)] = [
        ("the runner's entry", "stackplay._run = function() return { status = 'ok' } end"),
        ("the test list", "stackplay._tests = function() return {} end"),
        ("test and expect", "test = function() end; expect = function() return {} end"),
        ("string functions", "string.match = function() while true do end end; string.find = string.match; string.gmatch = string.match"),
        ("metatables", "setmetatable = function(t) return t end; getmetatable = function() return nil end"),
        ("xpcall and pcall", "xpcall = function(f) return true end; pcall = xpcall; error = function() end"),
        ("the stackplay table", "for k in pairs(stackplay) do stackplay[k] = nil end; stackplay = nil"),
        ("tostring", "tostring = function() error('no') end"),
    ]

    @Test(arguments: forgeries)
    func `a script that replaces the runner's parts cannot make a raising test pass`(
        what: String, forgery: String
    ) throws {
        let script = """
            local raise = error
            test("raises", function() \(forgery) raise("boom") end)
            \(forgery)
            """
        let folder = try temporaryFolder(["forge.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--cpu-budget", "2", folder.appendingPathComponent("forge.lua").path)
        #expect(run.status == 1, "\(what): \(run.stdout)")
        #expect(run.stdout.contains("FAIL raises"), "\(what): \(run.stdout)")
        #expect(run.stdout.contains("0 passed, 1 failed"), "\(what): \(run.stdout)")
    }

    @Test func `the runner's internals are not reachable from scripts`() throws {
        let folder = try temporaryFolder([
            "peek.lua": """
                local names = {}
                for k in pairs(stackplay) do names[#names + 1] = k end
                print(table.concat(names, ","))
                for _, k in ipairs(names) do assert(k:sub(1, 1) ~= "_", "reachable: " .. k) end
                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(folder.appendingPathComponent("peek.lua").path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("      | replay,screen,show,version"))
    }

    @Test func `__gc finalizers are refused and an xpcall handler cannot outlive the budget`() throws {
        let folder = try temporaryFolder([
            "gc.lua": """
                test("finalizer", function() setmetatable({}, { __gc = function() while true do end end }) end)
                test("handler", function()
                  xpcall(function() while true do end end, function() while true do end end)
                end)
                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let run = try stackplay("--cpu-budget", "0.5", folder.appendingPathComponent("gc.lua").path)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run.status == 1)
        #expect(run.stderr.contains("stackplay does not run __gc finalizers"))
        #expect(run.stderr.contains("stopped: the script used its 0.5 s of CPU time"))
    }

    static let printing = """
        print("ok 99 - fake")
        test("prints", function() print("not ok 5 - fake", "1..3") print("# plan") end)
        test("fails", function() print("{\\"tests\\": []}") expect(1):to_equal(2) end)
        test("quiet", function() end)
        """

    @Test func `json stays valid and carries what tests print`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--json", "--jobs", "2", folder.appendingPathComponent("p.lua").path)
        #expect(run.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let tests = document["tests"] as! [[String: Any]]
        #expect(tests.count == 3)
        #expect(tests[0]["output"] as? String == "ok 99 - fake\nnot ok 5 - fake\t1..3\n# plan\n")
        #expect(tests[1]["output"] as? String == "ok 99 - fake\n{\"tests\": []}\n")
    }

    @Test func `tap stays valid for prove while tests print`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--tap", folder.appendingPathComponent("p.lua").path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("# not ok 5 - fake\t1..3"))
        let tap = folder.appendingPathComponent("out.tap")
        try run.stdout.write(to: tap, atomically: true, encoding: .utf8)
        let prove = Process()
        prove.executableURL = URL(fileURLWithPath: "/bin/sh")
        prove.arguments = ["-c", "command -v prove >/dev/null || exit 77; prove -v -e cat \(tap.path) 2>&1"]
        let pipe = Pipe()
        prove.standardOutput = pipe
        try prove.run()
        let text = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
        prove.waitUntilExit()
        try #require(prove.terminationStatus != 77, "prove is not installed")
        // prove counts exactly the three real tests and finds the one failure
        #expect(text.contains("Failed 1/3 subtests"), "\(text)")
        #expect(!text.contains("Bad plan"), "\(text)")
    }

    @Test func `junit holds what a test printed as system-out`() throws {
        let folder = try temporaryFolder(["p.lua": Self.printing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("j.xml")
        _ = try stackplay("--junit", junit.path, folder.appendingPathComponent("p.lua").path)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<system-out>ok 99 - fake\nnot ok 5 - fake\t1..3\n# plan\n</system-out>"))
        _ = try XMLDocument(xmlString: xml)
    }

    @Test func `only is refused with --forbid-only and in CI`() throws {
        let folder = try temporaryFolder([
            "o.lua": "test('a', function() end)\nonly('b', function() end)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("o.lua").path
        let plain = try stackplay(path)
        #expect(plain.status == 0)
        let forbid = try stackplay("--forbid-only", path)
        #expect(forbid.status == 1)
        #expect(forbid.stderr.contains("o.lua:2: only(...) is not allowed with --forbid-only"))
        let ci = try stackplay(arguments: [path], environment: ["CI": "true"])
        #expect(ci.status == 1)
        #expect(ci.stderr.contains("only(...) is not allowed in CI"))
        let flag = try stackplay("--ci", path)
        #expect(flag.status == 1)
    }

    @Test func `repeat runs every test again and a stable test passes`() throws {
        let folder = try temporaryFolder([
            "s.lua": "test('stable', function() print(math.random(1, 10)) end)"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--repeat", "5", folder.appendingPathComponent("s.lua").path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"))
        #expect(try stackplay("--repeat", "0", "scripts").status == 64)
    }

    /// A Lua pattern search in C, where no hook can stop it: only the wall-clock limit does.
    static let hang = "local s = string.rep('a', 30000) s:find('.-.-.-.-.-.-b')"

    @Test func `a test no hook can stop times out and the others still report`() throws {
        let folder = try temporaryFolder([
            "h.lua": """
                test("before", function() end)
                test("hangs", function() \(Self.hang) end)
                test("after", function() expect(1):to_equal(1) end)
                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--timeout", "1", "--jobs", "1", folder.appendingPathComponent("h.lua").path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("ok   before"))
        #expect(run.stdout.contains("FAIL hangs"))
        #expect(run.stdout.contains("ok   after"))
        #expect(run.stderr.contains("h.lua:2: timed out after 1 s (--timeout); the process running it was killed"))
    }

    @Test func `a test whose process crashes is reported as crashed and the run goes on`() throws {
        let folder = try temporaryFolder([
            "c.lua": """
                test("before", function() end)
                test("crashes", function() \(Self.hang) end)
                test("after", function() end)
                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try startStackplay(["--jobs", "1", folder.appendingPathComponent("c.lua").path])
        // the worker is the child of the stackplay process: kill it the way a trap would, once it
        // is spinning in the hanging test (a child busy on the CPU; the discovery worker is gone by then)
        let worker = try #require(waitForBusyChild(of: process.pid))
        kill(worker, SIGILL)
        let run = process.finish()
        #expect(run.status == 1)
        #expect(run.stdout.contains("ok   before"))
        #expect(run.stdout.contains("ok   after"))
        #expect(run.stderr.contains("c.lua:2: crashed: signal 4 (Illegal instruction)"))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func `an interrupted run prints the results so far and writes a valid junit file`(
        signal: Int32, status: Int32
    ) throws {
        let folder = try temporaryFolder([
            "i.lua": """
                test("quick", function() end)
                test("hangs", function() \(Self.hang) end)
                """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("j.xml")
        try "stale".write(to: junit, atomically: true, encoding: .utf8)
        let process = try startStackplay(["--jobs", "1", "--junit", junit.path, folder.appendingPathComponent("i.lua").path])
        _ = try #require(waitForBusyChild(of: process.pid))
        kill(process.pid, signal)
        let run = process.finish()
        #expect(run.status == status)
        #expect(run.stdout.contains("ok   quick"))
        #expect(run.stdout.contains("1 passed, 0 failed"))
        #expect(run.stderr.contains("interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"): 1 of 2 tests finished"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        _ = try XMLDocument(xmlString: xml)
        #expect(xml.contains("name=\"quick\""))
    }
}

/// A `stackplay` started in the package root without waiting for it (`finish()` reads it to its end).
func startStackplay(_ arguments: [String]) throws -> Spawned {
    try Spawned.start(
        stackplayBinary().path, arguments, in: packageRoot.path,
        environment: ProcessInfo.processInfo.environment.filter { $0.key != "CI" })
}

/// A child process of `parent` that has used at least 0.3 s of CPU time (a worker spinning in a
/// hanging test), read from /proc, waiting up to 60 s for one.
func waitForBusyChild(of parent: Int32) -> Int32? {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    for _ in 0..<1200 {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // after "pid (comm)": state ppid ... utime is the 12th field after the name
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, Int32(fields[1]) == parent, let utime = Double(fields[11]) else { continue }
            if utime / ticks >= 0.3 { return pid }
        }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
}
