import StackModel
import Traces

/// What an exploration file gives the explorer: a fresh screen for every run, its own
/// invariants, and its own actions. `Bindings` implements it over a Lua state.
public protocol ExploreHost: AnyObject {
    /// A fresh screen (the file's `setup`).
    func setUp() throws -> Screen
    /// The file's invariants on the screen `setUp` made last: the first that fails, or nil.
    func checkInvariants() throws -> ExploreFailure?
    /// Runs the file's action `name` with `argument` on that screen.
    func perform(custom name: String, argument: Int) throws
    /// Makes a fresh screen with the setup and runs `chunk` on it through the Lua API (its
    /// arguments: the screen, and `act(screen, name, n)` for the file's actions); the screen, or
    /// nil when the host has no Lua API (then the Lua-API invariant is not checked).
    func runThroughAPI(_ chunk: String) throws -> Screen?
    /// A fresh screen from the setup, mirrored when `mirrored` (``Screen/isMirrored``: the
    /// setup's world seen through a ``Mirror``, its screen in the other layout direction): the
    /// `mirror` invariant's twin. The default mirrors what `setUp()` made.
    func setUp(mirrored: Bool) throws -> Screen
}

extension ExploreHost {
    public func runThroughAPI(_ chunk: String) throws -> Screen? { nil }

    public func setUp(mirrored: Bool) throws -> Screen {
        let screen = try setUp()
        if mirrored { Explorer.mirror(screen) }
        return screen
    }
}

/// How long and how hard to search.
public struct ExploreBudget: Sendable {
    public var seed: Int
    public var runs: Int
    public var steps: Int
    /// Wall-clock seconds the search may take (the runs stop early; the same seed still gives
    /// the same runs, so a failure found within the time is found again).
    public var seconds: Double?
    /// The replay, Lua-API and mirror invariants are checked on every this-many-th run (0,
    /// k, 2k, ...) and on the shrunk result: recording a trace costs more than the rest of a step.
    public var replayEvery: Int

    public init(
        seed: Int = 0, runs: Int = 100, steps: Int = 100, seconds: Double? = nil, replayEvery: Int = 100
    ) {
        self.seed = seed
        self.runs = runs
        self.steps = steps
        self.seconds = seconds
        self.replayEvery = max(1, replayEvery)
    }
}

/// A failing run, before and after shrinking.
public struct ExploreCounterexample: Sendable {
    public var run: Int
    /// The step (0-based) at which the generated run failed.
    public var step: Int
    public var original: [ExploreAction]
    public var shrunk: [ExploreAction]
    public var failure: ExploreFailure
    /// How many times the shrinker ran a candidate.
    public var attempts: Int
}

public enum ExploreOutcome: Sendable {
    case passed(runs: Int, steps: Int, seconds: Double)
    case failed(ExploreCounterexample, runs: Int, steps: Int, seconds: Double)
    /// `--time` ended the search before its first run completed, and no invariant broke in the
    /// `steps` it took: no verdict (``ExploreBudget/seconds``).
    case unfinished(steps: Int, seconds: Double)
    /// The setup itself failed (not an invariant): the message.
    case broken(String)
}

/// Generates runs of actions, checks the invariants after every step, and shrinks the first
/// failure to a local minimum. Deterministic: the same seed gives the same runs, failure and
/// shrunk sequence.
public final class Explorer {
    public let name: String
    public let host: ExploreHost
    public var generator: ExploreGenerator
    public var builtins: Set<BuiltinInvariant>
    public var budget: ExploreBudget
    /// The most candidates the shrinker tries.
    public var maximumShrinkAttempts = 5_000
    /// Whether the search's time is up (``ExploreBudget/seconds``): a generated run stops
    /// between two steps then, and does not count.
    private var outOfTime: () -> Bool = { false }

    public init(
        name: String, host: ExploreHost, generator: ExploreGenerator = ExploreGenerator(),
        builtins: Set<BuiltinInvariant> = Set(BuiltinInvariant.allCases),
        budget: ExploreBudget = ExploreBudget()
    ) {
        self.name = name
        self.host = host
        self.generator = generator
        self.builtins = builtins
        self.budget = budget
    }

    struct SetupFailed: Error { let message: String }

    /// The invariants checked on sampled runs only (``ExploreBudget/replayEvery``).
    public static let sampledInvariants: Set<String> = Set(
        [BuiltinInvariant.replay, .luaAPI, .mirror].map(\.name))

    /// Turns a screen no input has reached yet into the mirror image of itself: the other layout
    /// direction underneath, the same world above (what `stackplay.screen { mirror = true }` makes).
    public static func mirror(_ screen: Screen) {
        guard !screen.isMirrored else { return }
        screen.setLayoutDirection(
            Mirror(width: screen.settings.size.width).direction(screen.settings.layoutDirection))
        screen.isMirrored = true
    }

    /// Runs the search and shrinks what it finds.
    public func explore() -> ExploreOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        var steps = 0
        var runs = 0
        let seconds = budget.seconds
        outOfTime = { seconds.map { elapsed() > $0 } ?? false }
        defer { outOfTime = { false } }
        for run in 0..<budget.runs {
            if outOfTime() { break }
            let random = RandomBox(ExploreRandom(seed: budget.seed, name: name, run: run))
            let result: Execution
            do {
                result = try execute(.generate(random, budget.steps), replay: run % budget.replayEvery == 0)
            } catch {
                return .broken(error.message)
            }
            steps += result.performed.count
            // a run the time cut short is no run: the steps it took broke nothing
            if result.isCut {
                return runs == 0
                    ? .unfinished(steps: steps, seconds: elapsed())
                    : .passed(runs: runs, steps: steps, seconds: elapsed())
            }
            runs += 1
            if let failure = result.failure {
                let shrunk = shrink(
                    result.performed, failure: failure,
                    replay: Self.sampledInvariants.contains(failure.invariant),
                    outOfTime: outOfTime)
                let example = ExploreCounterexample(
                    run: run, step: result.performed.count - 1, original: result.performed,
                    shrunk: shrunk.actions,
                    failure: shrunk.failure, attempts: shrunk.attempts)
                return .failed(example, runs: runs, steps: steps, seconds: elapsed())
            }
        }
        return .passed(runs: runs, steps: steps, seconds: elapsed())
    }

    // MARK: Running a sequence

    /// Where the steps come from: drawn as the run goes, or given.
    enum Source {
        case generate(RandomBox, Int)
        case given([ExploreAction])
    }

    /// The run's generator, shared with the loop that draws steps.
    final class RandomBox {
        var random: ExploreRandom
        init(_ random: ExploreRandom) { self.random = random }
    }

    /// A run: the steps that took effect (those the screen refused are left out) and the first
    /// failure, after the last of them.
    public struct Execution {
        public var performed: [ExploreAction] = []
        public var failure: ExploreFailure?
        /// Whether the search's time ran out before the run's last step (no failure then).
        public var isCut = false
    }

    /// Runs `actions` from a fresh setup; `observe` sees the screen after each step that took
    /// effect (with what a touch landed on). Throws only when the setup fails.
    public func run(
        _ actions: [ExploreAction], replay: Bool, recorder: ((Screen) -> Void)? = nil,
        observe: ((ExploreAction, Screen, Hit?) -> Void)? = nil
    ) throws -> Execution {
        try execute(.given(actions), replay: replay, attach: recorder, observe: observe)
    }

    func execute(
        _ source: Source, replay: Bool, attach: ((Screen) -> Void)? = nil,
        observe: ((ExploreAction, Screen, Hit?) -> Void)? = nil
    ) throws -> Execution {
        let screen: Screen
        do { screen = try host.setUp() } catch { throw SetupFailed(message: "\(error)") }
        let recorder =
            replay && !builtins.isDisjoint(with: [.replay, .mirror])
            ? TraceRecorder(screen: screen, stackplay: "explore", keepsValues: true) : nil
        attach?(screen)
        var fingers = ExploreGenerator.Fingers()
        var execution = Execution()
        let frameChecks = BuiltinInvariant.FrameChecks(builtins)
        func stepDone(_ action: ExploreAction, _ hit: Hit?) -> Bool {
            execution.performed.append(action)
            observe?(action, screen, hit)
            if !frameChecks.isEmpty, let failure = BuiltinInvariant.check(screen, frameChecks) {
                execution.failure = failure
                return false
            }
            do {
                if let failure = try host.checkInvariants() {
                    execution.failure = failure
                    return false
                }
            } catch {
                execution.failure = ExploreFailure(invariant: "invariants", message: "\(error)")
                return false
            }
            return true
        }
        func perform(_ action: ExploreAction) -> Bool {
            do {
                let hit = try apply(action, on: ScriptView(unmirrored: screen), fingers: &fingers)
                guard let hit else { return true }  // refused: not a step
                return stepDone(action, hit.hit)
            } catch let failure as ExploreFailure {
                execution.performed.append(action)
                observe?(action, screen, nil)
                execution.failure = failure
                return false
            } catch {
                return true
            }
        }
        switch source {
        case .generate(let random, let count):
            var made = 0
            var draws = 0
            while made < count - 1, draws < count * 4 {
                if outOfTime() {
                    execution.isCut = true
                    return execution
                }
                draws += 1
                guard let action = generator.next(on: screen, fingers: fingers, random: &random.random) else {
                    continue
                }
                let before = execution.performed.count
                if !perform(action) { return finish(execution, recorder, screen, replay) }
                if execution.performed.count > before { made += 1 }
            }
            // Every run ends at rest: `settle` must end (the `settles` invariant).
            if !perform(.settle) { return finish(execution, recorder, screen, replay) }
        case .given(let actions):
            for action in actions where !perform(action) {
                return finish(execution, recorder, screen, replay)
            }
        }
        return finish(execution, recorder, screen, replay)
    }

    /// The checks of a whole run, on sampled runs: replay equivalence, then the same steps
    /// through the Lua API, then the same steps on a mirrored screen.
    private func finish(_ execution: Execution, _ recorder: TraceRecorder?, _ screen: Screen, _ sampled: Bool)
        -> Execution
    {
        guard execution.failure == nil, !execution.performed.isEmpty else { return execution }
        var execution = execution
        // Read once for both checks that need it, from the recorded values (the text they make
        // reads back as the same values: writing and parsing it would check nothing more).
        let trace = recorder.map { recorder in
            Result { try recorder.trace(file: "explored.jsonl", kinds: generator.kinds) }
        }
        if let trace, builtins.contains(.replay) {
            execution.failure = BuiltinInvariant.replay(trace)
        }
        if execution.failure == nil, sampled, builtins.contains(.luaAPI) {
            execution.failure = luaAPIDifference(execution.performed, expected: screen.snapshot())
        }
        if execution.failure == nil, let trace, builtins.contains(.mirror) {
            execution.failure = mirrorDifference(execution.performed, expected: trace)
        }
        return execution
    }

    /// Runs `actions` again on a mirrored screen (``ExploreHost/setUp(mirrored:)``): every point
    /// and translation mirrored on the way in, the layout direction turned around, the frames
    /// recorded mirrored back (``TraceRecorder``). They must be the unmirrored run's, event by
    /// event, to ``mirrorTolerance``; the failure names the first step, component, card and field
    /// that differ.
    func mirrorDifference(_ actions: [ExploreAction], expected: Result<Trace, any Error>) -> ExploreFailure? {
        let screen: Screen
        do { screen = try host.setUp(mirrored: true) } catch {
            return ExploreFailure(invariant: "mirror", message: "the mirrored setup raised: \(error)")
        }
        let recorder = TraceRecorder(screen: screen, stackplay: "explore", keepsValues: true)
        // The steps' points and translations mirrored (a nudge to the left) and their layout
        // directions turned around, across the width of the screen at each step.
        let mirroredView = ScriptView(screen, nudge: Self.mirrorNudge)
        var fingers = ExploreGenerator.Fingers()
        // The events recorded once each step is done: which step an event belongs to.
        var ends: [Int] = []
        // The events compared: all, or those before a width change with a finger down.
        var compared: Int?
        for (index, action) in actions.enumerated() {
            // The mirror is taken across the width of the moment, so a finger that stays put in
            // one world moves in the other when the width changes under it: the runs are
            // compared up to there.
            if case .setSize(let size) = action, size.width != screen.settings.size.width,
                !fingers.down.isEmpty
            {
                compared = recorder.eventCount
                break
            }
            do { _ = try apply(action, on: mirroredView, fingers: &fingers) } catch {
                return ExploreFailure(
                    invariant: "mirror",
                    message:
                        "step \(index + 1) (\(action.lua)) raises on the mirrored screen only: \(error.message)"
                )
            }
            ends.append(recorder.eventCount)
        }
        let mismatch: TraceMismatch?
        do {
            var unmirrored = try expected.get()
            var mirrored = try recorder.trace(file: "explored-mirrored.jsonl", kinds: generator.kinds)
            if let compared {
                unmirrored.steps = Array(unmirrored.steps.prefix(compared))
                mirrored.steps = Array(mirrored.steps.prefix(compared))
            }
            // One pass finds the first event where the inputs or the frames part. At that event a
            // frame that differs explains an input that differs (a tap on a card that is elsewhere
            // lands elsewhere), so the frame is named first there (as --mirror does).
            let first = TraceComparison.firstDifference(
                expected: unmirrored, actual: mirrored, tolerance: Self.mirrorTolerance,
                inputTolerance: Self.mirrorTolerance)
            if let first, first.place.hasPrefix("the input, ") {
                let frames = TraceComparison.firstDifference(
                    expected: unmirrored, actual: mirrored, tolerance: Self.mirrorTolerance,
                    inputTolerance: .infinity)
                mismatch = frames.map { $0.index <= first.index ? $0 : first } ?? first
            } else {
                mismatch = first
            }
        } catch {
            return ExploreFailure(invariant: "mirror", message: "the traces do not read: \(error)")
        }
        guard let mismatch else { return nil }
        let when: String
        if mismatch.index < 0 {
            when = "before the first step"
        } else {
            let step = ends.firstIndex { $0 > mismatch.index } ?? max(actions.count - 1, 0)
            when = "after step \(step + 1) (\(actions[step].lua)), event \(mismatch.index) (\(mismatch.type))"
        }
        return ExploreFailure(
            invariant: "mirror",
            message: "the mirrored run is not the mirror image \(when): \(mismatch.place) differs\n"
                + "unmirrored: \(mismatch.expected)\n  mirrored: \(mismatch.actual) (the other direction's frame, mirrored back)"
        )
    }

    /// How far apart two numbers of a run and its mirror image may be (`stackplay --mirror`'s
    /// tolerance: `width − (width − x)` is not always `x` in floating point).
    public static let mirrorTolerance = 1e-9

    /// How far left of its mirror image a touch lands on the mirrored screen. Hit testing is
    /// half-open, as `CGRect.contains` is: a card's left edge is in it, its right edge is not, so
    /// the exact mirror image of a touch on an edge (which the generator aims at) would land on
    /// the other side of the card's mirrored edge. A nudge under the tolerance keeps it on the same
    /// side. It is a power of two (2⁻³⁴, about 0.06 of the tolerance) so that nudging keeps whole and
    /// half points exact: the translation between two nudged points is then exactly the unnudged
    /// one, and a drag of exactly a threshold (N13's 110 pt) decides alike in both worlds (with
    /// 10⁻¹⁰ a mirrored drag of 110 pt measured 110.00000000000001 and dismissed its card).
    static let mirrorNudge = 0x1p-34

    /// Runs `actions` again through the Lua API (as the written scenario does) and compares the
    /// last frame with the Swift run's.
    func luaAPIDifference(_ actions: [ExploreAction], expected: FrameSnapshot) -> ExploreFailure? {
        let screen: Screen?
        do { screen = try host.runThroughAPI(ExploreScript.chunk(actions)) } catch {
            return ExploreFailure(
                invariant: BuiltinInvariant.luaAPI.name,
                message: "the same steps through the Lua API raised: \(error)")
        }
        guard let screen else { return nil }
        guard let difference = BuiltinInvariant.difference(expected, screen.snapshot()) else { return nil }
        return ExploreFailure(
            invariant: BuiltinInvariant.luaAPI.name,
            message: "the same steps through the Lua API end in another frame: \(difference)")
    }

    /// A step that took effect: what the touch landed on (nil inside when nothing), or nil when
    /// the screen refused the step (a finger that is not down, a change it does not take).
    /// Throws an `ExploreFailure` for a settle that does not end or a custom action that raised.
    func apply(_ action: ExploreAction, on view: ScriptView, fingers: inout ExploreGenerator.Fingers) throws
        -> (hit: Hit?, Void)?
    {
        let screen = view.screen
        switch action {
        case .tap(let point, let duration): return (try view.tap(at: point, duration: duration), ())
        case .drag(let start, let by, let steps, let duration):
            return (try view.drag(from: start, by: by, steps: steps, duration: duration), ())
        case .touchDown(let finger, let point):
            guard fingers.down[finger] == nil else { return nil }
            let (id, hit) = try view.touchDown(at: point)
            fingers.down[finger] = (id, point)
            return (hit, ())
        case .touchMove(let finger, let point):
            guard let down = fingers.down[finger] else { return nil }
            try view.touchMove(down.id, to: point)
            fingers.down[finger] = (down.id, point)
            return (nil, ())
        case .touchUp(let finger):
            guard let down = fingers.down[finger] else { return nil }
            try screen.touchUp(down.id)
            fingers.down[finger] = nil
            return (nil, ())
        case .advance(let seconds):
            guard seconds > 0 else { return nil }
            try screen.advance(by: seconds)
        case .settle:
            do { try screen.settle() } catch {
                guard builtins.contains(.settles) else { return (nil, ()) }
                throw ExploreFailure(invariant: "settles", message: "\(error)")
            }
        case .escape: _ = try screen.escape()
        case .action(let component, let element, let name):
            _ = try screen.performAction(name, on: element, of: component)
        case .activate(let component, let element):
            return (try screen.performAction("activate", on: element, of: component) ? nil : nil, ())
        case .setReduceMotion(let on): screen.setReduceMotion(on)
        case .setLayoutDirection(let direction): view.setLayoutDirection(direction)
        case .setDynamicType(let size): screen.setDynamicTypeSize(size)
        case .setSize(let size): try screen.setSize(size)
        case .change(let component, let change): try screen.change(change, of: component)
        case .custom(let name, let argument):
            do { try host.perform(custom: name, argument: argument) } catch {
                throw ExploreFailure(invariant: "action '\(name)'", message: "\(error)")
            }
        }
        return (nil, ())
    }
}

extension ExploreFailure: Error {}

extension Error {
    var message: String { (self as? Explorer.SetupFailed)?.message ?? "\(self)" }
}
