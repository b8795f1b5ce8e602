import Exploration
import StackModel
import Traces

/// A trace written back as the Lua scenario a person would write (`stackplay codegen`, the
/// studio's recorder), in the README's API only: the screen and its components as made (the
/// options that differ from the defaults), `stack:drag("calendar", { x = -120 })` for a drag that
/// went down on a card, `c:tap(id)` for a tap, `cards:scroll(dy)`, `screen:settle()` and
/// `screen:advance(t)` for the clock, the settings' and owners' calls, and raw
/// `screen:touch_down`/`touch_move`/`touch_up` only for a gesture nothing plainer makes.
///
/// Every call is checked before it is kept: the writer runs the scenario so far, with the call,
/// through the same Swift API the Lua methods call, and keeps the plainest call (numbers rounded
/// first) whose frame equals the trace's replayed frame at that point (within 1e-9 pt) and stays
/// equal after the wait that follows. When the end differs all the same (a state no frame
/// shows), the trace is written again event by event, which replays it exactly. So the scenario,
/// run by stackplay, ends in the trace's final frame, and its expectations (``Expectation``)
/// read that frame.
///
/// ```swift
/// let trace = try Trace(contentsOf: "traces/x.jsonl")
/// let writer = try ScenarioWriter(trace: trace)
/// print(writer.lua(testName: "swipe the calendar card away"))
/// print(writer.lua(testName: "picked", expectations: [.ids("notifications"), .cardX("notifications", "mail")]))
/// ```
public struct ScenarioWriter {
    public let trace: Trace
    public let kinds: ScenarioKinds
    /// The scenario's calls after its screen line, in order (a component's call spans lines).
    public let calls: [String]
    /// The Lua variable of each component, by its name on the screen.
    public let variables: [String: String]
    /// The screen at the end, in the script's world: what the expectations read.
    public let finalFrame: FrameSnapshot
    /// The first frame where the trace's own recording differs from its replay on this model
    /// (a trace recorded by another version), nil when they agree. The scenario follows this
    /// model's replay.
    public let replayDifference: String?
    /// The card the last gesture went down on, if it is still there at the end.
    public let focusCard: (component: String, id: String)?
    let screenLine: String

    /// The test's statements before its expectations: the screen line, then ``calls``.
    public var body: [String] { [screenLine] + calls }

    /// Writes `trace`; throws when it does not replay on this model or holds an event no Lua call
    /// makes (a component kind without a factory, a `set_width` that no resize made).
    public init(trace: Trace, kinds: ScenarioKinds = .standard) throws(CodegenError) {
        self.trace = trace
        self.kinds = kinds
        do {
            let builder = try ScenarioBuilder(trace: trace, kinds: kinds)
            var result = try builder.build(exact: false)
            if !result.reproduces { result = try builder.build(exact: true) }

            guard result.reproduces else {
                throw CodegenError(
                    "\(trace.file): the written scenario does not end in the trace's final frame")
            }
            calls = result.calls
            finalFrame = result.final
            focusCard = result.focus
            variables = builder.variables
            replayDifference = builder.replayDifference
            screenLine = builder.setup.screenLua()
        } catch let error as CodegenError {
            throw error
        } catch let error as TraceError {
            throw CodegenError(error.description)
        } catch {
            throw CodegenError("\(trace.file): \(error)")
        }
    }

    /// The expectations a test written from the trace ends with: each component's ids and the
    /// state its kind checks first (`expanded`, `selection`, `scroll_offset`), and the place of
    /// the card the last gesture went down on (its `x` on a notification stack, its `y` on a
    /// wallet or the sticky cards), with its opacity while it is see-through.
    public var defaultExpectations: [Expectation] {
        var out: [Expectation] = []
        for component in finalFrame.components {
            out.append(.ids(component.name))
            if let type = kinds.type(of: component.kind) {
                out += type.checkedState.map { .state(component.name, $0) }
            }
        }
        if let focusCard,
            let component = finalFrame.components.first(where: { $0.name == focusCard.component })
        {
            let field = kinds.type(of: component.kind)?.movedCardField ?? .x
            out.append(.card(focusCard.component, focusCard.id, field))
            if let card = component.card(focusCard.id), card.opacity < 1 {
                out.append(.opacity(focusCard.component, focusCard.id))
            }
        }
        return out
    }

    /// The scenario: one `test(testName, ...)` that makes the screen, makes the calls and ends
    /// with `expectations` (the default ones when nil). Throws for an expectation of a component
    /// or card that is not on the screen at the end.
    public func lua(testName: String, expectations: [Expectation]? = nil) throws(CodegenError) -> String {
        var body = [screenLine] + calls
        for expectation in expectations ?? defaultExpectations {
            body.append(try expectation.lua(in: finalFrame, variables: variables, kinds: kinds))
        }
        let events = trace.steps.count
        var out =
            "-- Written by `stackplay codegen` from a trace of \(events) event\(events == 1 ? "" : "s"):\n"
        out += "-- \(luaComment(trace.file))\n"
        out += "test(\(luaString(testName)), function()\n"
        for call in body {
            for line in call.split(separator: "\n", omittingEmptySubsequences: false) {
                out += line.isEmpty ? "\n" : "  \(line)\n"
            }
        }
        return out + "end)\n"
    }
}
