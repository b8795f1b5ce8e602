import CLua
import CLuaRuntime

/// Versions, named once: the CLI's `--version` and Lua's `stackplay.version` both read these.
public enum StackplayVersion {
    /// The stackplay release.
    public static let string = "0.1.0"

    /// The Lua version this build embeds, such as "Lua 5.4".
    public static var lua: String { "Lua \(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR)" }
}
