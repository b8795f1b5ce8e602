import LuaRuntime
import StackModel
import TestResults
import Traces

/// What one script's Lua state knows beyond Lua: the screens it made, so that a failure can show
/// them, and their trace recorders when traces are on. Each test runs in a fresh state, so these
/// are the screens of the file's top level and of that one test.
///
/// The session keeps only the first ``dumpedScreens`` screens alive for the failure report (and
/// counts the others), so a test that makes screens in a loop does not hold them all; and it
/// estimates the memory its screens and recorders hold, which the Lua state charges to the
/// test's memory budget (``footprint()``).
package final class ScriptSession {
    /// The `--matrix` settings this state's screens take as defaults.
    var variant = ScreenVariant()
    /// How many screens a failure report shows; the others are counted ("... and 3 more screens").
    static let dumpedScreens = 20

    /// The first ``dumpedScreens`` screens, kept for the failure report.
    private(set) var screens: [Screen] = []
    /// How many screens were made since the state started, including those not kept.
    private(set) var screenCount = 0
    /// One recorder a recorded screen, in the order the screens were made; empty when traces are off.
    package private(set) var recorders: [TraceRecorder] = []
    /// The recorder of each recorded screen, by the screen's identity.
    private var recorderOf: [ObjectIdentifier: TraceRecorder] = [:]
    /// Every screen still alive (held weakly) with its recorder, for ``footprint()``.
    private var live: [Tracked] = []
    /// Bytes held by the recorders of screens that are gone (their traces are kept for output).
    private var frozenBytes = 0
    /// Whether every screen is recorded (`--trace`, `--golden`, `--artifacts`, or `--mirror`'s
    /// comparison).
    var recordsTraces: Bool
    /// Whether the run asked for every screen's trace (`--trace`, `--golden`, `--artifacts`): a
    /// screen recorded only for `--mirror`'s comparison is not recorded as far as the script can
    /// tell (`screen:trace()` says so), so a run that compares behaves as one that does not.
    var requestsTraces = false
    /// The recorders of screens whose trace was asked for (``requestsTraces``, `record = true`).
    package private(set) var requestedRecorders: [TraceRecorder] = []
    /// `--update`: `expect_trace` records its golden trace again instead of comparing.
    var updatesGolden: Bool
    /// Whether the script asked `screen:mirrored()`: a test that knows its world may act on it,
    /// so `--mirror` does not compare its frames with its twin's (``MirrorCheck``).
    package var asksMirror = false
    /// The screen settings every screen made so far gave itself (`layout_direction = "ltr"`), by
    /// key, with the first one's value as the variant would write it; nil before the first screen.
    /// A key in it is one the run's `--matrix` variant did not change (``ScreenVariant``).
    package var fixedSettings: [String: String]?

    /// Notes a new screen's own settings (``fixedSettings``).
    func screenFixes(_ settings: [String: String]) {
        fixedSettings = fixedSettings.map { $0.filter { settings[$0.key] != nil } } ?? settings
    }
    /// The screen an exploration's setup made last (`stackplay explore`).
    var explored: Screen?
    /// Whether the screens made now are mirrored whatever the script says (`stackplay explore`'s
    /// `mirror` invariant runs the setup once more, as `--mirror` would).
    var mirrorsScreens = false
    /// The gestures the screens decided, for a failure's likely cause (``GestureLog``).
    package let gestures = GestureLog()
    /// What the script printed, for the reporters.
    package let output = CapturedOutput()
    /// Whether screens are kept for the failure report. The Lua module (``LuaLibrary``) has no
    /// report and lives as long as its host, so it keeps none: a screen goes with its last reference.
    var keepsScreens = true
    /// `--audit`: every screen is audited after each step (``AuditObserver``); nil when off.
    var audit: AuditOptions?
    /// The first step whose audit found issues, once one did.
    var auditFailure: AuditFailure?
    /// The issues that failed the test (`--audit`, or the last `to_pass_audit` that did not hold).
    var auditIssues: [AuditIssue] = []
    /// `--audit`'s known issues so far (``AuditOptions/known``), each element and rule once.
    var knownAuditIssues: [AuditIssue] = []

    /// A screen held weakly, and what its recorder's events cost when it was last measured.
    private final class Tracked {
        weak var screen: Screen?
        let recorder: TraceRecorder?
        var bytesPerEvent = MemoryEstimate.eventBytes

        init(_ screen: Screen, recorder: TraceRecorder?) {
            self.screen = screen
            self.recorder = recorder
        }

        /// The recorded lines' real bytes, or the estimate when it is more (a line's own overhead).
        var recorderBytes: Int { max((recorder?.eventCount ?? 0) * bytesPerEvent, recorder?.byteCount ?? 0) }
    }

    init(recordsTraces: Bool = false, updatesGolden: Bool = false) {
        self.recordsTraces = recordsTraces
        requestsTraces = recordsTraces
        self.updatesGolden = updatesGolden
    }

    /// Keeps `screen` for the failure report (the first ``dumpedScreens``), and starts recording
    /// it when traces are on or the script asked (`stackplay.screen { record = true }`). Call it
    /// before anything happens on it.
    func track(_ screen: Screen, record: Bool = false) {
        screenCount += 1
        if keepsScreens, screens.count < Self.dumpedScreens { screens.append(screen) }
        var recorder: TraceRecorder?
        if recordsTraces || record {
            recorder = TraceRecorder(
                screen: screen, stackplay: StackplayVersion.string, calls: ActionSeam.calls())
            recorders.append(recorder!)
            if requestsTraces || record {
                requestedRecorders.append(recorder!)
                recorderOf[ObjectIdentifier(screen)] = recorder
            }
        }
        live.append(Tracked(screen, recorder: recorder))
        if keepsScreens { gestures.watch(screen) }
        if let audit { AuditObserver.attach(to: screen, options: audit, session: self) }
    }

    /// The recorder of `screen`, if it is recorded.
    func recorder(of screen: Screen) -> TraceRecorder? { recorderOf[ObjectIdentifier(screen)] }

    /// What is still moving on the screens, for a failed expectation: "still animating:
    /// notification_stack 'notifications' (0.35 s left at t = 0.1 s); ..."; nil when everything
    /// rests. A check made before `screen:settle()` reads values in mid-flight.
    package func stillAnimating() -> String? {
        var moving: [String] = []
        for screen in screens {
            let now = screen.now
            for component in screen.components {
                guard let end = component.animationEndTime, end > now else { continue }
                let left = end.isFinite ? "\(formatNumber(end - now)) s left" : "it never rests"
                moving.append(
                    "\(component.kind.rawValue) '\(component.name)' (\(left) at t = \(formatNumber(now)) s)")
            }
        }
        guard !moving.isEmpty else { return nil }
        return "  still animating: " + moving.joined(separator: ", ")
            + "; screen:settle() before the check waits for it to finish."
    }

    /// The first ``dumpedScreens`` screens as text, then how many more there were.
    package func dump() -> String {
        var text = screens.map(LuaSnapshot.dump).joined(separator: "\n")
        if screenCount > screens.count {
            let more = screenCount - screens.count
            text += "\n... and \(more) more screen\(more == 1 ? "" : "s")"
        }
        return text
    }

    /// The bytes the session's screens, components, cards and recorders hold, estimated: what
    /// the Lua state charges to the memory budget on top of Lua's own. Forgets screens that are
    /// gone (their recorders' bytes stay counted while the recorders are kept).
    func footprint() -> Int {
        var total = frozenBytes
        live.removeAll { tracked in
            guard let screen = tracked.screen else {
                frozenBytes += tracked.recorderBytes
                total += tracked.recorderBytes
                return true
            }
            let cards = screen.components.reduce(0) { $0 + $1.cardCount }
            let strings = screen.components.reduce(0) { $0 + $1.cardTextBytes }
            tracked.bytesPerEvent = MemoryEstimate.eventBytes + cards * MemoryEstimate.recordedCardBytes
            total +=
                MemoryEstimate.screenBytes + screen.components.count * MemoryEstimate.componentBytes
                + cards * MemoryEstimate.cardBytes + strings + tracked.recorderBytes
            return false
        }
        return total
    }
}

extension ScriptSession {
    /// What a snapshot of the state keeps of the session: made after the file's top level, which
    /// may print but must not have made a screen (``madeScreens``).
    package struct Mark {
        fileprivate let output: CapturedOutput.Mark
        fileprivate let asksMirror: Bool
        fileprivate let mirrorsScreens: Bool
    }

    /// Whether the state made a screen (a Swift object the next test must not see changed).
    package var madeScreens: Bool { screenCount > 0 || !recorders.isEmpty || explored != nil }

    package var mark: Mark {
        Mark(output: output.mark, asksMirror: asksMirror, mirrorsScreens: mirrorsScreens)
    }

    /// Back to `mark`, with the screens, recorders and audit findings made since then forgotten
    /// (the state was restored to its snapshot; the objects go with their last reference).
    package func restore(_ mark: Mark) {
        screens = []
        screenCount = 0
        recorders = []
        requestedRecorders = []
        recorderOf = [:]
        live = []
        frozenBytes = 0
        explored = nil
        auditFailure = nil
        auditIssues = []
        knownAuditIssues = []
        gestures.forget()
        asksMirror = mark.asksMirror
        mirrorsScreens = mark.mirrorsScreens
        fixedSettings = nil
        output.restore(mark.output)
    }
}

/// What the model's objects cost in memory: upper bounds of what
/// `Hardening.memoryEstimatesCoverResidentBytes` measures on Linux (resident bytes of 2·10^5 cards:
/// about 600 a notification card, 830 a wallet card; about 200 a screen), rounded up.
enum MemoryEstimate {
    /// A screen with no components: settings, clock, touch map, event hook.
    static let screenBytes = 1_024
    /// A component without its cards.
    static let componentBytes = 2_048
    /// One card in a component: its spec (id, label), layout arrays and animated values.
    static let cardBytes = 1_024
    /// One recorded event without its frame's cards.
    static let eventBytes = 256
    /// One card in a recorded frame (a JSON object of about 150 characters).
    static let recordedCardBytes = 192

}

extension LuaState {
    /// What the script made beyond Lua: screens, traces, printed output. The runner reads it
    /// from Swift, so nothing the script does in Lua can change what it reports.
    package var session: ScriptSession { attachment { ScriptSession() } }
}
