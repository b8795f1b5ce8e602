import Foundation
import Testing

/// `--matrix`: every test under every combination of screen defaults, named by its variant.
@Suite struct MatrixTests {
    static let script = """
        test("reads the defaults", function()
          local s = stackplay.screen {}:settings()
          print(s.layout_direction, s.dynamic_type, s.reduce_motion, s.width, s.height)
        end)
        test("its own settings win", function()
          local s = stackplay.screen { layout_direction = "ltr", width = 300 }:settings()
          expect(s.layout_direction):to_equal("ltr")
          expect(s.width):to_equal(300)
        end)
        """

    func folder() throws -> URL { try temporaryFolder(["m.lua": Self.script]) }

    @Test func `dynamic_type=all and both directions make 24 variants of every test`() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.lua").path
        let run = try stackplay(
            "--matrix", "dynamic_type=all", "--matrix", "layout_direction=ltr,rtl", path)
        #expect(run.status == 0, "\(run.stderr)")
        // the test that sets its own direction runs once a size, its rtl copies skipped (issue 35)
        #expect(run.stdout.contains("36 passed, 0 failed, 12 skipped"))
        #expect(
            run.stdout.contains(
                "  ok   reads the defaults [AX5, rtl]\n      | rtl\tAX5\tfalse\t390.0\t844.0\n"))
        #expect(
            run.stdout.contains(
                "  ok   reads the defaults [xSmall, ltr]\n      | ltr\txSmall\tfalse\t390.0\t844.0\n"))
        #expect(run.stdout.contains("  ok   its own settings win [large, ltr]"))
        #expect(
            run.stdout.contains(
                "  skip its own settings win [large, rtl] (skipped: the test sets layout_direction itself)"))
        let list = try stackplay(
            "--list", "--matrix", "dynamic_type=all", "--matrix", "layout_direction=ltr,rtl", path)
        #expect(list.stdout.split(separator: "\n").count == 48)
    }

    @Test func `devices, reduce motion and sizes set the screen, and reporters carry the variant`() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.lua").path
        let run = try stackplay(
            "--matrix", "device=iphone-se,ipad", "--matrix", "reduce_motion=on", "--json", "--filter",
            "defaults", path)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let tests = document["tests"] as! [[String: Any]]
        #expect(
            tests.map { $0["name"] as! String } == [
                "reads the defaults [reduce_motion=on, iphone-se 375 × 667]",
                "reads the defaults [reduce_motion=on, ipad 820 × 1180]",
            ])
        #expect(tests[0]["output"] as? String == "ltr\tlarge\ttrue\t375.0\t667.0\n")
        let tap = try stackplay("--tap", "--matrix", "layout_direction=rtl", path)
        #expect(tap.stdout.contains("ok 1 - \(path): reads the defaults [rtl]"))
        let junit = folder.appendingPathComponent("j.xml")
        _ = try stackplay("--junit", junit.path, "--matrix", "layout_direction=rtl", path)
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("name=\"reads the defaults [rtl]\""))
    }

    @Test func `a device variant carries the device's name, so a filter by that name selects it`() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.lua").path
        let run = try stackplay("--matrix", "device=iphone-se,ipad", "--filter", "iphone-se", path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  ok   reads the defaults [iphone-se 375 × 667]"), "\(run.stdout)")
        #expect(run.stdout.contains("  ok   its own settings win [iphone-se 375 × 667]"))
        #expect(!run.stdout.contains("ipad"))
        #expect(run.stdout.contains("2 passed, 0 failed"))
        // A later size replaces the device's: the variant is then named by its size alone.
        let resized = try stackplay("--list", "--matrix", "device=ipad", "--matrix", "width=700", path)
        #expect(resized.stdout.contains("reads the defaults [700 × 1180]"), "\(resized.stdout)")
    }

    @Test func `shards split the variants and together run each once`() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.lua").path
        var seen: [String] = []
        for k in 1...3 {
            let run = try stackplay(
                "--list", "--shard", "\(k)/3", "--matrix", "layout_direction=ltr,rtl", path)
            seen += run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(seen.count == 4)
        #expect(Set(seen).count == 4)
    }

    @Test func `the config's matrix runs like the flag and a flag replaces it`() throws {
        let folder = try temporaryFolder([
            "m.lua": Self.script,
            ".stackplay.lua": "return { matrix = { \"layout_direction=ltr,rtl\" } }",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["m.lua"], in: folder)
        #expect(run.stdout.contains("3 passed, 0 failed, 1 skipped"))
        let flag = try stackplay(arguments: ["--matrix", "dynamic_type=AX1", "m.lua"], in: folder)
        #expect(flag.stdout.contains("2 passed, 0 failed"))
        #expect(flag.stdout.contains("reads the defaults [AX1]"))
    }

    @Test(arguments: [
        (
            "layout_directon=rtl",
            "--matrix unknown matrix key 'layout_directon' (did you mean 'layout_direction'?)"
        ),
        ("dynamic_type=AX9", "--matrix dynamic_type: unknown size 'AX9' (did you mean"),
        ("device=iphone", "--matrix device: unknown device 'iphone'"),
        ("layout_direction", "--matrix a matrix axis is KEY=V1,V2,..."),
        ("width=-3", "--matrix width: a number of points from 0 to 100000 expected, got '-3'"),
    ])
    func `a bad axis is a usage error that names it`(axis: String, message: String) throws {
        let run = try stackplay("--matrix", axis, "scripts")
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("stackplay: \(message)"), "\(run.stderr)")
    }
}
