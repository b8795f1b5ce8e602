import Exploration
import LuaRuntime
import StackModel

/// One exploration a file declares with `explore(name, { ... })`, as the runner lists it.
public struct ExplorationInfo: Sendable {
    public var name: String
    /// `path:line` of the `explore(...)` call.
    public var position: String
    /// The weights the file gave the default families (`actions = { tap = 0 }`).
    public var weights: [String: Double]
    /// The file's own actions and their weights.
    public var actions: [(name: String, weight: Double)]
    /// The built-in invariants the file turned off.
    public var off: [String]
}

/// A file of explorations loaded in a sandboxed Lua state of its own (`stackplay explore`): its
/// setups, invariants and actions run in that state; the runs themselves are generated and run
/// in Swift (`Exploration.Explorer`), which calls into Lua once a step for the invariants.
public final class LuaExplorationFile {
    public let file: String
    public let lua: LuaState
    public let explorations: [ExplorationInfo]

    /// Loads `file` under `runner`'s sandbox and modules; `math.random` is seeded from `seed` and
    /// the file's path, as a test's is.
    public init(file: String, root: String?, runner: ScriptRunner, seed: Int) throws(LuaFailure) {
        self.file = file
        lua = try runner.makeState(root: root, seed: RunSeed.seed(seed, file: file, name: file))
        try lua.run(file: file)
        guard case .array(let entries)? = try lua.callRunner("explorations", []).first else {
            explorations = []
            return
        }
        explorations = entries.compactMap { entry in
            guard case .table(let fields) = entry else { return nil }
            var weights: [String: Double] = [:]
            if case .table(let given)? = fields["weights"] {
                for (key, value) in given { weights[key] = value.number ?? 0 }
            }
            var actions: [(String, Double)] = []
            if case .array(let list)? = fields["actions"] {
                for case .table(let action) in list {
                    actions.append((action["name"]?.string ?? "?", action["weight"]?.number ?? 1))
                }
            }
            return ExplorationInfo(
                name: fields["name"]?.string ?? "?", position: fields["position"]?.string ?? file,
                weights: weights, actions: actions, off: fields["off"]?.strings ?? [])
        }
    }

    /// The explorer of exploration `index` (0-based) with `budget`.
    public func explorer(_ index: Int, budget: ExploreBudget) -> Explorer {
        let info = explorations[index]
        let builtins = Set(BuiltinInvariant.allCases.filter { !info.off.contains($0.name) })
        return Explorer(
            name: info.name, host: LuaExploreHost(lua: lua, index: index + 1),
            generator: ExploreGenerator(custom: info.actions, overrides: info.weights),
            builtins: builtins, budget: budget)
    }
}

/// The Lua side of one exploration: the private runner table (explore.lua's functions) calls its
/// setup, invariants and actions (`runner.explore_setup`, `explore_check`, `explore_action`).
final class LuaExploreHost: ExploreHost {
    let lua: LuaState
    /// The exploration's 1-based index in the prelude's list.
    let index: LuaValue

    init(lua: LuaState, index: Int) {
        self.lua = lua
        self.index = .integer(index)
    }

    func setUp() throws -> Screen {
        lua.session.explored = nil
        _ = try lua.callRunner("explore_setup", [index])
        guard let screen = lua.session.explored else { throw LuaError("the setup made no screen") }
        return screen
    }

    /// The mirrored twin: the setup runs with every screen mirrored (as under `--mirror`, so
    /// that the file's own actions see their world); a screen it made otherwise is mirrored here.
    func setUp(mirrored: Bool) throws -> Screen {
        guard mirrored else { return try setUp() }
        lua.session.mirrorsScreens = true
        defer { lua.session.mirrorsScreens = false }
        let screen = try setUp()
        Explorer.mirror(screen)
        return screen
    }

    func checkInvariants() throws -> ExploreFailure? {
        let results = try lua.callRunner("explore_check", [index])
        guard let name = results.first?.string else { return nil }
        return ExploreFailure(invariant: name, message: results.count > 1 ? results[1].string ?? "" : "")
    }

    func perform(custom name: String, argument: Int) throws {
        _ = try lua.callRunner("explore_action", [index, .string(name), .integer(argument)])
    }

    func runThroughAPI(_ chunk: String) throws -> Screen? {
        lua.session.explored = nil
        _ = try lua.callRunner("explore_lua", [index, .string(chunk)])
        return lua.session.explored
    }
}
