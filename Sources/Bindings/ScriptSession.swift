import StackModel
import Traces

/// What one script's Lua state knows beyond Lua: the screens it made, so that a failure can show
/// them, and their trace recorders when traces are on. Each test runs in a fresh state, so these
/// are the screens of the file's top level and of that one test.
final class ScriptSession {
    private(set) var screens: [Screen] = []
    /// One recorder a screen, in the order the screens were made; empty when traces are off.
    private(set) var recorders: [TraceRecorder] = []
    /// Whether every screen is recorded (`--trace`, `--golden`, `--artifacts`).
    let recordsTraces: Bool

    init(recordsTraces: Bool = false) {
        self.recordsTraces = recordsTraces
    }

    /// Keeps `screen` for the failure report, and starts recording it when traces are on. Call it
    /// before anything happens on the screen.
    func track(_ screen: Screen) {
        screens.append(screen)
        if recordsTraces {
            recorders.append(TraceRecorder(screen: screen, stackplay: StackplayVersion.string))
        }
    }

    /// Every screen made since the last reset, as text.
    func dump() -> String {
        screens.map(LuaSnapshot.dump).joined(separator: "\n")
    }
}
