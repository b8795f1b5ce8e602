import Bindings

/// Builds the `stackplay` module in the host's state (called by `luaopen_stackplay` in
/// CStackplayLua, which raises when this returns `STACKPLAY_RAISE`). Lua: `require "stackplay"`.
@_cdecl("stackplay_open_library")
public func stackplayOpenLibrary(_ state: OpaquePointer?) -> Int32 {
    LuaLibrary.open(state!)
}
