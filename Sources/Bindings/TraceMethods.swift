import StackModel
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// Lua: `stackplay.replay(path, { events = N, tolerance = 1e-9, check = true })` and the runner's
/// `stackplay._traces()`.
enum TraceMethods {
    /// The tolerance replays use when none is given: layout arithmetic is exact run to run, so
    /// this only forgives a trace written by another tool with rounded numbers.
    static let defaultTolerance = 1e-9

    /// Lua: `local screen, components = stackplay.replay("traces/x.jsonl", { events = 12 })`.
    /// Builds the screen from the trace's header, feeds it the first `events` events (all by
    /// default) and, unless `check = false`, raises at the first frame that differs from the
    /// recorded one. Returns the screen and a table of its components by name.
    static func replay(_ a: LuaArguments, session: ScriptSession) throws -> [LuaValue] {
        let path = try a.string(at: 1)
        let o = try LuaOptions(a, at: 2, known: ["events", "tolerance", "check"])
        let until = try o.optionalCount("events")
        let tolerance = try o.number("tolerance", default: defaultTolerance, allowNegative: false)
        let check = try o.boolean("check", default: true)
        do {
            let trace = try Trace(contentsOf: path)
            if let until, until > trace.steps.count {
                throw a.error(
                    at: 2, "field 'events': the trace has \(trace.steps.count) events, got \(until)")
            }
            let replayer = try TraceReplayer(trace) { session.track($0) }
            if check {
                if let mismatch = try replayer.run(until: until, tolerance: tolerance) {
                    throw LuaError("replay: \(mismatch)")
                }
            } else {
                while replayer.position < (until ?? trace.steps.count) { try replayer.step() }
            }
            return [.object(replayer.screen), .table(handles(replayer.screen))]
        } catch let error as TraceError {
            throw LuaError("replay: \(error)")
        }
    }

    static let notRecorded =
        "the screen is not recorded: make it with stackplay.screen { record = true }, or run with --trace"

    /// Lua (the prelude's `expect_trace(screen, path)`): compares what `screen` has recorded so
    /// far with the golden trace at `path`. A missing file, or any with `--update`, is written and
    /// named on stderr. Returns nil when they match, or the first difference as text.
    static func golden(_ a: LuaArguments, session: ScriptSession) throws -> [LuaValue] {
        let screen = try a.object(at: 1, as: Screen.self)
        let path = try a.string(at: 2)
        guard let recorder = session.recorder(of: screen) else { throw a.error(at: 1, notRecorded) }
        let text = recorder.text
        do {
            if session.updatesGolden || !TraceFile.exists(path) {
                if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                    try TraceFile.makeDirectory(String(path[..<slash]))
                }
                try TraceFile.write(text, to: path)
                GoldenNotice.wrote(path)
                return [.nil]
            }
            let expected = try Trace(contentsOf: path)
            let actual = try Trace(text: text, file: "(this run)")
            guard
                let mismatch = TraceComparison.firstDifference(
                    expected: expected, actual: actual, tolerance: 0)
            else { return [.nil] }
            return [
                .string(
                    "\(mismatch)\n  To fix: if the change is meant, run again with --update to record \(path)."
                )
            ]
        } catch let error as TraceError {
            throw LuaError("expect_trace: \(error)")
        } catch let error as TraceFile.Failure {
            throw LuaError("expect_trace: \(error.message)")
        }
    }

    /// The components of `screen` as Lua handles, by name.
    static func handles(_ screen: Screen) -> [String: LuaValue] {
        var table: [String: LuaValue] = [:]
        for component in screen.components {
            switch component {
            case let stack as NotificationStack:
                table[component.name] = .object(ComponentHandle(screen: screen, component: stack))
            case let wallet as WalletCardStack:
                table[component.name] = .object(ComponentHandle(screen: screen, component: wallet))
            case let sticky as StickyStackedCards:
                table[component.name] = .object(ComponentHandle(screen: screen, component: sticky))
            default: break
            }
        }
        return table
    }

    /// The runner's view: the trace of every recorded screen, in the order they were made.
    static func traces(session: ScriptSession) -> [LuaValue] {
        [.array(session.recorders.map { .string($0.text) })]
    }
}

/// Tells the person running the scripts that a golden trace was written, on stderr, at once.
enum GoldenNotice {
    static func wrote(_ path: String) {
        var line = "stackplay: wrote the golden trace \(path)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
