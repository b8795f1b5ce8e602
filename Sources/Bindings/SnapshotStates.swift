import LuaRuntime
import TestResults

#if canImport(Glibc)
    import Glibc
#endif

/// The snapshot-restored states of one runner in one process (issue 21): a state is built once
/// (sandbox, modules, prelude) and snapshotted; a file's top level then runs once and is
/// snapshotted too, and each test of the file starts by restoring that snapshot. Every internal
/// pointer of the state is valid again after a restore, so a test sees the state exactly as the
/// first test did.
///
/// A file whose top level made Swift objects that Lua holds (a screen, a component), or drew random
/// numbers, is not snapshotted after its top level: each of its tests restores the state from
/// before the top level and runs it again, as a fresh state would (``fallback(for:)`` says why).
/// Everything outside the arena is restored with it: the guard's counters (C), the session's
/// output and screens (``ScriptSession/restore(_:)``), the test's own random seed.
///
/// `STACKPLAY_FRESH_STATES=1`, a build with AddressSanitizer, or a run without a memory budget
/// use fresh malloc-backed states instead (``StatePolicy``'s plain way), as does a test whose
/// thread finds the states held by another.
final class SnapshotStates: StatePolicy, @unchecked Sendable {

    /// What a state is built for: the scripts' folder and the `--matrix`/`--mirror` variant.
    private struct Key: Hashable {
        var root: String?
        var variant: ScreenVariant
    }

    private final class Entry {
        let lua: LuaState
        /// The snapshot after the sandbox, the modules and the prelude.
        let base: Int
        let baseMark: ScriptSession.Mark
        /// The file whose top level ran last in `lua` (nil after a whole script or a failure), as it
        /// was then (a file that changed runs again).
        var file: String?
        var identity: CompiledFiles.Identity?
        /// The snapshot after `file`'s top level; nil when its tests re-run it (`fallback`).
        var fileLevel: Int?
        var fileMark: ScriptSession.Mark?
        var used = 0

        init(lua: LuaState, base: Int) {
            self.lua = lua
            self.base = base
            baseMark = lua.session.mark
        }
    }

    /// The states kept at once at least, and at most: the cache grows to one state for each
    /// variant (and root) the worker has run, up to `mostKept` (a `--matrix` of 12 dynamic type
    /// sizes keeps 12: each test of a file runs in every variant in turn, and a cache smaller than
    /// that cycle made a state again for every test, ten times slower).
    static let kept = 8
    static let mostKept = 48

    private var entries: [Key: Entry] = [:]
    /// Every key asked for so far: how many states the run's cycle of variants needs.
    private var seen: Set<Key> = []
    private var uses = 0
    /// How many states this process built and snapshotted (a matrix's cycle builds one a variant).
    private(set) var built = 0
    /// Set when no arena can be made in this process: every test then gets a fresh state.
    private var unavailable: String? = LuaState.freshStatesReason
    /// Files whose tests re-run the top level, and why.
    private var fallbacks: [String: String] = [:]
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }
    deinit { pthread_mutex_destroy(&lock) }

    /// Runs `body` holding the states, or returns nil at once when another thread holds them (that
    /// thread's test runs in a fresh state instead).
    func exclusively<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T? {
        guard pthread_mutex_trylock(&lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(&lock) }
        return try body()
    }

    /// Why `file`'s tests re-run its top level, if they do.
    func fallback(for file: String) -> String? {
        exclusively { fallbacks[file] } ?? nil
    }

    /// A snapshot-restored state at the start of the test (``prepare(file:root:variant:seed:wholeScript:listing:scripts:into:)``),
    /// or a fresh one when there is none to use.
    func prepared(
        file: String, root: String?, variant: ScreenVariant, seed: Int, wholeScript: Bool, listing: Bool,
        scripts: ScriptRunner, into lua: inout LuaState?
    ) throws(LuaFailure) -> LuaState {
        let restored = try exclusively { () throws(LuaFailure) -> Bool in
            try prepare(
                file: file, root: root, variant: variant, seed: seed, wholeScript: wholeScript,
                listing: listing, scripts: scripts, into: &lua)
        }
        if restored == true, let lua { return lua }
        return try FreshStates().prepared(
            file: file, root: root, variant: variant, seed: seed, wholeScript: wholeScript, listing: listing,
            scripts: scripts, into: &lua)
    }

    /// Puts `lua` at the start of a test of `file`: its top level has run (once a file, or again
    /// for a file that falls back), `math.random` seeded with `seed`. A `wholeScript` is the file
    /// itself, run from the state before its top level. Returns false when there is no
    /// snapshot-restored state to use (the caller makes a fresh one). Throws what the top level
    /// raised, with `lua` set for the report.
    ///
    /// `listing` (discovery) checks that the file is the one whose top level ran last (its
    /// device, inode, size and modification time); a test after it restores that top level's
    /// snapshot without looking at the file again (a `stat` was a tenth of an empty test): the
    /// tests of one listing run the file that listed them.
    func prepare(
        file: String, root: String?, variant: ScreenVariant, seed: Int, wholeScript: Bool,
        listing: Bool = false,
        scripts: ScriptRunner,
        into lua: inout LuaState?
    ) throws(LuaFailure) -> Bool {
        guard unavailable == nil, let entry = entry(root: root, variant: variant, scripts: scripts) else {
            return false
        }
        let state = entry.lua
        let session = state.session
        if !wholeScript, !listing, entry.file == file, let level = entry.fileLevel, let mark = entry.fileMark
        {
            try state.restore(snapshot: level)
            session.restore(mark)
            guard state.seedRandom(seed) else { return false }
            lua = state
            return true
        }
        let identity = CompiledFiles.Identity(file)
        let known = entry.file == file && identity != nil && entry.identity == identity
        if !wholeScript, known, let level = entry.fileLevel, let mark = entry.fileMark {
            try state.restore(snapshot: level)
            session.restore(mark)
            guard state.seedRandom(seed) else { return false }
            lua = state
            return true
        }
        try state.restore(snapshot: entry.base)
        session.restore(entry.baseMark)
        guard state.seedRandom(seed) else { return false }
        lua = state
        if !known { fallbacks[file] = nil }
        entry.file = nil
        entry.fileLevel = nil
        entry.fileMark = nil
        let before = state.randomState
        try state.run(file: file)
        if wholeScript { return true }
        // A file that declares no test and no exploration is one test, the whole script, and this
        // run is it: no test restores a snapshot after its top level, so none is taken (a third of
        // a one-line script's start in the worker).
        if listing, try Self.declaresNothing(state) { return true }
        entry.file = file
        entry.identity = identity
        if known && fallbacks[file] != nil { return true }
        if let why = reason(state, randomBefore: before) {
            fallbacks[file] = why
        } else if let level = state.takeSnapshot() {
            entry.fileLevel = level
            entry.fileMark = session.mark
        } else {
            fallbacks[file] = "the state could not be snapshotted"
        }
        return true
    }

    /// Whether the file whose top level just ran in `lua` registered no test and no exploration.
    /// The prelude's `runner.tests()` hands over its own list and counts: it makes no Lua object,
    /// so the state is as the top level left it.
    private static func declaresNothing(_ lua: LuaState) throws(LuaFailure) -> Bool {
        var nothing = false
        let stack = lua.stack
        try lua.callRunner("tests", []) { first, count in
            let tests = count > 0 && stack.isTable(first) ? stack.rawLength(first) : 1
            let explorations = count > 1 ? stack.rawNumber(at: first + 1) ?? 1 : 1
            nothing = tests == 0 && explorations == 0
        }
        return nothing
    }

    /// Why a state whose file's top level just ran must not be snapshotted there, or nil.
    private func reason(_ lua: LuaState, randomBefore: [UInt8]) -> String? {
        if lua.session.madeScreens { return "its top level made a screen" }
        if lua.retainsSinceSnapshot > 0 { return "its top level made Swift objects that Lua holds" }
        if randomBefore.isEmpty || lua.randomState != randomBefore {
            return "its top level draws random numbers"
        }
        return nil
    }

    /// The state for `root` and `variant`, built and snapshotted on first use; nil when it cannot be
    /// (the caller's fresh state then reports any error of the modules).
    private func entry(root: String?, variant: ScreenVariant, scripts: ScriptRunner) -> Entry? {
        let key = Key(root: root, variant: variant)
        uses += 1
        if let entry = entries[key] {
            entry.used = uses
            return entry
        }
        seen.insert(key)
        let room = min(max(Self.kept, seen.count), Self.mostKept)
        // Past the most kept, the state used last goes: a cycle over more variants than that then
        // keeps all but one of the states warm (the oldest would go just before its next use).
        if entries.count >= room, let newest = entries.max(by: { $0.value.used < $1.value.used })?.key {
            entries[newest] = nil
        }
        let lua: LuaState
        do {
            lua = try scripts.makeState(root: root, variant: variant, snapshotting: true)
        } catch {
            if !Self.isModuleFailure(error) { unavailable = error.message }
            return nil
        }
        guard let base = lua.takeSnapshot() else {
            unavailable = "the state could not be snapshotted"
            return nil
        }
        let entry = Entry(lua: lua, base: base)
        built += 1
        entry.used = uses
        entries[key] = entry
        return entry
    }

    /// Whether a failure to make a state came from the modules (a fresh state reports it) rather
    /// than from the arena (then none can be made in this process).
    private static func isModuleFailure(_ error: LuaFailure) -> Bool {
        !error.message.hasPrefix("no snapshot-restored state")
            && !error.message.hasPrefix("snapshot-restored states are off")
    }
}
