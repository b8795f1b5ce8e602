import LuaRuntime

extension ScriptRunner {
    /// What the file at `path` returns, run in a fresh state of this runner (its `require` rooted
    /// at `root`): a config file's table (`.stackplay.lua`). Throws what the file raised, or why
    /// no state could be made.
    public func evaluate(file path: String, root: String?) throws(LuaFailure) -> [LuaValue] {
        try makeState(root: root).evaluate(file: path)
    }

    /// Compiles the file at `path` without running it (`stackplay check`), in a bare state with
    /// the standard budget; throws its syntax error.
    public static func compile(file path: String) throws(LuaFailure) {
        let lua = try LuaState(budget: .standard)
        try lua.compile(file: path)
    }
}
