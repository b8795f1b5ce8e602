import LuaRuntime
import TestResults

/// Makes the fresh sandboxed Lua states scripts run in: the sandbox, a budget, and the modules
/// (`TestRunner` makes one for each test).
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

    /// A fresh state as scripts see it: sandbox, `require` under `root`, `math.random` seeded
    /// with `seed`, modules.
    /// With `snapshotting`, the state lives in an arena and can take snapshots (``LuaState``'s
    /// `takeSnapshot`); it throws when it cannot be made so.
    public func makeState(
        root: String?, seed: Int = RunSeed.standard, variant: ScreenVariant = ScreenVariant(),
        snapshotting: Bool = false
    ) throws(LuaFailure) -> LuaState {
        let lua = try snapshotting ? LuaState(snapshotting: budget) : LuaState(budget: budget)
        lua.session.variant = variant
        try Sandbox(root: root, seed: seed).install(in: lua)
        for module in modules {
            do { try module.install(in: lua) } catch {
                throw LuaFailure(
                    kind: .error, message: "stackplay: cannot install \(type(of: module)): \(error)")
            }
        }
        return lua
    }
}
