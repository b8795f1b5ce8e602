import Foundation
import Testing

/// End-to-end: `stackplay codegen TRACE` on a `--trace` output (a failing CI test's), on an
/// explore reproducer's trace, and on traces of every kind; the written test passes under
/// `stackplay` and `--mirror`, and its own trace ends in the trace's final frame.
@Suite struct CodegenCommandTests {
    /// The last event's time and frame of a trace file.
    static func finalFrame(_ path: URL) throws -> (time: Double, frame: Any?) {
        let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n")
        let events = try lines.dropFirst().compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["type"] != nil }
        guard let last = events.last else { return (0, nil) }
        return ((last["t"] as? Double) ?? 0, last["frame"])
    }

    /// Two JSON values equal, numbers within 1e-9.
    static func close(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (let x as NSNumber, let y as NSNumber):
            return abs(x.doubleValue - y.doubleValue) <= 1e-9 * max(1, abs(x.doubleValue), abs(y.doubleValue))
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { close($0, $1) }
        case (let x as [String: Any], let y as [String: Any]):
            return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { close(x[$0], y[$0]) }
        case (let x as String, let y as String): return x == y
        case (nil, nil), (is NSNull, is NSNull): return true
        default: return false
        }
    }

    /// Writes the test of `trace` (relative to `folder`), checks it passes plain and mirrored,
    /// and that its own trace ends in the frame `trace` ends in (the clock may differ: a drag
    /// written in no time where the finger took 0.1 s); returns its text.
    func writeAndCheck(_ trace: String, in folder: URL, name: String = "gen.lua") throws -> String {
        let written = try stackplay(arguments: ["codegen", trace, "-o", name, "--name", "t"], in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout == "")
        #expect(written.stderr == "stackplay: wrote \(name)\n")
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let run = try stackplay(arguments: [name, "--mirror", "--trace", "gen-traces"], in: folder)
        #expect(run.status == 0, "\(text)\n\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("2 passed, 0 failed\n"), "\(run.stdout)")
        let traces = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("gen-traces").path
        ).sorted()
        // the unmirrored run's trace, in the script's world as the original is
        let own = try #require(traces.first { !$0.contains("mirrored") })
        let original = try Self.finalFrame(folder.appendingPathComponent(trace))
        let replayed = try Self.finalFrame(folder.appendingPathComponent("gen-traces/" + own))
        #expect(Self.close(original.frame, replayed.frame), "the final frames differ: \(text)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("gen-traces"))
        return text
    }

    @Test func `a failing CI test's --trace output becomes a test that passes on the model`() throws {
        let folder = try temporaryFolder([
            "ci.lua": """
            test("a swipe past 110 pt", function()
              local screen = stackplay.screen { layout_direction = "rtl" }
              local stack = screen:notification_stack {
                items = { "messages", "calendar", "mail" }, dismissible = true, title = "Alerts",
              }
              stack:tap(); screen:settle()
              stack:drag("calendar", { x = 140 })
              screen:advance(0.2)
              expect(stack:ids()):to_equal { "messages", "calendar" }   -- wrong on purpose
            end)

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let failed = try stackplay(arguments: ["ci.lua", "--trace", "traces"], in: folder)
        #expect(failed.status == 1)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("traces").path)
                .first)
        let text = try writeAndCheck("traces/" + trace, in: folder)
        #expect(
            text.contains(
                """
                  local screen = stackplay.screen { layout_direction = "rtl" }
                  local stack = screen:notification_stack {
                    items = { "messages", "calendar", "mail" }, title = "Alerts", dismissible = true,
                  }
                  stack:tap()
                  screen:settle()
                  stack:drag("calendar", { x = 140 })
                  screen:advance(0.2)
                  expect(stack:ids()):to_equal { "messages", "mail" }
                """), "\(text)")
    }

    @Test func `a recorded screen's screen:trace() becomes a test`() throws {
        let folder = try temporaryFolder([
            "r.lua": """
            local screen = stackplay.screen { record = true, reduce_motion = true }
            local wallet = screen:wallet_card_stack { items = { "everyday", "savings", "travel" }, y = 40 }
            wallet:tap("savings"); screen:settle()
            screen:escape(); screen:settle()
            wallet:tap("travel", { duration = 0.3 })
            screen:set_reduce_motion(false); screen:advance(0.1)
            print(screen:trace())

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["r.lua", "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let test = try #require((report["tests"] as? [[String: Any]])?.first)
        // print adds a line end to the trace's own last one
        let output = String(try #require(test["output"] as? String).dropLast())
        try output.write(
            to: folder.appendingPathComponent("recorded.jsonl"), atomically: false, encoding: .utf8)
        let text = try writeAndCheck("recorded.jsonl", in: folder)
        #expect(
            text.contains(
                """
                  local screen = stackplay.screen { reduce_motion = true }
                  local wallet = screen:wallet_card_stack {
                    items = { "everyday", "savings", "travel" }, y = 40,
                  }
                  wallet:tap("savings")
                  screen:escape()
                  wallet:tap("travel", { duration = 0.3 })
                  screen:set_reduce_motion(false)
                  screen:advance(0.1)
                  expect(wallet:ids()):to_equal { "everyday", "savings", "travel" }
                  expect(wallet:selection()):to_equal("travel")
                """), "\(text)")
    }

    @Test func `an explore reproducer's trace becomes a plain test`() throws {
        let folder = try temporaryFolder([
            "planted.lua": ExploreTests.planted.replacingOccurrences(
                of: "  invariants = {", with: "  actions = { accessibility = 0 },\n  invariants = {")
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let explored = try stackplay(
            arguments: ["explore", "planted.lua", "--seed", "7", "--out", "out"], in: folder)
        #expect(explored.status == 1)
        let text = try writeAndCheck("out/no_card_is_ever_dismissed.jsonl", in: folder)
        // the explorer's shrunk swipe, just past the 110 pt threshold, written as a drag of its card
        #expect(text.contains("stack:drag(\"messages\", { x = -110.5 })\n"), "\(text)")
        #expect(text.contains("expect(stack:ids()):to_equal { \"calendar\", \"mail\", \"fitness\" }"))
    }

    @Test func `the scenarios' traces of every kind are written back as tests that pass`() throws {
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces")
        for script in ["scripts/wallet.lua", "scripts/sticky_cards.lua", "scripts/voiceover.lua"] {
            let run = try stackplay(arguments: [script, "--trace", traces.path])
            #expect(run.status == 0)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: traces.path).sorted()
        #expect(names.count > 20)
        var texts = ""
        for (index, name) in names.enumerated() {
            texts += try writeAndCheck("traces/" + name, in: folder, name: "gen-\(index).lua")
        }
        #expect(texts.contains("wallet:tap(\""))
        #expect(texts.contains(":scroll("))
    }

    @Test
    func
        `components made with items alone are written with items alone: codegen knows the factories' defaults`()
        throws
    {
        let folder = try temporaryFolder([
            "d.lua": """
            local screen = stackplay.screen { width = 500, height = 700, layout_direction = "rtl" }
            screen:notification_stack { items = { "a", "b" } }
            screen:wallet_card_stack { items = { "c", "d" } }
            screen:sticky_stacked_cards { items = { "e", "f" } }
            screen:set_size { width = 420, height = 800 }
            screen:settle()

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["d.lua", "--trace", "t"], in: folder).status == 0)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("t").path).first
        )
        let text = try writeAndCheck("t/" + trace, in: folder)
        #expect(
            text.contains(
                """
                  local screen = stackplay.screen { width = 500, height = 700, layout_direction = "rtl" }
                  local stack = screen:notification_stack {
                    items = { "a", "b" },
                  }
                  local wallet = screen:wallet_card_stack {
                    items = { "c", "d" },
                  }
                  local cards = screen:sticky_stacked_cards {
                    items = { "e", "f" },
                  }
                  screen:set_size { width = 420, height = 800 }

                """), "\(text)")
    }

    @Test func `usage: one trace, never over an existing file without --force, '-' is stdout`() throws {
        let folder = try temporaryFolder([
            "x.lua": "local screen = stackplay.screen {}\nscreen:advance(0.5)\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplay(arguments: ["x.lua", "--trace", "t"], in: folder).status == 0)
        let trace =
            "t/"
            + (try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("t").path)[0])

        let none = try stackplay(arguments: ["codegen"], in: folder)
        #expect(none.status == 64)
        #expect(none.stderr.contains("codegen needs a trace"))
        let two = try stackplay(arguments: ["codegen", trace, trace], in: folder)
        #expect(two.status == 64)

        let stdout = try stackplay(
            arguments: ["codegen", trace, "-o", "-", "--name", "half a second"], in: folder)
        #expect(stdout.status == 0)
        #expect(
            stdout.stdout.contains(
                "test(\"half a second\", function()\n  local screen = stackplay.screen {}\n  screen:advance(0.5)\nend)\n"
            ))
        #expect(stdout.stderr == "")

        let existing = try stackplay(arguments: ["codegen", trace, "-o", "x.lua"], in: folder)
        #expect(existing.status == 64)
        #expect(existing.stderr.contains("x.lua already exists: give --force to write over it"))
        #expect(
            try String(contentsOf: folder.appendingPathComponent("x.lua"), encoding: .utf8).hasPrefix(
                "local screen"))
        let forced = try stackplay(arguments: ["codegen", trace, "-o", "x.lua", "--force"], in: folder)
        #expect(forced.status == 0)
        #expect(
            try String(contentsOf: folder.appendingPathComponent("x.lua"), encoding: .utf8).contains("test("))

        let broken = try temporaryFolder(["bad.jsonl": "{\"format\":\"stackplay-trace\",\"version\":9}\n"])
        defer { try? FileManager.default.removeItem(at: broken) }
        let bad = try stackplay(arguments: ["codegen", "bad.jsonl"], in: broken)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.jsonl:1: field 'version'"), "\(bad.stderr)")
        let scoped = try stackplay(arguments: ["codegen", trace, "--force", "--filter", "x"], in: folder)
        #expect(scoped.status == 64)
    }
}
