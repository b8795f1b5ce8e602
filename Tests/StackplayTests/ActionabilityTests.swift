import Foundation
import Testing

/// Gestures by card id through the binary: aimed where a touch reaches the card, `force` to skip
/// the check, and a covered card's failure naming what covers it at the script's line.
@Suite struct ActionabilityTests {
    @Test func aCoveredCardFailsItsTestNamingTheCoverAndTheLine() throws {
        let run = try stackplay("\(fixtures)/actionability/gestures.lua")
        #expect(run.status == 1)
        #expect(run.stdout.contains("  ok   a partly covered card is tapped where it shows\n"))
        #expect(run.stdout.contains("  ok   force taps the covered card's place, and the cover takes it\n"))
        #expect(run.stdout.contains("  FAIL a covered card cannot be tapped\n"))
        #expect(run.stdout.hasSuffix("2 passed, 1 failed\n"))
        #expect(
            run.stderr.contains(
                "\(fixtures)/actionability/gestures.lua:16: tap: card 'a' of wallet_card_stack 'wallet' cannot be touched: "
                    + "card 'c' covers it at (195, 100)\n"))
    }
}

/// No silent no-ops (issue 24 item 5), through the binary.
@Suite struct SilentNoOpTests {
    @Test func scrollUnderThePanThresholdReturnsZeroAndAFullOneItsDistance() throws {
        let run = try stackplay("\(fixtures)/actionability/no_ops.lua")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout.contains("  ok   scroll returns how far the content moved\n"))
        #expect(run.stdout.contains("      | moved 0 then 300\n"))
    }

    @Test func hiddenAccessibilityElementsAreListedAfterTheShownOnes() throws {
        let run = try stackplay("\(fixtures)/actionability/no_ops.lua")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  ok   hidden accessibility elements are listed with hidden = true\n"))
        #expect(
            run.stdout.contains("      | stack\tfalse\n      | card:mail\ttrue\n      | card:news\ttrue\n"))
    }

    @Test func aPressedWalletCardLetsGoWhenTheFingerLeavesIt() throws {
        let run = try stackplay("\(fixtures)/actionability/no_ops.lua")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  ok   a pressed wallet card lets go when the finger leaves it\n"))
        #expect(run.stdout.contains("      | down\t0.98\n      | away\t1.0\n"))
    }

    @Test func aCardLeftMidSwipeWhenTheStackClosesKeepsItsOffset() throws {
        let run = try stackplay("\(fixtures)/actionability/no_ops.lua")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  ok   a card left mid-swipe when the stack closes keeps its offset\n"))
        #expect(run.stdout.contains("      | reopened at\t-44.0\n"))
        #expect(run.stdout.hasSuffix("4 passed, 0 failed\n"))
    }

    @Test func componentsWithoutSizesFollowSetSizeAndTheirTracesReplay() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("follow-size-\(getpid())")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try stackplay("\(fixtures)/actionability/follow_size.lua", "--trace", out.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout.contains("      | wallet\t780.0\t1180.0\tfixed\t300.0\t400.0\n"))
        #expect(run.stdout.contains("      | stack\t788.0\tsticky\t810.0\t1160.0\n"))
        let traces = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(traces.count == 2)
        let text = try String(contentsOf: out.appendingPathComponent(traces[1]), encoding: .utf8)
        #expect(text.contains(#""type":"set_width","component":"wallet","width":780"#))
        #expect(text.contains(#""type":"set_height","component":"sticky","height":1160"#))
        #expect(!text.contains(#""component":"fixed""#))
        let replay = try stackplay(arguments: ["replay"] + traces.map { out.appendingPathComponent($0).path })
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.hasSuffix("2 replayed, 0 failed\n"))
        let mirrored = try stackplay("--mirror", "\(fixtures)/actionability/follow_size.lua")
        #expect(mirrored.status == 0, "\(mirrored.stderr)")
    }
}
