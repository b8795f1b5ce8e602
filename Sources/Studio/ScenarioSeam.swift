import Traces

/// Where Record's trace becomes Lua: h37loop's scenario generator (wired at the merge).
enum ScenarioSeam {
    static func lua(_ trace: Trace, _ expectations: [Recording.Expectation]) -> String {
        "-- \(trace.steps.count) events recorded; the scenario generator is not wired yet\n"
    }
}
