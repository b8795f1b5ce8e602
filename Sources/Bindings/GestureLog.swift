import LuaRuntime
import StackModel

/// The gestures a test's screens decided, each with the script's call that made it: what a failed
/// expectation names as its likely cause ("the drag at x.lua:6 moved 'calendar' 66.6 pt towards
/// trailing; a notification card leaves only past 110 pt towards leading (rtl: x > 110)"). The
/// explanation is the model's own (``GestureVerdict``, from the gate that decided); this only
/// remembers it and the call.
package final class GestureLog {
    /// One gesture: what its gate decided and the call that made it (nil when none is known).
    struct Entry {
        var verdict: GestureVerdict
        var call: LuaCallSite?
    }

    /// The most gestures remembered: the likely cause is one of the last.
    static let kept = 64

    private(set) var entries: [Entry] = []

    /// Remembers what `screen`'s gestures decide from now on.
    func watch(_ screen: Screen) {
        screen.onVerdict = { [weak self] verdict in self?.add(verdict) }
    }

    private func add(_ verdict: GestureVerdict) {
        if entries.count == Self.kept { entries.removeFirst(Self.kept / 2) }
        // The stack is read, never the script's file: a gesture pays a few lua_getinfo calls.
        entries.append(
            Entry(verdict: verdict, call: LuaCallSite.running(skippingPrefix: PreludeModule.internalPrefix)))
    }

    func forget() { entries = [] }

    /// The likely cause of a failure whose report is `message`: the last gesture on a card or
    /// component the message names (`"calendar"`, `'wallet'`), else the last gesture of all; nil
    /// when no gesture was made.
    package func cause(of message: String) -> (line: String, position: String)? {
        func named(_ entry: Entry) -> Bool {
            if let card = entry.verdict.card,
                message.contains("\"\(card)\"") || message.contains("'\(card)'")
            {
                return true
            }
            return message.contains("'\(entry.verdict.component)'")
        }
        guard let entry = entries.last(where: named) ?? entries.last else { return nil }
        let gesture =
            entry.call.map { "the \($0.function ?? "call") at \($0.file):\($0.line)" }
            ?? "the gesture on '\(entry.verdict.component)'"
        return (gesture + " " + entry.verdict.explanation, entry.call.map { "\($0.file):\($0.line)" } ?? "")
    }
}
