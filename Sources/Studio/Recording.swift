import Codegen
import StackModel
import Traces

/// Record: the live screen's recorded trace as the Lua a person would write (Codegen's
/// ``ScenarioWriter``), ending with the expectations picked on the page. An expectation reads
/// the screen at the end of the recording: pick it once the screen shows what to check.
struct Recording {
    /// The test's name in the written scenario.
    static let testName = "recorded in stackplay studio"

    private(set) var expectations: [Expectation] = []

    /// The expectation the page picked: a card's field (`card` and `field`: `x`, `opacity`, ...)
    /// or a component's state field (`ids`, `count`, `expanded`, `selection`, ...).
    mutating func expect(_ message: JSONValue, on screen: Screen) throws(StudioError) {
        guard case .string(let name)? = message["component"], case .string(let field)? = message["field"]
        else {
            throw StudioError("an expectation names a component and a field")
        }
        guard screen.component(named: name) != nil else {
            throw StudioError("no component '\(name)' on the screen")
        }
        let picked: Expectation
        if case .string(let id)? = message["card"] {
            guard let cardField = Expectation.CardField(rawValue: field) else {
                throw StudioError(
                    "a card's expectation is one of "
                        + Expectation.CardField.allCases.map(\.rawValue).joined(separator: ", ")
                        + ", not '\(field)'")
            }
            picked = .card(name, id, cardField)
        } else {
            picked = field == "ids" ? .ids(name) : field == "count" ? .count(name) : .state(name, field)
        }
        if !expectations.contains(picked) { expectations.append(picked) }
    }

    /// The scenario so far (nil when not recording), or why it cannot be written.
    func lua(of live: LiveScreen) -> String? {
        guard let trace = live.recordedTrace() else { return nil }
        do {
            let writer = try ScenarioWriter(trace: trace)
            return try writer.lua(
                testName: Self.testName, expectations: expectations.isEmpty ? nil : expectations)
        } catch {
            return "-- the recording cannot be written as Lua yet: \(error)\n"
        }
    }
}
