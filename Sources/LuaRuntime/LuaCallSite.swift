import CLua
import CLuaRuntime

/// The script's call that is running Swift now: which call it is, the method's name and the
/// script's file and line. A trace recorder groups the inputs one call made into an action.
package struct LuaCallSite: Equatable, Sendable {
    /// Differs between two calls from Lua into Swift on one thread (the same for one call's inputs).
    package var serial: UInt64
    /// The called function's name as Lua knows it (`drag` for `stack:drag(...)`), when it does.
    package var function: String?
    /// The chunk name without its `@` (the script's path as given), and the line.
    package var file: String
    package var line: Int

    /// The innermost Swift call running on this thread and the innermost Lua function below it
    /// whose chunk name does not start with `prefix` (the prelude's), or nil when Swift runs
    /// outside any call from Lua or no script line is on the stack. Reads only: never raises.
    package static func running(skippingPrefix prefix: String) -> LuaCallSite? {
        running(skippingPrefix: prefix, unless: nil)
    }

    /// As ``running(skippingPrefix:)``, but `known` itself when the running call is the one it
    /// describes (the stack is not read again for each input of one call).
    package static func running(skippingPrefix prefix: String, unless known: LuaCallSite?) -> LuaCallSite? {
        var serial: UInt64 = 0
        // swift-format-ignore: AlwaysUseLowerCamelCase
        guard let L = stackplay_running_call(&serial) else { return nil }
        if let known, known.serial == serial { return known }
        var record = lua_Debug()
        var function: String?
        if lua_getstack(L, 0, &record) != 0 {
            lua_getinfo(L, "n", &record)
            function = record.name.map { String(cString: $0) }
        }
        var level: Int32 = 1
        while lua_getstack(L, level, &record) != 0 {
            lua_getinfo(L, "Sl", &record)
            if record.currentline > 0, let source = record.source.map({ String(cString: $0) }),
                !source.hasPrefix(prefix)
            {
                let file = source.hasPrefix("@") ? String(source.dropFirst()) : source
                return LuaCallSite(
                    serial: serial, function: function, file: file, line: Int(record.currentline))
            }
            level += 1
        }
        return nil
    }
}
