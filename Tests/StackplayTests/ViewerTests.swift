import Foundation
import Testing

/// End-to-end: the trace viewer (`stackplay view`, `--artifacts`'s report.html). Its behaviour in
/// a browser is tested by `make test-browser` (Tests/Browser/viewer_test.py).
@Suite struct ViewerTests {
    let golden = "\(fixtures)/traces/golden"

    func goldenTraces() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(golden).path)
            .sorted().map { "\(golden)/\($0)" }
    }

    /// The page without the tests' durations, the one part that changes between runs.
    func withoutDurations(_ page: String) -> String {
        // The command names the folder each page went to.
        page.replacing(/"seconds":[0-9.e+-]+/, with: "\"seconds\":_").replacing(
            /\["command","[^"]*"\]/, with: "[\"command\",_]")
    }

    @Test func `the scenarios' report is one small page, the same bytes but for durations`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        var pages: [String] = []
        for name in ["a", "b"] {
            let run = try stackplay(arguments: [
                "--artifacts", folder.appendingPathComponent(name).path, "scripts",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            pages.append(
                try String(contentsOf: folder.appendingPathComponent("\(name)/report.html"), encoding: .utf8))
        }
        // Each script's source is in it once (the source pane), deflated as the traces are.
        // (The viewer's own script and style are about 58 KB of it.)
        #expect(pages[0].utf8.count <= 380_000, "report.html is \(pages[0].utf8.count) bytes")
        #expect(withoutDurations(pages[0]) == withoutDurations(pages[1]))
        // Self-contained: nothing is fetched.
        for reference in ["<script src", "<link", "url(", "@import", "fetch("] {
            #expect(!pages[0].contains(reference), "\(reference)")
        }
    }

    @Test func `view writes the page of its traces to -o or to stdout`() throws {
        let traces = try goldenTraces()
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("v.html").path
        // the script is given beside the traces: a page shows only scripts the command read
        let script = "\(fixtures)/traces/session.lua"
        let run = try stackplay(arguments: ["view"] + traces + [script, "-o", out])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "stackplay: wrote \(out)\n")
        let page = try String(contentsOfFile: out, encoding: .utf8)
        // One blob a trace, and the script their actions name (session.lua, found from here) once.
        #expect(
            page.components(separatedBy: "data-encoding=\"deflate-raw;base64\"").count == traces.count + 2)
        #expect(page.contains("\"sources\":{\"\(fixtures)/traces/session.lua\":\"s0\"}"))
        #expect(page.contains("\"status\":\"trace\",\"seconds\":null"))
        let toStdout = try stackplay(arguments: ["view"] + traces + [script])
        #expect(toStdout.status == 0 && toStdout.stderr == "")
        #expect(toStdout.stdout == page)
    }

    @Test func `view of a run's --trace files shows each test's verdict, message and output`() throws {
        let folder = try temporaryFolder([
            "g.lua": """
            test("fails", function()
              local s = stackplay.screen {}
              s:notification_stack { items = { "a", "b" } }
              local wallet = stackplay.screen {}:wallet_card_stack { items = { "amex" } }
              print("hello out")
              wallet:tap("amex")
              expect(1):to_equal(2)
            end)
            test("passes", function()
              stackplay.screen {}:notification_stack { items = { "a" } }
            end)

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stackplay(arguments: ["--trace", "t", "g.lua"], in: folder)
        #expect(first.status == 1, "\(first.stderr)")
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("t").path
        ).sorted()
        #expect(names.count == 3, "\(names)")
        var texts: [String] = []
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent("t/\(name)"), encoding: .utf8)
            // Each file ends with its test's verdict, and the same run writes the same bytes.
            #expect(text.split(separator: "\n").last?.hasPrefix(#"{"result":{"file":"g.lua","#) == true)
            texts.append(text)
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("t"))
        #expect(try stackplay(arguments: ["--trace", "t", "g.lua"], in: folder).status == 1)
        for (name, text) in zip(names, texts) {
            #expect(
                try String(contentsOf: folder.appendingPathComponent("t/\(name)"), encoding: .utf8) == text)
        }
        // The files still replay and render: the result line is not an event.
        let paths = names.map { "t/\($0)" }
        let replay = try stackplay(arguments: ["replay"] + paths, in: folder)
        #expect(
            replay.status == 0 && replay.stdout.hasSuffix("3 replayed, 0 failed\n"),
            "\(replay.stdout)\(replay.stderr)")
        // Given in any order, the failing test's two screens are one test of the page, in order.
        let view = try stackplay(arguments: ["view"] + paths.reversed() + ["g.lua"], in: folder)
        #expect(view.status == 0, "\(view.stderr)")
        let page = view.stdout
        #expect(page.contains(#""name":"g.lua: fails","status":"failed""#))
        #expect(page.contains(#""name":"g.lua: passes","status":"passed""#))
        #expect(page.components(separatedBy: #""status":"trace""#).count == 1, "no bare traces")
        #expect(page.contains("values differ") && page.contains("hello out"))
        let stem = try #require(names.first { $0.hasSuffix(".2.jsonl") }?.dropLast(".2.jsonl".count))
        let one = try #require(page.range(of: "\"name\":\"\(stem).jsonl\""))
        let two = try #require(page.range(of: "\"name\":\"\(stem).2.jsonl\""))
        #expect(one.lowerBound < two.lowerBound)
    }

    @Test func `view: a malformed trace names its file and line, and nothing is written`() throws {
        let folder = try temporaryFolder([
            "bad.jsonl": "{\"format\":\"stackplay-trace\",\"version\":1}\n{\"i\":0,"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["view", "bad.jsonl", "-o", "v.html"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("stackplay: bad.jsonl:"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("v.html").path))
        let missing = try stackplay(arguments: ["view", "missing.jsonl"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("stackplay: cannot read missing.jsonl: "))
    }

    @Test(arguments: [
        (["view"], "stackplay: view needs at least one trace"),
        (
            ["view", "--junit", "j.xml", "t.jsonl"],
            "stackplay: '--junit' goes with running scripts and 'stackplay merge' and 'stackplay mutate', not with 'stackplay view'"
        ),
        (
            ["view", "--at", "2", "t.jsonl"],
            "stackplay: '--at' goes with 'stackplay render', not with 'stackplay view'"
        ),
    ])
    func `view's usage errors exit 64`(arguments: [String], message: String) throws {
        let run = try stackplay(arguments: arguments)
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }

    @Test func `with --golden, a failure's page holds its golden trace for the overlay`() throws {
        let script = """
            test("wallet", function()
              local screen = stackplay.screen {}
              local wallet = screen:wallet_card_stack { items = { "amex", "visa" } }
              wallet:tap("%s"); screen:settle()
            end)
            """
        let folder = try temporaryFolder(["w.lua": script.replacingOccurrences(of: "%s", with: "amex")])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplayRecording(["--golden", "golden", "w.lua"], in: folder).status == 0)
        try script.replacingOccurrences(of: "%s", with: "visa").write(
            to: folder.appendingPathComponent("w.lua"), atomically: true, encoding: .utf8)
        let run = try stackplayRecording(["--golden", "golden", "--artifacts", "out", "w.lua"], in: folder)
        #expect(run.status == 1)
        let page = try String(contentsOf: folder.appendingPathComponent("out/report.html"), encoding: .utf8)
        #expect(page.contains("\"golden\":\"g0-0\""))
        #expect(page.contains("id=\"g0-0\""))
    }
}
