import Foundation
import Testing

/// `expect(screen):to_match_trace(path)`: a scenario compares its own recorded run with a golden
/// trace, records it when it is missing or with `--update`, and fails naming the field.
@Suite("Golden traces from scenarios")
struct GoldenInScriptTests {
    static let script = """
        test("W4 the wallet opens and closes the same way every time", function()
          local screen = stackplay.screen { record = true }
          local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, y = 0, height = 600 }
          wallet:tap("amex")
          screen:settle()
          expect(screen):to_match_trace("golden/wallet.jsonl")
        end)

        test("a screen that is not recorded cannot be compared", function()
          local screen = stackplay.screen {}
          expect(function() expect(screen):to_match_trace("golden/x.jsonl") end):to_raise("not recorded")
        end)
        """

    @Test("R2 a missing golden trace is recorded and named, then the same run matches it")
    func recordThenMatch() throws {
        let folder = try temporaryFolder(["golden.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stackplayRecording(["golden.lua"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("stackplay: wrote the golden trace golden/wallet.jsonl"))
        let written = try String(
            contentsOf: folder.appendingPathComponent("golden/wallet.jsonl"), encoding: .utf8)
        #expect(written.hasPrefix("{\"format\":\"stackplay-trace\""))

        let second = try stackplayRecording(["golden.lua"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("wrote"))
        #expect(second.stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test("R2 a golden trace edited by 5 pt fails on that event, names the field; --update records it again")
    func editedGoldenFails() throws {
        let folder = try temporaryFolder(["golden.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try stackplayRecording(["golden.lua"], in: folder)
        let url = folder.appendingPathComponent("golden/wallet.jsonl")
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        // The last event's frame: amex back on top at y 0 after the selection settled.
        let last = lines.count - 1
        let edited = lines[last].replacingOccurrences(
            of: "{\"id\":\"amex\",\"x\":20,\"y\":0,", with: "{\"id\":\"amex\",\"x\":20,\"y\":5,")
        #expect(edited != lines[last])
        lines[last] = edited
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)

        let run = try stackplayRecording(["golden.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("golden.lua:6: the screen's trace differs from golden/wallet.jsonl"))
        #expect(run.stderr.contains("card 'amex', field 'y'"))
        #expect(run.stderr.contains("run again with --update"))

        let update = try stackplayRecording(["--update", "golden.lua"], in: folder)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr.contains("stackplay: wrote the golden trace golden/wallet.jsonl"))
        #expect(try stackplayRecording(["golden.lua"], in: folder).status == 0)
    }
}
