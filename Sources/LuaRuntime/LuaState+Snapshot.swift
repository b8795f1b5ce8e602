import CLua
import CLuaRuntime
import CLuaSandbox
import CLuaSnapshot
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Snapshot-restored states (issue 21, `arena.h`): a state whose Lua memory is one arena at a
/// fixed address, so that copying a snapshot back restores it byte for byte. A worker builds a
/// file's state once and restores it before each test.
///
/// Swift objects its userdata hold are counted per snapshot: a restore releases those the
/// discarded Lua objects held, and a finalizer run during a test never releases an object a
/// snapshot still points at. Nothing Swift keeps may refer to Lua objects made after a snapshot
/// (no registry references outlive a test: LuaRuntime takes none).
extension LuaState {
    /// Whether this build has snapshot-restored states at all: not under AddressSanitizer, which
    /// must see every block of Lua's heap (the runner then makes a fresh state for each test).
    package static var snapshotsCompiledIn: Bool { stackplay_arena_compiled() != 0 }

    /// Whether this process makes snapshot-restored states: compiled in and not switched off
    /// (``freshStatesReason``).
    package static var snapshotsAvailable: Bool { snapshotsCompiledIn && freshStatesReason == nil }

    /// Why snapshot-restored states are off in this process by choice, or nil: the switch
    /// `STACKPLAY_FRESH_STATES` is on (``EnvironmentSwitch``). A build without them
    /// (``snapshotsCompiledIn``: AddressSanitizer) is not named here.
    package static let freshStatesReason: String? = {
        let name = "STACKPLAY_FRESH_STATES"
        guard EnvironmentSwitch.isOn(name), let value = getenv(name) else { return nil }
        return "\(name)=\(String(cString: value))"
    }()

    /// A fresh state, as ``init(budget:)``, whose memory is an arena of its own; throws (with the
    /// reason) when there can be none: snapshots off, no memory budget, no address range.
    package convenience init(snapshotting budget: LuaBudget) throws(LuaFailure) {
        if let reason = Self.freshStatesReason {
            throw LuaFailure(kind: .error, message: "snapshot-restored states are off: \(reason)")
        }
        var why = [CChar](repeating: 0, count: 200)
        let memory = budget.memoryBytes > 0 ? budget.memoryBytes : 0
        let (dispatch, release) = Self.callbacks
        guard
            let state = stackplay_newstate_arena(
                memory, budget.cpuSeconds, dispatch, release, &why, why.count)
        else {
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw LuaFailure(kind: .error, message: "no snapshot-restored state: \(reason)")
        }
        self.init(owning: state, budget: budget)
    }

    /// Whether this state lives in an arena and can take snapshots.
    package var isSnapshotting: Bool { !isHost && stackplay_arena_of(stack.L) != nil }

    /// Whether the arena is at its fixed address (else at one the kernel chose, which works the same
    /// within the process).
    package var hasFixedArena: Bool {
        guard !isHost, let arena = stackplay_arena_of(stack.L) else { return false }
        return stackplay_arena_fixed(arena) != 0
    }

    /// Bytes of the arena in use, its allocator's bookkeeping included (0 without an arena).
    package var arenaBytes: Int {
        guard !isHost, let arena = stackplay_arena_of(stack.L) else { return 0 }
        return stackplay_arena_used(arena)
    }

    /// Takes a snapshot of the state now; returns its level, for ``restore(snapshot:)``, or nil when
    /// the state has no arena, a Lua call is running, or every level is taken.
    package func takeSnapshot() -> Int? {
        guard !isHost else { return nil }
        let level = stackplay_snapshot_take(stack.L)
        return level > 0 ? Int(level) : nil
    }

    /// Puts the state back as it was when snapshot `level` was taken, dropping newer snapshots.
    /// Refused while a Lua call is running on the state (a Swift function called from Lua).
    package func restore(snapshot level: Int) throws(LuaFailure) {
        switch isHost ? -2 : stackplay_snapshot_restore(stack.L, Int32(level)) {
        case 0: return
        case -1:
            throw LuaFailure(
                kind: .error, message: "stackplay: a state cannot be restored while Lua runs in it")
        default:
            throw LuaFailure(kind: .error, message: "stackplay: the state has no snapshot \(level)")
        }
    }

    /// How many snapshots the state holds.
    package var snapshotLevels: Int { isHost ? 0 : Int(stackplay_snapshot_levels(stack.L)) }

    /// Swift objects made since the newest snapshot that Lua userdata still hold.
    package var retainsSinceSnapshot: Int { isHost ? 0 : stackplay_snapshot_retains(stack.L) }

    /// `body`'s result, with the collector stopped while it runs (restarted after, even when it
    /// throws): a listing right after a snapshot then writes none of the snapshot's objects, whose
    /// pages a lazy snapshot would otherwise have to save (issue 21).
    package func withCollectorStopped<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard !isHost else { return try body() }
        stackplay_collector_hold(stack.L, 1)
        defer { stackplay_collector_hold(stack.L, 0) }
        return try body()
    }

    /// Keeps the library's `math.randomseed` for ``seedRandom(_:)`` and ``randomState``: call it
    /// right after the standard libraries are open, before any script can replace it.
    package func captureRandom() { stackplay_random_capture(stack.L) }

    /// `math.randomseed(seed)` with the library's own function (as the sandbox seeds a fresh state).
    package func seedRandom(_ seed: Int) -> Bool { stackplay_random_seed(stack.L, Int64(seed)) == 0 }

    /// The random generator's state, to tell whether a chunk drew numbers; empty when unknown.
    package var randomState: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { stackplay_random_state(stack.L, $0.baseAddress, $0.count) }
        return Array(bytes.prefix(count))
    }
}
