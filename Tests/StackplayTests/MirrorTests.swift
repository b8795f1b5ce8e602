import Foundation
import Testing

/// `--mirror` through the built binary (R3): every test again in a mirrored world, reported as
/// `name [mirrored]`, composed with `--matrix`, recorded in traces with `"mirror": true`.
@Suite struct MirrorTests {
    static let ltrOnly = "\(fixtures)/mirror/ltr_only.lua"

    @Test func `a left-to-right-only scenario of each component passes mirrored`() throws {
        let run = try stackplay("--mirror", Self.ltrOnly)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("10 passed, 0 failed\n"))
        let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ok   ") }
        #expect(lines.count == 10)
        for (plain, mirrored) in stride(from: 0, to: lines.count, by: 2).map({ (lines[$0], lines[$0 + 1]) }) {
            #expect(mirrored == plain + " [mirrored]")
        }
        for name in ["Show less", "past 110 pt", "VoiceOver", "Escape", "sticky cards scroll"] {
            #expect(run.stdout.contains(name), "the scenario covers \(name)")
        }
        // Without the flag, the same file runs once.
        #expect(try stackplay(Self.ltrOnly).stdout.hasSuffix("5 passed, 0 failed\n"))
    }

    /// Issue 24's false failure: `x` came back 37.47999999999996 for the golden's 37.47999999999999,
    /// the rounding of `width − x` there and back, which no golden or twin comparison may see.
    @Test func `a left-to-right scenario with a golden trace passes mirrored at the default tolerance`()
        throws
    {
        let script = """
            test("ltr swipe", function()
              local screen = stackplay.screen { width = 390, layout_direction = "ltr", record = true }
              local stack = screen:notification_stack {
                items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true,
                x = 17.48, width = 333.33,
              }
              stack:tap(); screen:advance(0.137); screen:settle()
              stack:drag("calendar", { x = -77.7 }); screen:advance(0.0731); screen:settle()
              expect(screen):to_match_trace("golden/n.jsonl")
            end)

            """
        let folder = try temporaryFolder(["n.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try stackplayRecording(["n.lua"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let mirrored = try stackplay(arguments: ["--mirror", "--ci", "n.lua"], in: folder)
        #expect(mirrored.status == 0, "\(mirrored.stderr)")
        #expect(mirrored.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func `the scenarios pass mirrored`() throws {
        let run = try stackplay("--mirror", "scripts")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" [mirrored]\n"))
        #expect(run.stdout.contains(" 0 failed\n"))
    }

    @Test func `mirrored copies compose with the matrix in lists and reporters`() throws {
        let list = try stackplay(
            "--list", "--mirror", "--matrix", "layout_direction=ltr,rtl", "--filter", "Escape", Self.ltrOnly)
        #expect(list.status == 0, "\(list.stderr)")
        let name =
            "\(Self.ltrOnly): W4 W9 W10 a tap selects a card, Escape clears it; VoiceOver activates in the middle of what shows"
        #expect(
            list.stdout
                == ["[ltr]", "[ltr, mirrored]", "[rtl]", "[rtl, mirrored]"].map { "\(name) \($0)\n" }.joined()
        )
        let json = try stackplay("--json", "--mirror", "--filter", "Escape", Self.ltrOnly)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let names = (document["tests"] as! [[String: Any]]).map { $0["name"] as! String }
        #expect(names.count == 2 && names[1] == names[0] + " [mirrored]")
    }

    @Test func `mirror is a flag of runs, not a matrix key`() throws {
        let matrix = try stackplay("--matrix", "mirror=on", Self.ltrOnly)
        #expect(matrix.status == 64)
        #expect(
            matrix.stderr.contains("mirror is not a matrix key: --mirror runs every test mirrored as well"))
        let replay = try stackplay("replay", "--mirror", "x.jsonl")
        #expect(replay.status == 64)
        #expect(replay.stderr.contains("'--mirror' goes with running scripts"))
    }

    @Test func `one screen mirrored by its option says so, records it, and replays it`() throws {
        let folder = try temporaryFolder([
            "m.lua": """
            test("one mirrored screen", function()
              local screen = stackplay.screen { mirror = true }
              local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, x = 20, width = 300 }
              expect(screen:mirrored()):to_be_truthy()
              expect(screen:settings().layout_direction):to_equal("ltr")
              expect(screen:dump()):to_contain("rtl, reduce motion off, dynamic type large, mirrored")
              expect(wallet:frame().x):to_equal(20)
              screen:tap(30, wallet:card("amex").y + 5); screen:settle()
              expect(wallet:selection()):to_equal("amex")
            end)
            test("a plain screen", function()
              local screen = stackplay.screen {}
              expect(screen:mirrored()):to_be_falsy()
              screen:wallet_card_stack { items = { "visa" } }:tap("visa")
            end)
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces")
        let run = try stackplay(arguments: ["--trace", traces.path, "m.lua"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: traces.path).sorted()
        #expect(files.count == 2)
        let texts = try files.map {
            try String(contentsOf: traces.appendingPathComponent($0), encoding: .utf8)
        }
        let mirrored = try #require(
            texts.first { $0.contains("one mirrored screen") || $0.contains("\"mirror\":true") })
        #expect(
            mirrored.contains(
                "\"layout_direction\":\"ltr\",\"reduce_motion\":false,\"dynamic_type\":\"large\",\"now\":0,\"mirror\":true}"
            ))
        #expect(texts.filter { $0.contains("\"mirror\"") }.count == 1)
        // The script's world is in the trace: the tap at x 30, where the script put it.
        #expect(mirrored.contains("\"type\":\"touch_down\",\"touch\":1,\"x\":30,"))
        let replay = try stackplay(arguments: ["replay"] + files.map { "traces/\($0)" }, in: folder)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("2 replayed, 0 failed"))
    }
}
