import LuaRuntime
import StackModel
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// Lua: `stackplay.replay(path, { events = N, tolerance = 1e-9, check = true })` and the prelude's
/// `to_match_trace`.
enum TraceMethods {
    /// The tolerance replays use when none is given: layout arithmetic is exact run to run, so
    /// this only forgives a trace written by another tool with rounded numbers.
    static let defaultTolerance = 1e-9

    /// Lua: `local screen, components = stackplay.replay("traces/x.jsonl", { events = 12 })`.
    /// Builds the screen from the trace's header, feeds it the first `events` events (all by
    /// default) and, unless `check = false`, raises at the first frame that differs from the
    /// recorded one. Returns the screen and a table of its components by name. The path is
    /// relative to the scripts' folder and may not leave it.
    static func replay(_ a: LuaArguments, session: ScriptSession, files: ScriptFiles, mirrored: Bool = false)
        throws -> [LuaValue]
    {
        let path = try files.confine(try a.string(at: 1), argument: 1, of: a)
        let o = try LuaOptions(a, at: 2, known: ["events", "tolerance", "check"])
        let until = try o.optionalCount("events")
        let tolerance = try o.number("tolerance", default: defaultTolerance, allowNegative: false)
        let check = try o.boolean("check", default: true)
        do {
            let trace = try Trace(contentsOf: path, kinds: files.kinds.traces)
            if let until, until > trace.steps.count {
                throw a.error(
                    at: 2, "field 'events': the trace has \(trace.steps.count) events, got \(until)")
            }
            // In a mirrored world the trace is the script's and its screen the mirror image.
            let replayer = try TraceReplayer(trace, mirrored: mirrored) { session.track($0) }
            if check {
                if let mismatch = try replayer.run(until: until, tolerance: tolerance) {
                    throw LuaError("replay: \(mismatch)")
                }
            } else {
                while replayer.position < (until ?? trace.steps.count) { try replayer.step() }
            }
            return [.object(replayer.screen), .table(handles(replayer.screen, kinds: files.kinds))]
        } catch let error as TraceError {
            throw LuaError("replay: \(error)")
        }
    }

    static let notRecorded =
        "the screen is not recorded: make it with stackplay.screen { record = true }, or run with --trace"

    /// Lua (the prelude's `expect_trace(screen, path)`): compares what `screen` has recorded so
    /// far with the golden trace at `path` (relative to the scripts' folder), by ``GoldenTrace``'s
    /// rules, as `--golden` does. A recorded golden trace is named on stderr. Returns nil when
    /// they match, or why not as text.
    static func golden(_ a: LuaArguments, session: ScriptSession, files: ScriptFiles) throws -> [LuaValue] {
        let screen = try a.object(at: 1, as: Screen.self)
        let name = try a.string(at: 2)
        guard let recorder = session.recorder(of: screen) else { throw a.error(at: 1, notRecorded) }
        var policy = files.golden
        policy.update = session.updatesGolden
        // A path that cannot be used comes back as a second result: the prelude raises it at the
        // script's line (an error raised here would point into the prelude), negated or not.
        do {
            guard let root = files.root else {
                return [.nil, .string("no scripts folder to find '\(name)' in")]
            }
            let path = try ConfinedPath(name, under: root)
            // A mirrored screen compares in the script's world but never writes: the golden trace
            // is the unmirrored run's to record (`--update` included).
            if screen.isMirrored {
                guard path.exists else { return [.nil] }
                policy.update = false
            }
            switch try GoldenTrace.check(
                recorder.text, golden: path, policy: policy, kinds: files.kinds.traces)
            {
            case .matched: return [.nil]
            case .recorded(let written):
                GoldenNotice.wrote(written)
                return [.nil]
            case .failed(let message): return [.string(message)]
            }
        } catch {
            return [.nil, .string("to_match_trace: cannot use the golden trace: \(error.message)")]
        }
    }

    /// The components of `screen` as Lua handles, by name.
    static func handles(_ screen: Screen, kinds: LuaComponentKinds) -> [String: LuaValue] {
        var table: [String: LuaValue] = [:]
        for component in screen.components {
            table[component.name] = kinds.handle(component, on: screen)
        }
        return table
    }
}

/// What a script's file paths resolve against, and how its golden traces are compared.
struct ScriptFiles {
    /// The scripts' folder (`--root`, or the folder given); nil: scripts name no files.
    var root: String?
    var golden: GoldenPolicy
    /// The component kinds its traces may hold.
    var kinds: LuaComponentKinds = .standard

    /// `name` resolved inside the scripts' folder, or a `bad argument` error naming it.
    func confine(_ name: String, argument: Int, of a: LuaArguments) throws -> ConfinedPath {
        guard let root else { throw a.error(at: argument, "no scripts folder to find '\(name)' in") }
        do { return try ConfinedPath(name, under: root) } catch { throw a.error(at: argument, error.message) }
    }
}

/// Tells the person running the scripts that a golden trace was written, on stderr, at once.
enum GoldenNotice {
    static func wrote(_ path: String) {
        var line = "stackplay: wrote the golden trace \(path)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
