import Foundation
import Testing

/// `--audit` out of the box: the seed components' own findings are known issues, listed in every
/// report and failing nothing; `--audit=strict` fails on them.
@Suite struct KnownAuditTests {
    /// An open pile: its cards offer Clear that does nothing (seed 000), a known finding.
    static let pile = """
        test("the pile opens", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = { "messages", "mail" } }
          stack:tap(); screen:settle()
          print("after the settle")
        end)
        """

    @Test func `the seeds' findings are known in every report and fail no test`() throws {
        let folder = try temporaryFolder(["s.lua": Self.pile])
        defer { try? FileManager.default.removeItem(at: folder) }
        let human = try stackplay(arguments: ["--audit", "s.lua"], in: folder)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("  ok   the pile opens\n      | after the settle\n"))
        #expect(
            human.stdout.contains(
                "known: 1 accessibility finding of the seed components (docs/audit.md; they fail no test, "
                    + "--audit=strict fails on them):\n  known action does_nothing on notification_stack card:* "
                    + "(seed 000: .accessibilityAction(named: \"Clear\") { if isSwipeable { onDismiss() } }) (1 test)\n"
                    + "1 passed, 0 failed"), "\(human.stdout)")
        #expect(human.stderr.isEmpty)

        let tap = try stackplay(arguments: ["--audit", "--tap", "s.lua"], in: folder)
        #expect(tap.status == 0)
        #expect(
            tap.stdout.contains(
                "ok 1 - s.lua: the pile opens\n  ---\n  audit_known:\n    - type: \"action\"\n      rule: \"does_nothing\""
            ), "\(tap.stdout)")
        #expect(tap.stdout.contains("      element: \"card:messages\""))
        #expect(tap.stdout.contains("      element: \"card:mail\""))

        let json = try stackplay(arguments: ["--audit", "--json", "s.lua", "--junit", "j.xml"], in: folder)
        #expect(json.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let test = try #require((document["tests"] as? [[String: Any]])?.first)
        #expect(test["status"] as? String == "passed")
        #expect((test["audit"] as? [Any])?.isEmpty == true)
        let known = try #require(test["audit_known"] as? [[String: Any]])
        #expect(known.map { $0["element"] as? String } == ["card:messages", "card:mail"])
        #expect(
            known.allSatisfy {
                $0["rule"] as? String == "does_nothing" && $0["kind"] as? String == "notification_stack"
            })
        let junit = try String(contentsOf: folder.appendingPathComponent("j.xml"), encoding: .utf8)
        #expect(
            junit.contains(
                "      <properties>\n        <property name=\"audit_known\" value=\"action card:messages of notification_stack 'notifications'"
            ), "\(junit)")
        #expect(junit.contains("<system-out>after the settle\n</system-out>\n    </testcase>"))
        #expect(!junit.contains("<failure"))

        // Without --audit nothing is audited, and the JSON record has no audit_known.
        let plain = try stackplay(arguments: ["--json", "s.lua"], in: folder)
        #expect(!plain.stdout.contains("audit_known"))
    }

    @Test func `--audit=strict fails on the seeds' findings, with or without types`() throws {
        let folder = try temporaryFolder(["s.lua": Self.pile])
        defer { try? FileManager.default.removeItem(at: folder) }
        for flag in ["--audit=strict", "--audit=strict,action", "--audit=action,strict"] {
            let run = try stackplay(arguments: [flag, "s.lua"], in: folder)
            #expect(run.status == 1, "\(flag)")
            #expect(
                run.stderr.contains(
                    "s.lua:4: audit after 'tap' (a finger came up at t = 0 s): 2 accessibility issues"))
            #expect(!run.stdout.contains("known:"))
        }
        // A type that finds nothing here passes under strict too.
        let hit = try stackplay(arguments: ["--audit=strict,trait", "s.lua"], in: folder)
        #expect(hit.status == 0, "\(hit.stderr)")
        let bad = try stackplay(arguments: ["--audit=strict,strcit", "s.lua"], in: folder)
        #expect(bad.status == 64)
    }

    @Test func `an issue that is not a seed finding still fails under --audit, next to the known ones`()
        throws
    {
        let folder = try temporaryFolder([
            "s.lua": """
            test("a card too short", function()
              local screen = stackplay.screen {}
              local wallet = screen:wallet_card_stack { items = { "a", "b" }, card_height = 30, selection = "a" }
              screen:advance(0.1)
            end)
            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--audit", "s.lua", "--json"], in: folder)
        #expect(run.status == 1)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let test = try #require((document["tests"] as? [[String: Any]])?.first)
        let failing = try #require(test["audit"] as? [[String: Any]])
        #expect(failing.contains { $0["rule"] as? String == "too_small" })
        #expect(!failing.contains { $0["rule"] as? String == "hidden_hittable" })
        let known = try #require(test["audit_known"] as? [[String: Any]], "\(test)")
        #expect(known.map { $0["element"] as? String } == ["card:b"])
        #expect(known.allSatisfy { $0["rule"] as? String == "hidden_hittable" })
    }
}
