import LuaRuntime
import TestResults

/// Where the state a test runs in comes from (issue 42: each speed trick behind its own seam):
/// a state at the start of a test of a file, its top level run, `math.random` seeded with the
/// test's seed. The plain way is the protocol's own, a fresh state for every test
/// (``FreshStates``); ``SnapshotStates`` restores a snapshot taken after the file's top level
/// instead, and takes the plain way whenever it has none.
public protocol StatePolicy: Sendable {
    /// A state at the start of a test of `file` (or of the whole script, `wholeScript`: the file
    /// itself, run from before its top level), `math.random` seeded with `seed`. `listing`: the
    /// test is discovery's, which runs the file to list its tests. `lua` is set as soon as there
    /// is a state, so that a top level that raises is reported with what it printed.
    func prepared(
        file: String, root: String?, variant: ScreenVariant, seed: Int, wholeScript: Bool, listing: Bool,
        scripts: ScriptRunner, into lua: inout LuaState?
    ) throws(LuaFailure) -> LuaState

    /// Why the tests of `file` re-run its top level in this process, if they do (`--verbose`).
    func fallback(for file: String) -> String?
}

extension StatePolicy {
    /// The plain way: a fresh state, with `scripts`' sandbox and modules, and the file's top level
    /// run in it.
    public func prepared(
        file: String, root: String?, variant: ScreenVariant, seed: Int, wholeScript: Bool, listing: Bool,
        scripts: ScriptRunner, into lua: inout LuaState?
    ) throws(LuaFailure) -> LuaState {
        let state = try scripts.makeState(root: root, seed: seed, variant: variant)
        lua = state
        try state.run(file: file)
        return state
    }

    /// A fresh state's tests run the top level each: that is no fallback.
    public func fallback(for file: String) -> String? { nil }
}

/// Every test in a fresh state (`STACKPLAY_FRESH_STATES=1`, a file loaded once in the runner's
/// own process): the protocol's plain way, nothing kept between tests.
public struct FreshStates: StatePolicy {
    public init() {}
}

/// The policies a runner chooses from.
public enum StatePolicies {
    /// This process's: snapshot-restored states (``SnapshotStates``) unless they are switched off
    /// (``offReason``), then fresh ones.
    public static func standard() -> any StatePolicy {
        offReason == nil ? SnapshotStates() : FreshStates()
    }

    /// Why snapshot-restored states are switched off in this process, or nil: the switch
    /// `STACKPLAY_FRESH_STATES` is on (`--verbose` says so).
    public static var offReason: String? { LuaState.freshStatesReason }
}
