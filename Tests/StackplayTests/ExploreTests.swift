import Foundation
import Testing

/// End-to-end: `stackplay explore` finds a planted false invariant, shrinks it to the gestures
/// that matter, writes a scenario that fails the same way under `stackplay`, and does it all
/// again byte for byte with the same seed.
@Suite struct ExploreTests {
    /// "No card is ever dismissed" is false for a dismissible stack: open the pile, swipe past 110 pt.
    static let planted = """
        local stack
        explore("no card is ever dismissed", {
          setup = function()
            local screen = stackplay.screen {}
            stack = screen:notification_stack {
              items = { "messages", "calendar", "mail", "fitness" }, card_height = 70, dismissible = true,
            }
            return screen
          end,
          invariants = {
            ["nothing is dismissed"] = function()
              return #stack:dismissed() == 0, "dismissed: " .. table.concat(stack:dismissed(), ", ")
            end,
          },
        })

        """

    /// The numbered steps of a report: `    1. screen:tap(195, 22)`.
    static func steps(_ report: String) -> [String] {
        report.split(separator: "\n").map(String.init).filter { line in
            let trimmed = line.drop { $0 == " " }
            return line.hasPrefix("    ") && !line.hasPrefix("         ") && trimmed.first?.isNumber == true
                && trimmed.contains(". ")
        }
    }

    @Test(
        "a planted false invariant fails, shrinks to at most three gestures, and the scenario fails with stackplay"
    )
    func plantedInvariant() throws {
        let withoutClear = Self.planted.replacingOccurrences(
            of: "  invariants = {", with: "  actions = { accessibility = 0 },\n  invariants = {")
        let folder = try temporaryFolder(["planted.lua": withoutClear])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["explore", "planted.lua", "--seed", "7", "--out", "out"], in: folder)
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("exploring with seed 7"))
        #expect(
            run.stdout.contains(
                "FAIL no card is ever dismissed (planted.lua:2): the invariant 'nothing is dismissed' broke"))
        let steps = Self.steps(run.stdout)
        #expect((1...3).contains(steps.count), "\(run.stdout)")
        // With the accessibility actions weighed out (`Clear` dismisses in one step), the swipe:
        // one drag past the threshold, shrunk to its nearest threshold value.
        #expect(steps.contains { $0.contains("drag(") && $0.contains("x = -110.5") }, "\(steps)")
        #expect(run.stdout.contains("count 3"), "the frame after the swipe shows 3 cards: \(run.stdout)")
        #expect(run.stdout.contains("wrote out/no_card_is_ever_dismissed.lua"))
        let scenario = try String(
            contentsOf: folder.appendingPathComponent("out/no_card_is_ever_dismissed.lua"), encoding: .utf8)
        #expect(scenario.contains("--seed 7"))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("out/no_card_is_ever_dismissed.jsonl").path))

        // The scenario fails the same way under a plain run.
        let replayed = try stackplay(arguments: ["out/no_card_is_ever_dismissed.lua"], in: folder)
        #expect(replayed.status == 1)
        #expect(
            replayed.stderr.contains(
                "the invariant 'nothing is dismissed' holds after step \(steps.count): dismissed: "))
        // Its trace replays.
        let trace = try stackplay(arguments: ["replay", "out/no_card_is_ever_dismissed.jsonl"], in: folder)
        #expect(trace.status == 0, "\(trace.stdout)\(trace.stderr)")

        // The same seed: the same failure, the same shrunk run, the same scenario, byte for byte.
        let again = try stackplay(
            arguments: ["explore", "planted.lua", "--seed", "7", "--out", "again"], in: folder)
        #expect(again.stdout.replacingOccurrences(of: "again/", with: "out/") == run.stdout)
        let scenarioAgain = try String(
            contentsOf: folder.appendingPathComponent("again/no_card_is_ever_dismissed.lua"), encoding: .utf8)
        #expect(scenarioAgain == scenario)
    }

    /// Seed 10 of this exploration (the bench's) drags the calendar card by exactly -110 pt, N13's
    /// threshold. Its mirror image used to be nudged by 10⁻¹⁰, measured 110.00000000000001 and
    /// dismissed the card there only: a false `mirror` failure of the explorer's own making.
    @Test(
        "a drag of exactly the swipe threshold decides alike in the mirrored world (no false mirror failure)")
    func exactThresholdIsMirroredExactly() throws {
        let bench = try String(
            contentsOf: packageRoot.appendingPathComponent("\(fixtures)/explore/bench.lua"), encoding: .utf8)
        let folder = try temporaryFolder(["bench.lua": bench])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["explore", "bench.lua", "--seed", "10", "--out", "out"], in: folder)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("1 explored, 0 failed (seed 10)"), "\(run.stdout)")
        #expect(run.stderr == "")
    }

    @Test("a passing rerun removes the files an earlier failure wrote to --out, and no file it did not write")
    func staleOutputsAreRemoved() throws {
        let folder = try temporaryFolder(["planted.lua": Self.planted, "out/notes.txt": "mine\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "explore", "planted.lua", "--seed", "7", "--runs", "20", "--steps", "30", "--out", "out",
        ]
        let failing = try stackplay(arguments: arguments, in: folder)
        #expect(failing.status == 1, "\(failing.stdout)")
        let out = folder.appendingPathComponent("out")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(
            written == [
                ".stackplay-explore", "no_card_is_ever_dismissed.jsonl", "no_card_is_ever_dismissed.lua",
                "notes.txt",
            ])
        // A file of the user's with a name explore could write is not explore's: it stays.
        try "-- my own\n".write(
            to: out.appendingPathComponent("other.lua"), atomically: true, encoding: .utf8)
        // Fixed: the stack no longer dismisses, and the exploration passes.
        try Self.planted.replacingOccurrences(of: "dismissible = true", with: "dismissible = false").write(
            to: folder.appendingPathComponent("planted.lua"), atomically: true, encoding: .utf8)
        let passing = try stackplay(arguments: arguments, in: folder)
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(
            passing.stdout.contains(
                "removed 2 stale files an earlier run wrote: out/no_card_is_ever_dismissed.lua, "
                    + "out/no_card_is_ever_dismissed.jsonl"), "\(passing.stdout)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [
                "notes.txt", "other.lua",
            ])
        // Nothing left to remove: the next rerun says nothing of it.
        let again = try stackplay(arguments: arguments, in: folder)
        #expect(!again.stdout.contains("removed"))
    }

    @Test("--artifacts writes an SVG of every shrunk step")
    func artifacts() throws {
        let folder = try temporaryFolder(["planted.lua": Self.planted])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try stackplay(
            arguments: ["explore", "planted.lua", "--seed", "1", "--out", "out", "--artifacts", "art"],
            in: folder)
        #expect(run.status == 1)
        let count = Self.steps(run.stdout).count
        let svgs = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("art/no_card_is_ever_dismissed").path)
        #expect(svgs.count == count + 1)
        #expect(svgs.contains("filmstrip.html"))
        #expect(svgs.contains("step-1.svg"))
    }

    @Test("the explorations in scripts/explore pass a short search; --jobs runs them in parallel")
    func scriptsExplorationsPass() throws {
        let run = try stackplay(arguments: [
            "explore", "scripts/explore", "--runs", "20", "--jobs", "2", "--out",
            "/tmp/stackplay-explore-unused",
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("3 explored, 0 failed (seed 0)"))
    }

    @Test(
        "--time bounds the search: a huge number of runs ends within the time",
        .disabled(
            if: builtWithAddressSanitizer,
            "one run of 100 steps takes 2.6 s under AddressSanitizer, and a run past --time 1 by that much is killed"
        ))
    func timeBoundsTheSearch() throws {
        let folder = try temporaryFolder([
            "ok.lua": Self.planted.replacingOccurrences(
                of: "return #stack:dismissed() == 0,", with: "return #stack:dismissed() >= 0,")
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Date()
        let run = try stackplay(
            arguments: ["explore", "ok.lua", "--runs", "100000000", "--time", "1", "--jobs", "1"], in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(run.stdout.contains("1 explored, 0 failed (seed 0)"))
    }

    @Test("a plain run skips a file that only declares explorations")
    func plainRunSkipsExplorations() throws {
        let folder = try temporaryFolder([
            "s/planted.lua": Self.planted, "s/a.lua": "test('t', function() expect(1):to_equal(1) end)",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try stackplay(arguments: ["--list", "s"], in: folder)
        #expect(list.stdout == "s/a.lua: t\n")
        let run = try stackplay(arguments: ["s"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test("explore's flags belong to it; a bad spec is an error at the explore call")
    func usageAndSpecErrors() throws {
        let misplaced = try stackplay("--runs", "3", "scripts")
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("'--runs' goes with 'stackplay explore', not with running scripts"))
        let folder = try temporaryFolder([
            "bad.lua": "explore('x', { setup = function() end, invariant = {} })",
            "none.lua": "test('t', function() end)",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = try temporaryFolder([
            "l.lua": "explore('x', { setup = function() end, invariants = { function() end } })"
        ])
        defer { try? FileManager.default.removeItem(at: listed) }
        let unnamed = try stackplay(arguments: ["explore", "l.lua"], in: listed)
        #expect(
            unnamed.stderr.contains(
                "l.lua:1: bad argument #2 to 'explore' (field 'invariants': give each a name"))
        let bad = try stackplay(arguments: ["explore", "bad.lua"], in: folder)
        #expect(bad.status == 1)
        #expect(
            bad.stderr.contains(
                "stackplay: bad.lua:1: bad argument #2 to 'explore' (unknown field \"invariant\" (did you mean 'invariants'?))"
            ), "\(bad.stderr)")
        let none = try stackplay(arguments: ["explore", "none.lua"], in: folder)
        #expect(none.status == 1)
        #expect(none.stderr.contains("no explorations in none.lua"))
        let noScreen = try temporaryFolder(["e.lua": "explore('x', { setup = function() return 1 end })"])
        defer { try? FileManager.default.removeItem(at: noScreen) }
        let broken = try stackplay(arguments: ["explore", "e.lua"], in: noScreen)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("FAIL x (e.lua:1): the setup failed:"), "\(broken.stdout)")
        #expect(broken.stdout.contains("setup must return a screen"), "\(broken.stdout)")
    }
}
