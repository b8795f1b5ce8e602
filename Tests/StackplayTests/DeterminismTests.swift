import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Everything a script can reach is deterministic: the same run prints the same bytes, with and without jobs.
@Suite struct DeterminismTests {
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
        #expect(
            run.stdout.contains(
                "      | pairs\t2\t5\n      | pairs\t2.5\t7\n      | pairs\t10\t4\n      | pairs\talpha\t2"))
        #expect(
            run.stdout.contains(
                "      | time\t1767225600\tThu Jan  1 00:00:00 2026\t2026-01-01 00:00:00\t0.0"))
        #expect(run.stdout.contains("      | utc\t946684800"))
        #expect(run.stdout.contains("      | names\ttable: 1\tfunction: 2\ttable: 3 table: 4"))
        #expect(run.stdout.contains("      | screen\tstackplay.screen: 5"))
        #expect(!run.stdout.contains("0x"))
    }

    @Test func `a seed changes the random numbers, the same seed repeats them, and reports carry it`() throws
    {
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
        #expect(
            try String(contentsOf: junit, encoding: .utf8).contains("<property name=\"seed\" value=\"7\"/>"))
        let random = try stackplay("--seed", "random", path)
        let printed = try #require(
            random.stderr.firstMatch(of: /stackplay: seed (\d+) \(run again with --seed \d+\)/))
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
}
