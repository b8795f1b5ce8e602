import Foundation
import Testing

/// End-to-end: one golden mechanism for `--golden DIR` and `to_match_trace`: the same tolerance,
/// missing and extra screens fail, `--ci` and `CI` refuse to record, names never collide.
@Suite struct GoldenTests {
    /// Two tests whose names sanitise to the same readable stem, making different screens.
    static let twins = """
        test("Swipe left", function()
          local screen = stackplay.screen { record = true }
          screen:wallet_card_stack { items = { "visa", "amex" }, y = 0, height = 600 }
          screen:advance(0.1)
        end)
        test("swipe-left", function()
          local screen = stackplay.screen { record = true }
          screen:wallet_card_stack { items = { "visa", "amex", "mc" }, y = 0, height = 600 }
          screen:advance(0.2)
        end)
        """

    /// A test whose number of screens comes from the `SCREENS` global set by a second file.
    static func screens(_ count: Int) -> String {
        """
        test("screens", function()
          for i = 1, \(count) do
            local screen = stackplay.screen { record = true }
            screen:advance(0.1 * i)
          end
        end)
        """
    }

    /// One test that records a screen and compares it with the golden trace `path`.
    static func scene(_ path: String) -> String {
        """
        test("scene", function()
          local screen = stackplay.screen { record = true }
          screen:advance(0.5)
          expect(screen):to_match_trace("\(path)")
        end)
        """
    }

    @Test("tests whose names sanitise alike get their own golden traces, and both pass again")
    func namesDoNotCollide() throws {
        let folder = try temporaryFolder(["twins.lua": Self.twins])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try stackplayRecording(["--golden", "golden", "twins.lua"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("golden").path)
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.hasPrefix("twins-lua--swipe-left-") && $0.hasSuffix(".jsonl") })
        let second = try stackplay(arguments: ["--golden", "golden", "twins.lua"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr == "")
    }

    @Test("scripts a/b-lua.lua and a/b/lua.lua write different traces")
    func pathsDoNotCollide() throws {
        let script = "test('t', function() local s = stackplay.screen { record = true } s:advance(%@) end)"
        let folder = try temporaryFolder([
            "a/b-lua.lua": script.replacingOccurrences(of: "%@", with: "0.1"),
            "a/b/lua.lua": script.replacingOccurrences(of: "%@", with: "0.2"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--trace", "traces", "a"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("traces").path)
        #expect(files.count == 2, "\(files)")
    }

    @Test(
        "with --ci or a non-empty CI, a missing golden trace fails and nothing is written",
        arguments: [(["--ci"], [String: String]()), ([], ["CI": "true"])])
    func ciRefusesToRecord(_ flags: [String], _ environment: [String: String]) throws {
        let folder = try temporaryFolder([
            "twins.lua": Self.twins,
            "scene.lua": Self.scene("golden/scene.jsonl"),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = try stackplay(
            arguments: flags + ["--golden", "golden-dir", "twins.lua"], in: folder, environment: environment)
        #expect(dir.status == 1)
        #expect(dir.stderr.contains("golden trace golden-dir/twins-lua--swipe-left-"))
        #expect(dir.stderr.contains(".jsonl is missing; run without CI/--ci or with --update to record it"))
        #expect(dir.stdout.hasSuffix("0 passed, 2 failed\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("golden-dir").path))

        let scene = try stackplay(arguments: flags + ["scene.lua"], in: folder, environment: environment)
        #expect(scene.status == 1)
        #expect(
            scene.stderr.contains(
                "scene.lua:4: the screen's trace differs from golden/scene.jsonl\n"
                    + "  golden trace golden/scene.jsonl is missing; run without CI/--ci or with --update to record it"
            ))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("golden").path))

        // --update records, in CI too.
        let update = try stackplay(
            arguments: flags + ["--update", "scene.lua"], in: folder, environment: environment)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr == "stackplay: wrote the golden trace golden/scene.jsonl\n")
    }

    @Test("a golden folder with a screen more or less than the run fails; --update records the screens anew")
    func missingAndExtraScreens() throws {
        let folder = try temporaryFolder(["two.lua": Self.screens(2)])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplayRecording(["--golden", "g", "two.lua"], in: folder).status == 0)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("g").path
        ).sorted()
        #expect(names.count == 2)
        #expect(names[0].hasSuffix(".2.jsonl"))

        // One screen fewer: the golden trace's second screen is missing from the run.
        try Self.screens(1).write(
            to: folder.appendingPathComponent("two.lua"), atomically: true, encoding: .utf8)
        let fewer = try stackplayRecording(["--golden", "g", "two.lua"], in: folder)
        #expect(fewer.status == 1)
        #expect(
            fewer.stderr.contains("the run does not match its golden traces:\nthe golden trace g/\(names[0])")
        )
        #expect(fewer.stderr.contains("has a screen this run did not make (it made 1)"))

        // One screen more: the third screen has no golden trace, and it is not recorded silently.
        try Self.screens(3).write(
            to: folder.appendingPathComponent("two.lua"), atomically: true, encoding: .utf8)
        let more = try stackplayRecording(["--golden", "g", "two.lua"], in: folder)
        #expect(more.status == 1)
        #expect(more.stderr.contains("this run made screen 3, which has no golden trace"))
        #expect(!more.stderr.contains("wrote"))

        // --update records three, then one (the stale second and third are removed).
        #expect(try stackplayRecording(["--golden", "g", "--update", "two.lua"], in: folder).status == 0)
        try Self.screens(1).write(
            to: folder.appendingPathComponent("two.lua"), atomically: true, encoding: .utf8)
        #expect(try stackplayRecording(["--golden", "g", "--update", "two.lua"], in: folder).status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("g").path).count
                == 1)
        #expect(try stackplay(arguments: ["--golden", "g", "two.lua"], in: folder).status == 0)
    }

    @Test("both mechanisms compare exactly by default and forgive --tolerance X; diffs read like replay's")
    func oneToleranceRule() throws {
        let script = """
            test("scene", function()
              local screen = stackplay.screen { record = true }
              local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, y = 0, height = 600 }
              wallet:tap("amex")
              screen:settle()
              expect(screen):to_match_trace("golden/scene.jsonl")
            end)
            """
        let folder = try temporaryFolder(["scene.lua": script])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try stackplayRecording(["--golden", "dir", "scene.lua"], in: folder).status == 0)
        let inScript = folder.appendingPathComponent("golden/scene.jsonl")
        let dirFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("dir").path)
                .first)
        let inDir = folder.appendingPathComponent("dir/\(dirFile)")
        // Both golden traces get amex's resting y nudged by 1e-7.
        for url in [inScript, inDir] {
            let text = try String(contentsOf: url, encoding: .utf8)
            let nudged = text.replacingOccurrences(
                of: "{\"id\":\"amex\",\"x\":20,\"y\":0,", with: "{\"id\":\"amex\",\"x\":20,\"y\":1e-7,")
            #expect(nudged != text)
            try nudged.write(to: url, atomically: true, encoding: .utf8)
        }
        let exact = try stackplay(arguments: ["--golden", "dir", "scene.lua"], in: folder)
        #expect(exact.status == 1)
        // Each failure names the golden file's line, the event, the card, the field and both values.
        let differences = exact.stderr.matches(
            of:
                /([^ \n]+):\d+: event \d+ \([a-z_]+ at t = [0-9.]+ s\) of the (tap|settle) at scene.lua:(4|5) \((wallet:tap\("amex"\)|screen:settle\(\))\): component 'wallet', card 'amex', field 'y' differs/
        )
        #expect(differences.map { String($0.1) }.sorted() == ["dir/\(dirFile)", "golden/scene.jsonl"])
        #expect(exact.stderr.contains("expected: 1e-7") || exact.stderr.contains("expected: 1e-07"))
        #expect(exact.stderr.contains("  actual: 0"))
        let forgiving = try stackplay(
            arguments: ["--golden", "dir", "--tolerance", "1e-6", "scene.lua"], in: folder)
        #expect(forgiving.status == 0, "\(forgiving.stderr)")
    }
}
