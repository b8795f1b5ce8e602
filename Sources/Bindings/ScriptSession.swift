import StackModel

/// What one script's Lua state knows beyond Lua: the screens it made, so that a failure can show
/// them. Each test runs in a fresh state, so these are the screens of the file's top level and of
/// that one test.
final class ScriptSession {
    private(set) var screens: [Screen] = []

    func track(_ screen: Screen) { screens.append(screen) }

    /// Every screen made since the last reset, as text.
    func dump() -> String {
        screens.map(LuaSnapshot.dump).joined(separator: "\n")
    }
}
