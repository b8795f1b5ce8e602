import Foundation
import Testing

/// Every test of a file starts from the snapshot of the file's state (issue 21): whatever a test
/// did, the next one sees the state exactly as the first one did, byte for byte of output and
/// trace, and as it would run alone.
@Suite struct SnapshotIsolationTests {
    /// What a test can see of its world: object numbering, random numbers, globals, the libraries,
    /// the string metatable, and a recorded screen's trace.
    static let probe = """
        local function probe()
          print(tostring({}), tostring(function() end), tostring(coroutine.create(function() end)))
          print(math.random(1, 1000000), math.random(), os.time())
          print(tostring(dirty), type(string.rep), type(table.concat), type(math.floor), ("ab"):upper())
          print(type(print), type(stackplay.screen), type(stackplay.replay), #(string.rep("x", 3)))
          local screen = stackplay.screen { record = true }
          local stack = screen:notification_stack { items = { "a", "b", "c" } }
          stack:tap()
          screen:settle()
          print(stack:expanded(), tostring(screen), tostring(stack))
        end

        """

    /// Tests that each leave something behind, between two probes.
    static let dirtying = """
        test("probe first", probe)
        test("sets globals and replaces print", function()
          dirty = "yes"
          print = function() end
          _G.tostring = function() return "?" end
        end)
        test("changes the libraries and the string metatable", function()
          string.rep, table.concat, math.floor = nil, nil, nil
          pcall(function() getmetatable("").__index = {} end)
          local meta = getmetatable("")
          if type(meta) == "table" then pcall(function() meta.__index.upper = nil end) end
          math.randomseed(7)
        end)
        test("fills the object numbering and makes screens", function()
          for i = 1, 3000 do tostring({}) end
          for i = 1, 50 do stackplay.screen {}:notification_stack { items = { "x" } } end
        end)
        test("drops stackplay's functions and collects", function()
          stackplay.screen, stackplay.replay = nil, nil
          local t = {}
          for i = 1, 100000 do t[i] = { i } end
          t = nil
          collectgarbage()
          collectgarbage()
        end)
        test("raises", function() dirty = "raised"; error("boom") end)
        test("runs out of CPU", function() dirty = "cpu"; while true do end end)
        test("runs out of memory", function()
          dirty = "memory"
          local s = "x"
          while true do s = s .. s end
        end)
        test("probe last", probe)

        """

    static func report(_ run: Run) throws -> [String: [String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        var byName: [String: [String: Any]] = [:]
        for test in document["tests"] as! [[String: Any]] { byName[test["name"] as! String] = test }
        return byName
    }

    /// Runs `file` in `folder` (all of it, or the tests `filter` selects) with traces into `traces`.
    static func run(
        _ folder: URL, _ file: String, filter: String? = nil, traces: String,
        environment: [String: String] = [:]
    ) throws -> Run {
        var arguments = [
            "--json", "--jobs", "1", "--cpu-budget", "0.5", "--memory-budget", "32", "--trace",
            folder.appendingPathComponent(traces).path,
        ]
        if let filter { arguments += ["--filter", filter] }
        return try stackplay(
            arguments: arguments + [folder.appendingPathComponent(file).path], environment: environment)
    }

    static func trace(_ folder: URL, _ traces: String, named part: String) throws -> String {
        let directory = folder.appendingPathComponent(traces)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(part)
        }
        #expect(names.count == 1, "one trace for \(part) in \(names)")
        guard let name = names.first else { return "" }
        return try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// A top level that leaves a large state (restored page by page, not copied whole).
    static let ballast = "ballast = {} for i = 1, 300000 do ballast[i] = i end\n"

    /// Small state; large state (dirty pages found by a userfaultfd); large state, dirty pages
    /// found by write faults (where the kernel or the container refuses userfaultfd).
    static let states: [(String, [String: String])] = [
        ("", [:]), (ballast, [:]), (ballast, ["STACKPLAY_NO_USERFAULTFD": "1"]),
    ]

    @Test(arguments: 0..<3)
    func `a test after tests that dirty the state sees it as the first did, and as it does alone`(state: Int)
        throws
    {
        let (prefix, environment) = Self.states[state]
        let folder = try temporaryFolder(["iso.lua": prefix + Self.probe + Self.dirtying])
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try Self.run(folder, "iso.lua", traces: "all", environment: environment)
        #expect(all.status == 1)
        let results = try Self.report(all)
        #expect(results.count == 9)
        #expect(results["raises"]?["status"] as? String == "failed")
        #expect((results["runs out of CPU"]?["message"] as? String)?.contains("CPU time") == true)
        #expect((results["runs out of memory"]?["message"] as? String)?.contains("of memory") == true)
        for name in ["probe first", "probe last"] {
            let alone = try Self.run(folder, "iso.lua", filter: name, traces: "alone-\(name)")
            #expect(alone.status == 0)
            let single = try Self.report(alone)
            #expect(results[name]?["status"] as? String == "passed")
            #expect(results[name]?["output"] as? String == single[name]?["output"] as? String)
            let output = results[name]?["output"] as? String ?? ""
            #expect(output.contains("table: 1\tfunction: 2\tthread: 3\n"))
            #expect(output.contains("nil\tfunction\tfunction\tfunction\tAB\n"))
            #expect(output.contains("function\tfunction\tfunction\t3\n"))
            let slug = "-" + name.replacingOccurrences(of: " ", with: "-") + "-"
            #expect(
                try Self.trace(folder, "all", named: slug) == Self.trace(folder, "alone-\(name)", named: slug)
            )
        }
        // Both probes draw their own numbers (seeded from their names), each as when run alone.
        #expect(results["probe first"]?["output"] as? String != results["probe last"]?["output"] as? String)
    }

    @Test func `fresh states give the same bytes as snapshots`() throws {
        let folder = try temporaryFolder(["iso.lua": Self.probe + Self.dirtying])
        defer { try? FileManager.default.removeItem(at: folder) }
        let restored = try Self.run(folder, "iso.lua", traces: "restored")
        let arguments = [
            "--json", "--verbose", "--jobs", "1", "--cpu-budget", "0.5", "--memory-budget", "32", "--trace",
            folder.appendingPathComponent("fresh").path, folder.appendingPathComponent("iso.lua").path,
        ]
        let fresh = try stackplay(arguments: arguments, environment: ["STACKPLAY_FRESH_STATES": "1"])
        #expect(fresh.stderr.contains("every test runs in a fresh Lua state (STACKPLAY_FRESH_STATES=1)"))
        #expect(!restored.stderr.contains("fresh Lua state"))
        let a = try Self.report(restored)
        let b = try Self.report(fresh)
        #expect(a.count == b.count)
        for (name, result) in a {
            #expect(result["output"] as? String == b[name]?["output"] as? String, "\(name)")
            #expect(result["status"] as? String == b[name]?["status"] as? String, "\(name)")
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("fresh").path)
        #expect(!names.isEmpty)
        for name in names {
            let x = try String(contentsOf: folder.appendingPathComponent("fresh/\(name)"), encoding: .utf8)
            let y = try String(contentsOf: folder.appendingPathComponent("restored/\(name)"), encoding: .utf8)
            #expect(x == y, "\(name)")
        }
    }

    /// A top level that makes a screen: each test must see it as the top level left it, so the
    /// file's tests re-run its top level (and `--verbose` says so).
    static let screenAtTopLevel = """
        local screen = stackplay.screen {}
        local stack = screen:notification_stack { items = { "a", "b", "c" } }
        test("opens the shared stack", function()
          stack:tap()
          screen:settle()
          expect(stack:expanded()):to_be_truthy()
        end)
        test("finds the shared stack closed", function()
          expect(stack:expanded()):to_be_falsy()
        end)

        """

    @Test(.disabled(if: builtWithAddressSanitizer, "no snapshots under AddressSanitizer"))
    func `a file whose top level makes a screen re-runs it for each test and says so`() throws {
        let folder = try temporaryFolder(["top.lua": Self.screenAtTopLevel])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("top.lua").path
        let run = try stackplay("--jobs", "1", "--verbose", path)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2 passed, 0 failed"))
        #expect(
            run.stderr.contains(
                "\(path): each test runs the file's top level again: its top level made a screen"))
        let quiet = try stackplay("--jobs", "1", path)
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("top level again"))
    }

    @Test(.disabled(if: builtWithAddressSanitizer, "no snapshots under AddressSanitizer"))
    func `a file whose top level draws random numbers gives each test the numbers it gets alone`()
        throws
    {
        let script = """
            local drawn = math.random(1, 1000000)
            test("one", function() print(drawn, math.random(1, 1000000)) end)
            test("two", function() print(drawn, math.random(1, 1000000)) end)

            """
        let folder = try temporaryFolder(["rand.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("rand.lua").path
        let all = try Self.report(try stackplay("--json", "--jobs", "1", path))
        let verbose = try stackplay("--jobs", "1", "--verbose", path)
        #expect(verbose.stderr.contains("its top level draws random numbers"))
        for name in ["one", "two"] {
            let alone = try Self.report(try stackplay("--json", "--filter", name, path))
            #expect(all[name]?["output"] as? String == alone[name]?["output"] as? String)
        }
    }

    @Test func `a test that disposes of a function stackplay made does not free it for the next test`() throws
    {
        let script = """
            test("drops", function()
              stackplay.screen = nil
              collectgarbage()
              collectgarbage()
            end)
            test("uses", function()
              local screen = stackplay.screen {}
              expect(screen:now()):to_equal(0)
            end)

            """
        let folder = try temporaryFolder(["gc.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay("--jobs", "1", "--repeat", "3", folder.appendingPathComponent("gc.lua").path)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2 passed, 0 failed"))
    }
}
