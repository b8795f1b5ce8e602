import Foundation
import Testing

/// End-to-end: `--trace`, `replay`, `render`, `--golden`, `--artifacts`, `stackplay.replay`.
@Suite(.serialized) struct TraceTests {
    let session = "\(fixtures)/traces/session.lua"
    let golden = "\(fixtures)/traces/golden"

    func temporary(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "stackplay-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    @Test func recordedTracesReplayGreenAndAreByteIdentical() throws {
        let (a, b) = (temporary("trace-a"), temporary("trace-b"))
        #expect(try stackplay("--trace", a, session).status == 0)
        #expect(try stackplay("--trace", b, session).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(files.count == 3)
        for file in files {
            #expect(
                FileManager.default.contentsEqual(atPath: "\(a)/\(file)", andPath: "\(b)/\(file)"), "\(file)")
        }
        let replay = try stackplay(arguments: ["replay"] + files.map { "\(a)/\($0)" })
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.hasSuffix("3 replayed, 0 failed\n"))
    }

    @Test func anEditedTraceFailsAndTheOthersStillReplay() throws {
        let dir = temporary("edited")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let source = try String(
            contentsOfFile:
                "\(packageRoot.path)/\(golden)/tests-stackplaytests-fixtures-traces-session-lua--wallet-open-a-card-escape-select-new-height-ed5161aa.jsonl",
            encoding: .utf8)
        var lines = source.split(separator: "\n").map(String.init)
        // The first frame with amex resting at 768: line 6, event 2, made by the settle of line 5.
        let resting = try #require(lines.firstIndex { $0.contains("{\"id\":\"amex\",\"x\":20,\"y\":768,") })
        #expect(resting == 5)
        lines[resting] = lines[resting].replacingOccurrences(
            of: "{\"id\":\"amex\",\"x\":20,\"y\":768,", with: "{\"id\":\"amex\",\"x\":20,\"y\":773,")
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: "\(dir)/edited.jsonl", atomically: true, encoding: .utf8)
        try String(lines[1].prefix(30)).write(
            toFile: "\(dir)/truncated.jsonl", atomically: true, encoding: .utf8)
        let run = try stackplay(
            "replay", "\(dir)/edited.jsonl", "\(dir)/truncated.jsonl",
            "\(golden)/tests-stackplaytests-fixtures-traces-session-lua--sticky-scroll-and-pin-853e6bde.jsonl"
        )
        #expect(run.status == 1)
        #expect(run.stderr.contains("edited.jsonl:6: event 2 (advance at t = "))
        // It names the script's call that made the event, and its line.
        #expect(
            run.stderr.contains(
                " s) of the settle at \(fixtures)/traces/session.lua:5 (wallet:tap(\"visa\"); screen:settle()): "
            ))
        #expect(
            run.stderr.contains(
                "component 'wallet', card 'amex', field 'y' differs\n  expected: 773\n    actual: 768"))
        #expect(run.stderr.contains("truncated.jsonl:1: malformed JSON at column 31: the line ends"))
        #expect(run.stdout.hasSuffix("1 replayed, 2 failed\n"))
    }

    @Test func `every input a call made is grouped under an action with the script's file, line and text`()
        throws
    {
        let dir = temporary("actions")
        #expect(try stackplay("--trace", dir, session).status == 0)
        let name =
            "tests-stackplaytests-fixtures-traces-session-lua--wallet-open-a-card-escape-select-new-height-ed5161aa.jsonl"
        let lines = try String(contentsOfFile: "\(dir)/\(name)", encoding: .utf8).split(separator: "\n")
        #expect(lines[0].hasPrefix("{\"format\":\"stackplay-trace\",\"version\":2,"))
        #expect(
            lines[1]
                == "{\"action\":0,\"method\":\"tap\",\"file\":\"\(fixtures)/traces/session.lua\",\"line\":5,"
                + "\"source\":\"wallet:tap(\\\"visa\\\"); screen:settle()\",\"events\":2}")
        #expect(lines[2].hasPrefix("{\"i\":0,\"t\":0,\"type\":\"touch_down\""))
        #expect(lines[3].hasPrefix("{\"i\":1,"))
        #expect(lines[4].hasPrefix("{\"action\":1,\"method\":\"settle\","))
        // Each call of the line gets its own action, in order.
        let methods = lines.compactMap { line -> String? in
            guard line.hasPrefix("{\"action\":") else { return nil }
            return line.firstMatch(of: /"method":"([a-z_]+)"/).map { String($0.1) }
        }
        #expect(methods == ["tap", "settle", "escape", "advance", "select", "set_height", "settle"])
    }

    @Test func `a version 1 trace, without actions, still replays`() throws {
        let old = "\(fixtures)/traces/v1/wallet-session.jsonl"
        let text = try String(contentsOfFile: "\(packageRoot.path)/\(old)", encoding: .utf8)
        #expect(text.hasPrefix("{\"format\":\"stackplay-trace\",\"version\":1,"))
        #expect(!text.contains("\"action\":0"))
        let run = try stackplay("replay", old)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 replayed, 0 failed\n"))
        // And a run compares with it as a golden trace: actions are not compared.
        let folder = temporary("v1-golden")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = "\(folder)/v1.lua"
        try """
        test("v1", function()
          local screen = stackplay.screen { record = true }
          local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
          wallet:tap("visa"); screen:settle()
          screen:escape(); screen:advance(0.2)
          wallet:select("mc"); wallet:set_height(500); screen:settle()
          expect(screen):to_match_trace("golden.jsonl")
        end)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        try text.write(toFile: "\(folder)/golden.jsonl", atomically: true, encoding: .utf8)
        let compared = try stackplay(arguments: ["--ci", script])
        #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
    }

    @Test func usageErrors() throws {
        #expect(try stackplay("replay").status == 64)
        #expect(try stackplay("render").status == 64)
        #expect(try stackplay("replay", "--update", session).status == 64)
    }

    @Test func goldenTracesPassAndAMissingOneIsRecorded() throws {
        let run = try stackplay("--golden", golden, session)
        #expect(run.status == 0, "\(run.stderr)")
        let fresh = temporary("golden")
        let record = try stackplayRecording(["--golden", fresh, session])
        #expect(record.status == 0)
        #expect(
            record.stderr.contains(
                "stackplay: wrote the golden trace \(fresh)/tests-stackplaytests-fixtures-traces-session-lua--sticky-scroll-and-pin-853e6bde.jsonl"
            ))
    }

    @Test func aScenarioReplaysARecordedSession() throws {
        let run = try stackplay("\(fixtures)/traces/replay.lua")
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// The SVG parses as XML and holds one card shape per visible card.
    @Test func renderWritesAnSVGWithOneShapePerVisibleCard() throws {
        let out = temporary("frame") + ".svg"
        let trace =
            "\(golden)/tests-stackplaytests-fixtures-traces-session-lua--notifications-open-swipe-one-away-c0e28a82.jsonl"
        let run = try stackplay("render", trace, "--at", "1", "-o", out)
        #expect(run.status == 0, "\(run.stderr)")
        let count = try python(
            "import xml.etree.ElementTree as E,sys\nt=E.parse(sys.argv[1])\n"
                + "print(len([g for g in t.iter('{http://www.w3.org/2000/svg}g') if g.get('class')=='card']))",
            out)
        // Closed with 3 cards, all three show (N4).
        #expect(count == "3")
        #expect(try stackplay("render", trace, "--at", "999").stderr.contains("no event 999"))
    }

    @Test func artifactsHoldTheFailingFrameAndAReport() throws {
        let dir = temporary("artifacts")
        let run = try stackplay("--artifacts", dir, "\(fixtures)/traces/failing.lua", session)
        #expect(run.status == 1)
        let svg =
            "\(dir)/tests-stackplaytests-fixtures-traces-failing-lua--wallet-expects-the-wrong-card-on-top-f599a985.svg"
        #expect(run.stderr.contains("stackplay: wrote \(svg)"))
        // The report is the trace viewer: the run as data, one deflated trace a screen and each
        // script's source (failing.lua, session.lua) for the source pane.
        let html = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        #expect(html.contains("\"status\":\"failed\""))
        #expect(html.contains("\"status\":\"passed\""))
        #expect(html.components(separatedBy: "data-encoding=\"deflate-raw;base64\"").count == 7)
        // Chromium, when installed, renders it; the screenshot must not be blank.
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if let chromium {
            let shot = "\(dir)/shot.png"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromium)
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000",
                "--screenshot=\(shot)",
                "--window-size=1000,800", "file://\(dir)/report.html",
            ]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let size = (try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
            #expect(size > 10_000)
        }
    }

    func python(_ code: String, _ argument: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", code, argument]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = readToEnd(pipe.fileHandleForReading)
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
