import Foundation
import StackModel
import Testing

@testable import Exploration

/// A host in Swift alone: a 4-card dismissible notification stack, and one invariant that
/// `failing` decides.
final class StackHost: ExploreHost {
    var screen: Screen?
    let failing: (Screen) -> ExploreFailure?

    init(failing: @escaping (Screen) -> ExploreFailure? = { _ in nil }) { self.failing = failing }

    func setUp() throws -> Screen {
        let screen = try Screen()
        try screen.add(
            NotificationStack(
                cards: ["messages", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) },
                isDismissible: true, origin: Point(x: 16, y: 0), width: 358))
        self.screen = screen
        return screen
    }

    func checkInvariants() throws -> ExploreFailure? { screen.flatMap(failing) }
    func perform(custom name: String, argument: Int) throws {}
}

/// "No card is ever dismissed", false for a dismissible stack.
func nothingDismissed(_ screen: Screen) -> ExploreFailure? {
    guard let stack = screen.components.first as? NotificationStack, !stack.dismissed.isEmpty else {
        return nil
    }
    return ExploreFailure(invariant: "nothing dismissed", message: "dismissed \(stack.dismissed)")
}

@Suite struct ExplorerTests {
    @Test("the random numbers are SplitMix64's, the same on every machine")
    func randomIsStable() {
        var random = ExploreRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(ExploreRandom.hash("") == 0xcbf2_9ce4_8422_2325)
        var a = ExploreRandom(seed: 3, name: "x", run: 5)
        var b = ExploreRandom(seed: 3, name: "x", run: 5)
        #expect(a.next() == b.next())
        var c = ExploreRandom(seed: 3, name: "x", run: 6)
        var d = ExploreRandom(seed: 3, name: "x", run: 5)
        #expect(d.next() != c.next())
    }

    @Test("numbers shrink toward 0, whole numbers and the nearest threshold, never to something less simple")
    func simplerNumbers() {
        let candidates = Explorer.simpler(-112.25)
        #expect(candidates.first == 0)
        #expect(candidates.contains(-110.5))
        #expect(candidates.contains(-112))
        #expect(Explorer.simpler(110.5).allSatisfy { Explorer.complexity($0) < Explorer.complexity(110.5) })
        #expect(Explorer.simpler(0) == [])
        #expect(Explorer.simpler(.nan) == [])
        #expect(Explorer.simpler(.infinity) == [])
    }

    @Test("a gesture may shrink to a settle; a drag to one step and no duration")
    func simplerSteps() {
        let drag = ExploreAction.drag(
            Point(x: 10.5, y: 20), by: Point(x: 120, y: 0), steps: 10, duration: 0.3)
        let options = Explorer.simplifications(of: drag)
        #expect(options.first == .settle)
        #expect(
            options.contains(.drag(Point(x: 10.5, y: 20), by: Point(x: 120, y: 0), steps: 1, duration: 0.3)))
        #expect(
            options.contains(.drag(Point(x: 10.5, y: 20), by: Point(x: 120, y: 0), steps: 10, duration: 0)))
        #expect(
            options.contains(.drag(Point(x: 11, y: 20), by: Point(x: 120, y: 0), steps: 10, duration: 0.3)))
        #expect(Explorer.simplifications(of: .settle) == [])
    }

    @Test("a false invariant is found and shrunk to at most three steps, the same for the same seed")
    func shrinksAndRepeats() throws {
        func explore(_ seed: Int) -> ExploreCounterexample? {
            let explorer = Explorer(
                name: "no card is ever dismissed", host: StackHost(failing: nothingDismissed),
                generator: ExploreGenerator(overrides: ["accessibility": 0]),
                budget: ExploreBudget(seed: seed, runs: 50, steps: 100))
            guard case .failed(let example, _, _, _) = explorer.explore() else { return nil }
            return example
        }
        let example = try #require(explore(3))
        #expect(example.failure.invariant == "nothing dismissed")
        #expect((1...3).contains(example.shrunk.count), "\(example.shrunk)")
        let again = try #require(explore(3))
        #expect(again.shrunk == example.shrunk)
        #expect(again.original == example.original)
    }

    @Test("a correct model passes every built-in invariant, replay included")
    func builtinsHold() {
        let explorer = Explorer(
            name: "builtins", host: StackHost(),
            budget: ExploreBudget(seed: 1, runs: 20, steps: 100, replayEvery: 1))
        guard case .passed(let runs, let steps, _) = explorer.explore() else {
            Issue.record("\(explorer.explore())")
            return
        }
        #expect(runs == 20)
        #expect(steps > 1_000)
    }

    @Test("explore.lua's lists of families and built-in invariants are Swift's")
    func exploreListsMatch() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let explore = try String(
            contentsOf: root.appendingPathComponent("Sources/Bindings/Lua/explore.lua"), encoding: .utf8)
        func list(after marker: String) -> [String] {
            guard let start = explore.range(of: marker) else { return [] }
            let rest = explore[start.upperBound...]
            let body = rest[..<(rest.firstIndex(of: "}") ?? rest.endIndex)]
            return body.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
                String($0.element)
            }
        }
        #expect(list(after: "local action_families = {") == ExploreGenerator.familyNames)
        #expect(list(after: "local builtin_names = {") == BuiltinInvariant.allCases.map(\.name))
    }

    @Test("an action's Lua is what the scenario and the report show")
    func actionLua() {
        #expect(ExploreAction.tap(Point(x: 195, y: 22), duration: 0).lua == "screen:tap(195, 22)")
        #expect(
            ExploreAction.drag(Point(x: 1, y: 2), by: Point(x: -110.5, y: 0), steps: 1, duration: 0).lua
                == "screen:drag(1, 2, { x = -110.5, y = 0 }, { steps = 1 })")
        #expect(ExploreAction.touchDown(finger: 2, Point(x: 3, y: 4)).lua == "f2 = screen:touch_down(3, 4)")
        #expect(
            ExploreAction.change(component: "w", .select(nil)).lua == "screen:component(\"w\"):select(nil)")
        #expect(
            ExploreAction.change(component: "n", .setItems([CardSpec(id: "a\"b", height: 70)])).lua
                == "screen:component(\"n\"):set_items { items = { { id = \"a\\\"b\", height = 70, label = \"a\\\"b\" } } }"
        )
        #expect(luaString("a\u{1}") == "\"a\\u{1}\"")
    }
}

/// A planted asymmetry: the file's action `ltr` sets the screen's layout direction itself, past
/// the mirror (as a Swift host that forgets ``Screen/mirror`` would).
final class AsymmetricHost: ExploreHost {
    let stack = StackHost()

    func setUp() throws -> Screen { try stack.setUp() }
    func checkInvariants() throws -> ExploreFailure? { nil }
    func perform(custom name: String, argument: Int) throws {
        stack.screen?.setLayoutDirection(.leftToRight)
    }
}

@Suite struct MirrorInvariantTests {
    /// The inputs `action` makes on `view`'s screen when the explorer applies it.
    static func events(_ action: ExploreAction, on view: ScriptView, fingers: inout ExploreGenerator.Fingers)
        throws -> [InputEvent]
    {
        var events: [InputEvent] = []
        view.screen.onEvent = { events.append($0) }
        defer { view.screen.onEvent = nil }
        let explorer = Explorer(name: "mirror", host: StackHost(), builtins: [.mirror])
        _ = try explorer.apply(action, on: view, fingers: &fingers)
        return events
    }

    @Test("a mirrored step mirrors its points, translations and direction, and nothing else")
    func mirroredSteps() throws {
        let nudge = Explorer.mirrorNudge
        #expect(nudge > 0 && nudge < Explorer.mirrorTolerance)
        let screen = try Screen(world: ScreenSettings(size: Size(width: 390, height: 844)), mirrored: true)
        // The explorer's mirrored run applies its steps through this view (`mirrorDifference`).
        let view = ScriptView(screen, nudge: nudge)
        var fingers = ExploreGenerator.Fingers()
        #expect(
            try Self.events(.tap(Point(x: 20, y: 5), duration: 0.2), on: view, fingers: &fingers) == [
                .touchDown(touch: 1, at: Point(x: 370 - nudge, y: 5)), .advance(seconds: 0.2),
                .touchUp(touch: 1),
            ])
        let drag = try Self.events(
            .drag(Point(x: 100, y: 5), by: Point(x: -110, y: 3), steps: 4, duration: 0), on: view,
            fingers: &fingers)
        #expect(drag.first == .touchDown(touch: 2, at: Point(x: 290 - nudge, y: 5)))
        #expect(drag.dropLast().last == .touchMove(touch: 2, to: Point(x: 290 - nudge + 110, y: 8)))
        _ = try Self.events(.touchDown(finger: 2, Point(x: 1, y: 1)), on: view, fingers: &fingers)
        #expect(
            try Self.events(.touchMove(finger: 2, Point(x: 0, y: 1)), on: view, fingers: &fingers) == [
                .touchMove(touch: 3, to: Point(x: 390 - nudge, y: 1))
            ])
        // A touch on a card's left edge (in it) lands just inside its mirrored right edge (also in it).
        #expect(390 - 16 - nudge < 374)
        #expect(
            try Self.events(.setLayoutDirection(.leftToRight), on: view, fingers: &fingers) == [
                .setLayoutDirection(.rightToLeft)
            ])
        #expect(try Self.events(.advance(0.25), on: view, fingers: &fingers) == [.advance(seconds: 0.25)])
        // The explorer's own run aims at what it sees: nothing is turned around, mirrored or not.
        let direct = ScriptView(unmirrored: screen)
        #expect(
            try Self.events(.tap(Point(x: 20, y: 5), duration: 0), on: direct, fingers: &fingers) == [
                .touchDown(touch: 4, at: Point(x: 20, y: 5)), .touchUp(touch: 4),
            ])
    }

    @Test("a notification stack is its own mirror image on every step of every sampled run")
    func stackIsSymmetric() {
        let explorer = Explorer(
            name: "mirror", host: StackHost(), builtins: [.mirror],
            budget: ExploreBudget(seed: 7, runs: 30, steps: 100, replayEvery: 1))
        guard case .passed(let runs, _, _) = explorer.explore() else {
            Issue.record("\(explorer.explore())")
            return
        }
        #expect(runs == 30)
    }

    @Test("a planted asymmetry fails 'mirror', names the step and the field, and shrinks to it")
    func asymmetryIsFound() throws {
        func explore() -> ExploreCounterexample? {
            let explorer = Explorer(
                name: "asymmetric", host: AsymmetricHost(),
                generator: ExploreGenerator(custom: [("ltr", 1)]), builtins: [.mirror],
                budget: ExploreBudget(seed: 2, runs: 20, steps: 30, replayEvery: 1))
            guard case .failed(let example, _, _, _) = explorer.explore() else { return nil }
            return example
        }
        let example = try #require(explore())
        #expect(example.failure.invariant == "mirror")
        #expect(example.shrunk.count == 1 && example.shrunk.first?.family == "ltr", "\(example.shrunk)")
        #expect(
            example.failure.message.hasPrefix(
                "the mirrored run is not the mirror image after step 1 (spec.actions[\"ltr\"](screen, "),
            "\(example.failure.message)")
        #expect(example.failure.message.contains("field 'direction' differs"), "\(example.failure.message)")
        #expect(explore()?.shrunk == example.shrunk)
        // Turned off, it is not checked.
        let off = Explorer(
            name: "asymmetric", host: AsymmetricHost(), generator: ExploreGenerator(custom: [("ltr", 1)]),
            builtins: [], budget: ExploreBudget(seed: 2, runs: 5, steps: 30, replayEvery: 1))
        guard case .passed = off.explore() else {
            Issue.record("\(off.explore())")
            return
        }
    }
}

@Suite struct FrameCheckTests {
    func cards(_ ids: [String]) -> [CardSnapshot] {
        ids.map {
            CardSnapshot(
                id: $0, frame: Rect(x: 0, y: 0, width: 10, height: 10), scale: 1, opacity: 1, z: 0,
                isVisible: true, isHittable: true)
        }
    }

    /// The first card whose id an earlier card has, byte for byte (NFC and NFD "café" are two ids),
    /// for a few cards (compared pairwise) and for many (hashed).
    @Test("a repeated card id is the first card whose id came before, byte for byte, few cards or many")
    func repeatedIDs() {
        #expect(BuiltinInvariant.firstRepeatedID(cards([])) == nil)
        #expect(BuiltinInvariant.firstRepeatedID(cards(["a", "b", "c"])) == nil)
        #expect(BuiltinInvariant.firstRepeatedID(cards(["a", "b", "c", "b", "a"])) == "b")
        #expect(BuiltinInvariant.firstRepeatedID(cards(["caf\u{E9}", "cafe\u{301}"])) == nil)
        let many = (0..<40).map { "card \($0)" }
        #expect(BuiltinInvariant.firstRepeatedID(cards(many)) == nil)
        #expect(BuiltinInvariant.firstRepeatedID(cards(many + ["card 7", "card 3"])) == "card 7")
        #expect(BuiltinInvariant.firstRepeatedID(cards(many + ["caf\u{E9}", "cafe\u{301}"])) == nil)
        #expect(BuiltinInvariant.firstRepeatedID(cards(["x"] + many + ["x"])) == "x")
    }

    /// The accessibility check reads element ids without making targets: what it decides is what
    /// `ComponentTarget` says, for card ids, part names, NFC and NFD, prefixes and empty ids.
    @Test("an element id is a card's, and which card's, as ComponentTarget reads and writes it")
    func elementIDsReadAsTargets() {
        let ids = [
            "", "card:", "card:a", "card:ab", "card:caf\u{E9}", "card:cafe\u{301}", "card", "Card:a", "stack",
            "show_less", "card:card:a", "a", "caf\u{E9}",
        ]
        let cardIDs = ["", "a", "ab", "caf\u{E9}", "cafe\u{301}", "card:a", "b"]
        for id in ids {
            #expect(BuiltinInvariant.isCardElement(id) == (ComponentTarget(id).cardID != nil), "\(id)")
            for cardID in cardIDs {
                #expect(
                    BuiltinInvariant.isElement(id, of: cardID)
                        == id.isSameBytes(ComponentTarget.card(cardID).name),
                    "\(id) for card \(cardID)")
            }
        }
    }
}
