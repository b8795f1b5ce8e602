import Foundation
import Testing

/// A failed expectation names its likely cause: the last gesture before it on what it reads,
/// explained by the model's gate that decided (``GestureVerdict``), in the terminal, in `--json`
/// and in JUnit, the same line in each.
@Suite struct FailureCauseTests {
    static let script = """
        test("rtl: a swipe clears calendar", function()
          local screen = stackplay.screen { layout_direction = "rtl" }
          local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }
          stack:tap(); screen:settle()
          stack:drag("calendar", { x = -66.6 }); screen:settle()
          screen:advance(0.1)
          expect(stack:ids()):to_equal { "messages", "mail" }
        end)

        test("a long tap on the pile", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = { "messages", "calendar" } }
          stack:tap(nil, { duration = 0.9 }); screen:settle()
          expect(stack:state().expanded):to_equal(true)
        end)

        test("a swipe on the closed pile", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }
          stack:drag("messages", { x = -150 }, { force = true }); screen:settle()
          expect(stack:ids()):to_equal { "calendar", "mail" }
        end)

        test("a drag under the swipe's minimum distance", function()
          local screen = stackplay.screen {}
          local stack = screen:notification_stack { items = { "messages", "calendar" }, dismissible = true, expanded = true }
          stack:drag("calendar", { x = -15 }); screen:settle()
          expect(stack:ids()):to_equal { "messages" }
        end)

        test("a scroll under the pan threshold", function()
          local screen = stackplay.screen {}
          local sticky = screen:sticky_stacked_cards { items = { "a", "b", "c", "d", "e", "f", "g", "h" } }
          sticky:scroll(8)
          expect(sticky:state().scroll_offset):to_equal(8)
        end)

        test("a press held past the card's edge", function()
          local screen = stackplay.screen {}
          local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
          wallet:drag("visa", { x = 0, y = -400 })
          expect(wallet:selection()):to_equal "visa"
        end)

        test("no gesture, no cause", function()
          expect(1):to_equal(2)
        end)

        """

    static let rtlCause =
        "the drag at x.lua:5 moved 'calendar' 66.6 pt towards trailing; a notification card leaves only past "
        + "110 pt towards leading (rtl: x > 110)"

    static let causes = [
        rtlCause,
        "the tap at x.lua:13 stayed down 0.9 s, past a tap's 0.75 s limit: the pile stays closed",
        "the drag at x.lua:20 moved 150 pt on the closed pile: a swipe while the pile is closed moves no card "
            + "(its cards swipe only once it is open; tap it first), and a tap moves at most 45 pt",
        "the drag at x.lua:27 moved 'calendar' 15 pt, less than a swipe's 20 pt minimum distance: no swipe started",
        "the scroll at x.lua:34 moved 8 pt, under the scroll view's 10 pt pan threshold: the cards did not scroll",
        "the drag at x.lua:41 pressed 'visa' and was held past the card's edge: it lifted at 195, -304, outside "
            + "the card (x 20...370, y 64...264): the button does not fire",
    ]

    @Test func theTerminalNamesEachRuleUnderTheFailure() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.contains("0 passed, 7 failed"))
        for cause in Self.causes {
            #expect(run.stderr.contains("\n  likely cause: \(cause)\n"), "\(cause)")
        }
        // Under its failure: after the failing line and its diff, before the state dump.
        let failure = try #require(run.stderr.range(of: "x.lua:7: values differ"))
        let cause = try #require(run.stderr.range(of: "likely cause: " + Self.rtlCause))
        let dump = try #require(run.stderr.range(of: "state when it failed:"))
        #expect(failure.upperBound < cause.lowerBound && cause.upperBound < dump.lowerBound)
        #expect(!run.stderr.contains("x.lua:46: values differ\n  expected: 2\n    actual: 1\n  likely cause"))
        #expect(run.stderr.components(separatedBy: "likely cause:").count == Self.causes.count + 1)
    }

    @Test func aMirroredRunExplainsInTheScriptsWorld() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--mirror", "x.lua"], in: folder)
        #expect(run.status == 1)
        // The mirrored twin runs on an ltr screen; its script still wrote rtl and x = -66.6.
        for cause in [Self.rtlCause, Self.causes[5]] {
            #expect(
                run.stderr.components(separatedBy: "likely cause: " + cause + "\n").count == 3, "\(cause)")
        }
    }

    @Test func jsonCarriesTheCauseAndItsLine() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--json", "x.lua"], in: folder)
        #expect(run.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.count == 7)
        let first = tests[0]
        #expect(first["cause"] as? String == Self.rtlCause)
        #expect(first["cause_position"] as? String == "x.lua:5")
        #expect((first["message"] as? String)?.contains("\n  likely cause: " + Self.rtlCause) == true)
        #expect(tests.compactMap { $0["cause"] as? String } == Self.causes)
        #expect(tests[6]["cause"] == nil, "a failure without a gesture has no cause")
    }

    @Test func junitCarriesTheCauseUnderTheFailure() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--junit", "junit.xml", "x.lua"], in: folder)
        #expect(run.status == 1)
        let xml = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        let junit = try JUnit(file: folder.appendingPathComponent("junit.xml").path)
        let failure = try #require(junit.cases.first { $0.failure != nil }?.failure)
        #expect(failure.contains("\n  likely cause: " + Self.rtlCause + "\n"), "\(failure)")
        #expect(xml.contains("rtl: x &gt; 110)"))
    }

    @Test func theFailureSVGShowsTheCauseBeforeAndAfterWithItsFingersAndTheTestsName() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["--artifacts", "out", "x.lua"], in: folder)
        #expect(run.status == 1)
        let out = folder.appendingPathComponent("out")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out.path).first {
                $0.hasPrefix("x-lua--rtl-a-swipe-clears-calendar-") && $0.hasSuffix(".svg")
            })
        let svg = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
        #expect(svg.contains(">x.lua: rtl: a swipe clears calendar</text>"))
        #expect(svg.contains(">likely cause: " + Self.rtlCause.replacing(">", with: "&gt;") + "</text>"))
        #expect(svg.contains(">before drag at x.lua:5</text>"))
        #expect(svg.contains("<g class=\"before\"") && svg.contains("<g class=\"after\""))
        // The finger where it went down before, and its path and translation after.
        #expect(svg.components(separatedBy: "class=\"finger-spot\"").count == 3)
        #expect(svg.contains("<polyline") && svg.contains(">drag -66.6, 0</text>"))
        // Every failure with a likely cause gets such a picture.
        let plain = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out.path).first {
                $0.hasPrefix("x-lua--a-scroll-under") && $0.hasSuffix(".svg")
            })
        #expect(
            try String(contentsOf: out.appendingPathComponent(plain), encoding: .utf8).contains(
                "likely cause: the scroll at x.lua:34"))
    }

    @Test func renderAtMinusOneDrawsTheScreenAsBuilt() throws {
        let folder = try temporaryFolder(["x.lua": Self.script])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try stackplay(arguments: ["--trace", "traces", "x.lua"], in: folder)
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("traces").path
            ).first { $0.hasPrefix("x-lua--rtl-") })
        let run = try stackplay(arguments: ["render", "traces/" + trace, "--at", "-1"], in: folder)
        #expect(run.status == 0 && run.stderr == "")
        #expect(run.stdout.contains(">before any event, t = 0 s</text>"))
        #expect(run.stdout.contains("data-id=\"messages\""))
        let tooFar = try stackplay(arguments: ["render", "traces/" + trace, "--at", "-2"], in: folder)
        #expect(tooFar.status == 64)
        #expect(
            tooFar.stderr.contains("--at needs an event index >= 0, or -1 for the screen as built, not '-2'"))
    }

    @Test func aSwipeThatPassesTheThresholdIsNamedAsTheCauseInItsTerms() throws {
        let folder = try temporaryFolder([
            "x.lua": """
            test("ltr: the wrong card leaves", function()
              local screen = stackplay.screen {}
              local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }
              stack:tap(); screen:settle()
              stack:drag("mail", { x = -120 }); screen:settle()
              expect(stack:ids()):to_equal { "messages", "mail" }
            end)

            """
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(arguments: ["x.lua"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "  likely cause: the drag at x.lua:5 moved 'mail' 120 pt towards leading, past 110 pt: the card leaves\n"
            ))
    }
}
