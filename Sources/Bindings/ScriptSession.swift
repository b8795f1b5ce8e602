import StackModel
import Traces

/// What one script's Lua state knows beyond Lua: the screens it made, so that a failure can show
/// them, and their trace recorders when traces are on. Each test runs in a fresh state, so these
/// are the screens of the file's top level and of that one test.
final class ScriptSession {
    private(set) var screens: [Screen] = []
    /// One recorder a screen, in the order the screens were made; empty when traces are off.
    private(set) var recorders: [TraceRecorder] = []
    /// The recorder of each recorded screen, by the screen's identity.
    private var recorderOf: [ObjectIdentifier: TraceRecorder] = [:]
    /// Whether every screen is recorded (`--trace`, `--golden`, `--artifacts`).
    var recordsTraces: Bool
    /// `--update`: `expect_trace` records its golden trace again instead of comparing.
    var updatesGolden: Bool
    /// What the script printed, for the reporters.
    let output = CapturedOutput()
    /// Whether screens are kept for the failure report. The Lua module (``LuaLibrary``) has no
    /// report and lives as long as its host, so it keeps none: a screen goes with its last reference.
    var keepsScreens = true

    init(recordsTraces: Bool = false, updatesGolden: Bool = false) {
        self.recordsTraces = recordsTraces
        self.updatesGolden = updatesGolden
    }

    /// Keeps `screen` for the failure report, and starts recording it when traces are on or the
    /// script asked (`stackplay.screen { record = true }`). Call it before anything happens on it.
    func track(_ screen: Screen, record: Bool = false) {
        if keepsScreens { screens.append(screen) }
        if recordsTraces || record {
            let recorder = TraceRecorder(screen: screen, stackplay: StackplayVersion.string)
            recorders.append(recorder)
            recorderOf[ObjectIdentifier(screen)] = recorder
        }
    }

    /// The recorder of `screen`, if it is recorded.
    func recorder(of screen: Screen) -> TraceRecorder? { recorderOf[ObjectIdentifier(screen)] }

    /// What is still moving on the screens, for a failed expectation: "still animating:
    /// notification_stack 'notifications' (0.35 s left at t = 0.1 s); ..."; nil when everything
    /// rests. A check made before `screen:settle()` reads values in mid-flight.
    func stillAnimating() -> String? {
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

    /// Every screen made since the last reset, as text.
    func dump() -> String {
        screens.map(LuaSnapshot.dump).joined(separator: "\n")
    }
}
