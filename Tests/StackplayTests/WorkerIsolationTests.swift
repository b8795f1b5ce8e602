import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A test that hangs, crashes or is interrupted is reported for itself, and the run goes on or reports what finished.
@Suite struct WorkerIsolationTests {

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
        #expect(
            run.stderr.contains("h.lua:2: timed out after 1 s (--timeout); the process running it was killed")
        )
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

    @Test func `a result is reported while the tests after it still run`() throws {
        let folder = try temporaryFolder([
            "s.lua": """
            test("quick", function() end)
            test("hangs", function() \(Self.hang) end)
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.lua").path
        let process = try startStackplay(["--jobs", "1", "--timeout", "30", path])
        _ = try #require(waitForBusyChild(of: process.pid))
        // the run holds no result back: "quick" is on stdout while "hangs" spins
        let early = process.readOut(until: "ok   quick", timeout: 10)
        kill(process.pid, SIGINT)
        let run = process.finish()
        #expect(early == "\(path)\n  ok   quick\n")
        #expect(run.status == 130)
        #expect(run.stdout == "1 passed, 0 failed\n")
        #expect(run.stderr.contains("interrupted by SIGINT: 1 of 2 tests finished"))
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
        // a stale report of an earlier run (a file stackplay did not write is never overwritten)
        try
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"stackplay\" tests=\"9\">\n</testsuites>\n"
            .write(to: junit, atomically: true, encoding: .utf8)
        let process = try startStackplay([
            "--jobs", "1", "--junit", junit.path, folder.appendingPathComponent("i.lua").path,
        ])
        _ = try #require(waitForBusyChild(of: process.pid))
        kill(process.pid, signal)
        let run = process.finish()
        #expect(run.status == status)
        #expect(run.stdout.contains("ok   quick"))
        #expect(run.stdout.contains("1 passed, 0 failed"))
        #expect(
            run.stderr.contains(
                "interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"): 1 of 2 tests finished"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        _ = try XMLDocument(xmlString: xml)
        #expect(xml.contains("name=\"quick\""))
    }
}
