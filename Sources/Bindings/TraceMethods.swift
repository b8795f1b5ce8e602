import StackModel
import Traces

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
        let until = try o.optionalNumber("events", allowNegative: false).map { Int($0) }
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
