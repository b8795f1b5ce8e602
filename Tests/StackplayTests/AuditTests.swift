import Foundation
import Testing

/// The accessibility audit end to end: `screen:audit`, `to_pass_audit`, `--audit[=TYPES]`, the
/// config's allow-list, and the issues in every reporter and in the SVG frames.
@Suite struct AuditEndToEndTests {
    /// One screen with a known issue of each applicable type, and a clean one.
    static let known = """
        test("a card too short to hit", function()
          local screen = stackplay.screen {}
          screen:wallet_card_stack { items = { "a", "b" }, card_height = 30, x = 20, y = 100 }
          local issues = screen:audit { types = { "hit_region" } }
          expect(#issues):to_equal(2)
          local first = issues[1]
          expect({ first.type, first.rule, first.element, first.component }):to_equal {
            "hit_region", "too_small", "card:a", "wallet" }
          expect(first.frame):to_equal { x = 20, y = 100, width = 350, height = 30 }
          expect(first.compact):to_equal("350 × 30 pt on screen, under 44 × 44 pt")
          expect(first.time):to_equal(0)
        end)
        test("an unlabeled item", function()
          local screen = stackplay.screen {}
          screen:notification_stack { items = { { id = "x", label = "" }, "note_7" }, expanded = true }
          local issues = screen:audit { types = { "sufficient_description" } }
          expect({ issues[1].rule, issues[1].element }):to_equal { "empty_label", "card:x" }
          expect({ issues[2].rule, issues[2].element }):to_equal { "raw_id_label", "card:note_7" }
        end)
        test("a wallet overflowing at AX5", function()
          local screen = stackplay.screen { dynamic_type = "AX5" }
          screen:wallet_card_stack { items = { "a", "b", "c", "d", "e", "f" }, height = 1200, x = 20, y = 0 }
          local issues = screen:audit { types = { "dynamic_type" } }
          expect(#issues):to_equal(2)
          expect({ issues[2].type, issues[2].rule, issues[2].element }):to_equal {
            "dynamic_type", "pushed_off_screen", "card:f" }
          expect(issues[2].frame):to_equal { x = 20, y = 5 * 64 * 53 / 17, width = 350, height = 200 }
        end)
        test("Clear without onDismiss", function()
          local screen = stackplay.screen {}
          screen:notification_stack { items = { "maya", "design" }, expanded = true }
          local issues = screen:audit { types = { "action" } }
          expect({ issues[1].type, issues[1].element }):to_equal { "action", "card:maya" }
          expect(screen):to_pass_audit { allow = { { type = "action", element = "card:*" } } }
        end)
        test("a clean screen passes", function()
          local screen = stackplay.screen {}
          local wallet = screen:wallet_card_stack { items = { "everyday", "savings", "travel" } }
          screen:notification_stack { items = { "messages", "mail" }, y = 700, width = 390 }
          expect(#screen:audit()):to_equal(0)
          expect(screen):to_pass_audit()
          wallet:tap("savings"); screen:settle()
          expect(screen):to_pass_audit { types = { "hit_region", "trait", "action", "dynamic_type" } }
        end)
        """

    @Test func `screen:audit finds each known issue with its type, element and frame; a clean screen passes`()
        throws
    {
        let folder = try temporaryFolder(["known.lua": Self.known])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["known.lua"], in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("5 passed, 0 failed"))
    }

    static let failing = """
        test("a short card", function()
          local screen = stackplay.screen {}
          local wallet = screen:wallet_card_stack { items = { "a", "b" }, card_height = 30 }
          expect(#screen:audit()):to_equal(2)
          expect(screen):to_pass_audit() -- the failing line
        end)
        """

    @Test func `to_pass_audit fails with every issue listed and the state dump`() throws {
        let folder = try temporaryFolder(["f.lua": Self.failing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["f.lua", "--json"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"kind\":\"failure\""))
        #expect(
            run.stdout.contains(
                "\"audit\":[{\"type\":\"hit_region\",\"rule\":\"too_small\",\"component\":\"wallet\""))
        #expect(run.stdout.contains("\"element\":\"card:b\""))
        // `stackplay merge` keeps them.
        try run.stdout.write(
            to: folder.appendingPathComponent("shard.json"), atomically: true, encoding: .utf8)
        let merged = try stackplay(arguments: ["merge", "shard.json", "--json"], in: folder)
        #expect(merged.stdout.contains("\"audit\":[{\"type\":\"hit_region\",\"rule\":\"too_small\""))
        let human = try stackplay(arguments: ["f.lua"], in: folder)
        #expect(
            human.stderr.contains("f.lua:5: the screen's accessibility audit found 2 accessibility issues"))
        #expect(
            human.stderr.contains(
                "  - hit_region card:a of wallet_card_stack 'wallet' at t = 0 s (x 20 y 0 w 350 h 30)"))
        #expect(human.stderr.contains("  - hit_region card:b of wallet_card_stack"))
        #expect(human.stderr.contains("state when it failed:"))
        #expect(human.stderr.contains("card b: x 20 y 64 w 350 h 30"))
    }

    static let steps = """
        test("the pile opens", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = { "messages", "mail" } }
          stack:tap(); screen:settle()
          print("after the first settle")
          stack:tap("Show less") -- not reached
        end)
        test("a card too short", function()
          local screen = stackplay.screen {}
          local wallet = screen:wallet_card_stack { items = { "a", "b" }, card_height = 30 }
          pcall(function() wallet:tap("a") end)
          pcall(function() screen:settle() end)
        end)
        """

    @Test func `--audit fails a test at the first step with an issue, naming the step and its line`() throws {
        let folder = try temporaryFolder(["s.lua": Self.steps])
        defer { try? FileManager.default.removeItem(at: folder) }
        // Strict: the seeds' own findings fail as any other (without it they are known, below).
        let run = try stackplay(arguments: ["--audit=strict", "s.lua", "--tap"], in: folder)
        #expect(run.status == 1)
        // The open pile offers Clear on cards its owner cannot dismiss: found after the tap.
        #expect(run.stdout.contains("not ok 1 - s.lua: the pile opens"))
        #expect(
            run.stdout.contains(
                "message: \"s.lua:4: audit after 'tap' (a finger came up at t = 0 s): 2 accessibility issues")
        )
        #expect(!run.stdout.contains("after the first settle"))
        #expect(run.stdout.contains("  audit:\n    - type: \"action\"\n      rule: \"does_nothing\""))
        // A pcall cannot keep the test from failing.
        #expect(run.stdout.contains("not ok 2 - s.lua: a card too short"))
        #expect(run.stdout.contains("s.lua:12: audit after 'settle'"))
        // Only the types asked for: the open pile's cards pass hit_region.
        let only = try stackplay(arguments: ["--audit=hit_region", "s.lua", "--filter", "pile"], in: folder)
        #expect(only.status == 0, "\(only.stderr)")
        // The allow-list of .stackplay.lua.
        let config = """
            return { audit = { allow = { { type = "action", kind = "notification_stack", rule = "does_nothing" } } } }
            """
        try config.write(
            to: folder.appendingPathComponent(".stackplay.lua"), atomically: true, encoding: .utf8)
        let allowed = try stackplay(arguments: ["--audit=strict", "s.lua", "--filter", "pile"], in: folder)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test func `issues go to JUnit, are outlined in the failing SVG frame and listed in the viewer`() throws {
        let folder = try temporaryFolder(["f.lua": Self.failing])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["f.lua", "--junit", "out/j.xml", "--artifacts", "out"], in: folder)
        #expect(run.status == 1)
        let junit = try String(contentsOf: folder.appendingPathComponent("out/j.xml"), encoding: .utf8)
        #expect(junit.contains("<property name=\"audit\" value=\"hit_region card:a of wallet_card_stack"))
        let svgs = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("out").path
        )
        .filter { $0.hasSuffix(".svg") }
        #expect(svgs.count == 1)
        let svg = try String(contentsOf: folder.appendingPathComponent("out/" + svgs[0]), encoding: .utf8)
        #expect(
            svg.contains(
                "<g class=\"audit-issue\" data-type=\"hit_region\" data-rule=\"too_small\" data-element=\"card:a\"><rect x=\"20\" y=\"0\" width=\"350\" height=\"30\""
            ))
        let html = try String(contentsOf: folder.appendingPathComponent("out/report.html"), encoding: .utf8)
        #expect(html.contains("hit_region card:a of wallet_card_stack 'wallet' at t = 0 s"))
    }

    @Test func `the scenarios pass --audit with the seeds' findings known, and fail with --audit=strict`()
        throws
    {
        let run = try stackplay("--audit", "scripts")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("known: 2 accessibility findings of the seed components"), "\(run.stdout)")
        let folder = try temporaryFolder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let wallet = packageRoot.appendingPathComponent("scripts/wallet.lua").path
        let bare = try stackplay(arguments: ["--audit=strict", wallet], in: folder)
        #expect(bare.status == 1)
        #expect(bare.stderr.contains("element_detection card:"))
        #expect(bare.stderr.contains("a touch reaches it (350 × 14 pt), VoiceOver hides it"))
    }

    @Test func `contrast and text_clipped are refused with the reason, and --audit goes with runs only`()
        throws
    {
        let contrast = try stackplay("--audit=contrast", "scripts")
        #expect(contrast.status == 64)
        #expect(
            contrast.stderr.contains("'contrast' cannot be audited headlessly: stackplay draws no colours"))
        let typo = try stackplay("--audit=hit_regon", "scripts")
        #expect(typo.stderr.contains("unknown audit type 'hit_regon' (did you mean 'hit_region'?)"))
        let check = try stackplay("check", "--audit", "scripts")
        #expect(check.status == 64)
        #expect(
            check.stderr.contains(
                "'--audit' goes with running scripts and 'stackplay mutate', not with 'stackplay check'"))
        let folder = try temporaryFolder([
            ".stackplay.lua": "return { audit = { types = { \"text_clipped\" } } }",
            "a.lua": "test('x', function() end)",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try stackplay(arguments: ["a.lua"], in: folder)
        #expect(config.status == 64)
        #expect(
            config.stderr.contains(
                ".stackplay.lua: 'audit': field 'types': 'text_clipped' cannot be audited headlessly"))
    }

    @Test func `stackplay check knows the audit's option names`() throws {
        let folder = try temporaryFolder([
            "c.lua":
                "local s = stackplay.screen {}\nlocal i = s:audit { typs = 1 }\nexpect(s):to_pass_audit { alow = {} }\n"
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["check", "c.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("c.lua:2: unknown option 'typs' of audit (did you mean 'types'?)"))
        #expect(
            run.stderr.contains("c.lua:3: unknown option 'alow' of to_pass_audit (did you mean 'allow'?)"))
    }
}
