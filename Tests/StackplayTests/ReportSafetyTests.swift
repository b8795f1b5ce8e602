import Foundation
import Testing

/// Issue 23, items 5, 6, 7, 9 and 11 through the binary: every report parses whatever the bytes
/// of names, messages and output; `merge` refuses what would miscount or coerce; `--shard-timings`
/// reads real XML and does not allocate per shard.
@Suite struct ReportSafetyTests {
    /// A name, a message and printed output holding what breaks XML, YAML and terminals, and a
    /// newline that would forge a test line.
    static let hostile = """
        local hostile = "a\\u{FFFE}b\\u{FFFF}c\\27[31md\\re\\0f\\127g\\u{85}h\\u{9B}i\\u{2028}j\\xffk\\nok 9 - forged"
        test(hostile, function() print(hostile); expect(1):to_equal(hostile) end)
        test("second " .. hostile, function() print(hostile) end)
        """

    @Test
    func `junit, tap and json parse and the human report is terminal-safe, whatever a test's text holds`()
        throws
    {
        let folder = try temporaryFolder(["h.lua": Self.hostile])
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("h.lua").path
        let junitPath = folder.appendingPathComponent("j.xml").path

        let human = try stackplay("--junit", junitPath, script)
        #expect(human.status == 1)
        let lines = human.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("  ok") || $0.hasPrefix("  FAIL") }.count == 2)
        #expect(!lines.contains { $0.hasPrefix("ok 9") })
        for control in ["\u{1B}", "\r", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}"] {
            #expect(!human.stdout.contains(control) && !human.stderr.contains(control))
        }
        #expect(human.stdout.contains("c\\u{1B}[31md\\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i"))

        // JUnit: Python's XML parser reads it; the forbidden characters are shown as `\u{...}`,
        // a byte that is not UTF-8 is shown as `\xFF`.
        let junit = try JUnit(file: junitPath)
        #expect(junit.cases.count == 2)
        #expect(
            junit.cases[0].attributes["name"]
                == "a\\u{FFFE}b\\u{FFFF}c\\u{1B}[31md\re\\u{0}f\\u{7F}g\\u{85}h\\u{9B}i\u{2028}j\\xFFk\nok 9 - forged"
        )

        // TAP: each YAML block is YAML to PyYAML, and prove counts two tests.
        let tap = try stackplay("--tap", script)
        let tapPath = folder.appendingPathComponent("out.tap").path
        try tap.stdout.write(toFile: tapPath, atomically: true, encoding: .utf8)
        #expect(try TAP(tap.stdout).points.count == 2)
        let (checked, status) = try python(
            """
            import sys
            try:
                import yaml
            except ImportError:
                sys.exit(77)
            lines = open(sys.argv[1], encoding="utf-8", newline="").read().split("\\n")
            blocks, block = [], None
            for line in lines:
                if line == "  ---": block = []
                elif line == "  ...": blocks.append("\\n".join(block)); block = None
                elif block is not None: block.append(line)
            for text in blocks:
                value = yaml.safe_load(text)
                assert "\\ufffe" in value["message"] and "\\x85" in value["message"], value
            print(len(blocks))
            """, [tapPath])
        if status != 77 { #expect(status == 0 && checked == "1\n", "\(checked)") }
        let prove = Process()
        prove.executableURL = URL(fileURLWithPath: "/bin/sh")
        prove.arguments = ["-c", "command -v prove >/dev/null || exit 77; prove -e cat \(tapPath) 2>&1"]
        let pipe = Pipe()
        prove.standardOutput = pipe
        try prove.run()
        let proved = String(decoding: readToEnd(pipe.fileHandleForReading), as: UTF8.self)
        prove.waitUntilExit()
        if prove.terminationStatus != 77 {
            #expect(proved.contains("Failed 1/2 subtests"), "\(proved)")
            #expect(!proved.contains("Bad plan"), "\(proved)")
        }

        // JSON holds the text itself.
        let json = try stackplay("--json", script)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        #expect((tests[0]["name"] as? String)?.hasPrefix("a\u{FFFE}b\u{FFFF}c\u{1B}[31md\re\u{0}f") == true)
    }

    @Test func `merge refuses a shard given twice and a test in two reports`() throws {
        let folder = try temporaryFolder(["t.lua": "test('a', function() end)\ntest('b', function() end)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--json", "t.lua"], in: folder)
        try run.stdout.write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try run.stdout.write(to: folder.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let twice = try stackplay(arguments: ["merge", "a.json", "a.json"], in: folder)
        #expect(twice.status == 1 && twice.stdout == "")
        #expect(
            twice.stderr
                == "stackplay: a.json is given twice (as report 1 and 2): its tests would count twice\n")
        let copied = try stackplay(arguments: ["merge", "a.json", "b.json"], in: folder)
        #expect(copied.status == 1 && copied.stdout == "")
        #expect(copied.stderr.hasPrefix("stackplay: test 't.lua: a' is in both a.json and b.json: "))
        let once = try stackplay(arguments: ["merge", "a.json"], in: folder)
        #expect(once.status == 0 && once.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func `merge names every wrongly typed field and writes no time="inf" to JUnit`() throws {
        let test = #"{"file":"a.lua","name":"NAME","position":"a.lua:1","status":"passed","seconds":SECONDS}"#
        func report(_ tests: [(String, String)]) -> String {
            let objects = tests.map {
                test.replacingOccurrences(of: "NAME", with: $0.0).replacingOccurrences(
                    of: "SECONDS", with: $0.1)
            }
            return #"{"format_version":1,"tests":["# + objects.joined(separator: ",") + "]}"
        }
        let folder = try temporaryFolder([
            "big.json": report([("t1", "1e308"), ("t2", "1e308")]),
            "typed.json": report([("t1", #""1""#), ("t2", "1"), ("t3", #""inf""#), ("t4", "true")]),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = try stackplay(arguments: ["merge", "big.json", "--junit", "j.xml"], in: folder)
        #expect(big.status == 0, "\(big.stderr)")
        let xml = try String(contentsOf: folder.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(!xml.contains("inf") && xml.contains("<testsuite name=\"a.lua\" tests=\"2\""))
        #expect(try JUnit(file: folder.appendingPathComponent("j.xml").path).cases.count == 2)
        let typed = try stackplay(arguments: ["merge", "typed.json"], in: folder)
        #expect(typed.status == 1 && typed.stdout == "")
        #expect(
            typed.stderr == """
                stackplay: typed.json: field 'tests[0].seconds': expected a number, got string
                stackplay: typed.json: field 'tests[2].seconds': expected a duration in seconds >= 0, got inf
                stackplay: typed.json: field 'tests[3].seconds': expected a number, got boolean

                """)
    }

    @Test
    func `--shard-timings reads comments and '>' in attributes as XML and a billion shards do not allocate`()
        throws
    {
        let tests = (1...4).map { "test('t\($0)', function() end)" }.joined(separator: "\n")
        func junit(_ extra: String) -> String {
            """
            <?xml version="1.0"?>
            <testsuites><testsuite name="t.lua">
            \(extra)
            <testcase classname="t.lua" name="t1" time="4"/><testcase classname="t.lua" name="t2" time="3"/>
            <testcase classname="t.lua" name="t3" time="2"/><testcase classname="t.lua" name="t4" time="1"/>
            </testsuite></testsuites>
            """
        }
        let folder = try temporaryFolder([
            "t.lua": tests, "plain.xml": junit(""),
            "commented.xml": junit(#"<!-- <testcase classname="t.lua" name="t4" time="100"/> -->"#),
            "angle.xml": junit(#"<testcase classname="t.lua" name="x > y" time="0.5"/>"#),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        func shard(_ file: String, _ shard: String = "1/2") throws -> Run {
            try stackplay(
                arguments: ["--list", "--shard", shard, "--shard-timings", file, "t.lua"], in: folder)
        }
        let plain = try shard("plain.xml")
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "t.lua: t1\nt.lua: t4\n")
        #expect(try shard("commented.xml").stdout == plain.stdout)
        let angle = try shard("angle.xml")
        #expect(angle.status == 0 && angle.stdout == plain.stdout, "\(angle.stderr)")
        let many = try shard("plain.xml", "1/1000000000")
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stdout == "t.lua: t1\n")
        let last = try shard("plain.xml", "1000000000/1000000000")
        #expect(last.status == 0 && last.stdout == "")
    }
}
