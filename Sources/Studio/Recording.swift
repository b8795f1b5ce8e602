import StackModel
import Traces

/// Record: the live screen's recorded trace as the Lua a person would write, with the
/// expectations picked on the page (what a card or the state panel shows now).
struct Recording {
    /// One picked expectation: a component's state field (`ids`, `selection`, `expanded`, ...)
    /// or one card's frame field (`x`, `opacity`, ...), and the value it has now.
    struct Expectation {
        var component: String
        var card: String?
        var field: String
        var value: JSONValue
        /// The event count of the recording when it was picked: it goes after those events.
        var after: Int
    }

    private(set) var expectations: [Expectation] = []

    /// Adds the expectation the page picked, with the value the screen shows now.
    mutating func expect(_ message: JSONValue, on screen: Screen, events: Int) throws(StudioError) {
        guard case .string(let name)? = message["component"], case .string(let field)? = message["field"]
        else {
            throw StudioError("an expectation names a component and a field")
        }
        guard case .array(let components)? = TraceFormat.encode(screen.snapshot())["components"],
            let component = components.first(where: { $0["name"] == .string(name) })
        else { throw StudioError("no component '\(name)' on the screen") }
        var card: String?
        let value: JSONValue?
        if case .string(let id)? = message["card"] {
            card = id
            guard case .array(let cards)? = component["cards"],
                let found = cards.first(where: { $0["id"] == .string(id) })
            else { throw StudioError("no card '\(id)' in \(name) now") }
            value = found[field]
        } else {
            value = component["state"]?[field]
        }
        guard let value else { throw StudioError("\(name) shows no '\(field)'") }
        expectations.append(
            Expectation(component: name, card: card, field: field, value: value, after: events))
    }

    /// The scenario so far, nil when nothing is recorded.
    func lua(of live: LiveScreen) -> String? {
        guard let trace = live.recordedTrace() else { return nil }
        return ScenarioSeam.lua(trace, expectations)
    }
}
