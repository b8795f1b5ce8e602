import StackModel

/// What one script's Lua state knows beyond Lua: the screens it made, so that a failure can show
/// them (the test runner resets the list before each test).
final class ScriptSession {
    private(set) var screens: [Screen] = []

    func track(_ screen: Screen) { screens.append(screen) }
    func reset() { screens.removeAll() }

    /// Every screen made since the last reset, as text.
    func dump() -> String {
        screens.map(LuaSnapshot.dump).joined(separator: "\n")
    }
}
