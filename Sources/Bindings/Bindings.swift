import CLua
import StackModel

/// Bindings: the Lua API over StackModel.
public enum BindingsInfo {
    /// The Lua version this build embeds, such as "Lua 5.4".
    public static var luaVersion: String { "Lua \(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR)" }
}
