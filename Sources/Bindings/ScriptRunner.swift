/// Runs one script file in a fresh sandboxed state with the standard modules and a budget.
public struct ScriptRunner: Sendable {
    /// The budget each script gets.
    public var budget: LuaBudget
    /// Installed in every state after the sandbox.
    public var modules: [any LuaModule]

    /// A runner with `budget` and `modules`.
    public init(budget: LuaBudget = .standard, modules: [any LuaModule] = StackplayModules.standard) {
        self.budget = budget
        self.modules = modules
    }

    /// A fresh state as scripts see it: sandbox, `require` under `root`, modules.
    public func makeState(root: String?) throws(LuaFailure) -> LuaState {
        let lua = try LuaState(budget: budget)
        try Sandbox(root: root).install(in: lua)
        for module in modules {
            do { try module.install(in: lua) } catch {
                throw LuaFailure(
                    kind: .error, message: "stackplay: cannot install \(type(of: module)): \(error)")
            }
        }
        return lua
    }

    /// Runs the script at `path` (a chunk named `@path`); `require` looks under `root`.
    public func run(file path: String, root: String?) -> ScriptResult {
        do {
            let lua = try makeState(root: root)
            try lua.run(file: path)
            return ScriptResult(path: path, failure: nil)
        } catch {
            return ScriptResult(path: path, failure: error)
        }
    }
}

/// How one script went.
public struct ScriptResult: Sendable, Equatable {
    /// The script's path as given.
    public var path: String
    /// Why it failed; nil when it passed.
    public var failure: LuaFailure?

    /// Whether the script ran to its end.
    public var passed: Bool { failure == nil }
}
