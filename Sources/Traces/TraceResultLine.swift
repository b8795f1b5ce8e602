import TestResults

/// A `--trace` file's last line: the run's verdict on the test that recorded it, so that the file
/// alone says how its test ended (`stackplay view` shows the verdict, the message and the output).
/// The line is `{"result": {...}, "screen": N}`, the test as the `--json` report writes it, without its traces
/// and with `seconds` 0 (the same run writes the same bytes);
/// readers that replay or compare a trace (golden traces, `replay`, `render`, `codegen`) skip it.
public enum TraceResultLine {
    /// `trace` (a recorded trace's text, of the test's `screen`th screen, from 1) with `result`'s
    /// line after its last.
    public static func appending(_ result: TestResult, screen: Int, to trace: String) -> String {
        var verdict = result
        verdict.traces = []
        verdict.seconds = 0  // a trace's bytes never depend on the machine's speed
        let line = JSONValue.object([
            ("result", JSONValueEncoder().json(verdict)), ("screen", .number(Double(screen))),
        ]).text
        return (trace.isEmpty || trace.hasSuffix("\n") ? trace : trace + "\n") + line + "\n"
    }

    /// `trace` without its result line (the text of ``Trace/result``'s trace): what the viewer
    /// plays.
    public static func removed(from trace: String) -> String {
        var lines = trace.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let last = lines.last, last.hasPrefix(#"{"result":"#) else { return trace }
        lines.removeLast()
        return lines.map { $0 + "\n" }.joined()
    }
}
