import StackModel

/// The HTML report of a run (`--artifacts`): one section a test, failures first, each with its
/// message and a filmstrip of its frames, the failing frame marked.
public enum TraceReport {
    /// One test as the report shows it.
    public struct Entry: Sendable {
        public var name: String
        public var failed: Bool
        public var message: String
        /// The test's traces, one a screen.
        public var traces: [Trace]
        /// The accessibility issues that failed it, outlined on its failing frame.
        public var auditIssues: [AuditIssue]

        public init(
            name: String, failed: Bool, message: String, traces: [Trace], auditIssues: [AuditIssue] = []
        ) {
            self.auditIssues = auditIssues
            self.name = name
            self.failed = failed
            self.message = message
            self.traces = traces
        }
    }

    /// A filmstrip shows at most this many frames of a trace; the last is always among them.
    public static let maximumFrames = 48

    /// The indices of the frames a filmstrip shows: all, or evenly spaced ones and the last.
    static func shownFrames(_ count: Int) -> [Int] {
        guard count > maximumFrames else { return Array(0..<count) }
        var picked = (0..<maximumFrames - 1).map { $0 * (count - 1) / (maximumFrames - 1) }
        picked.append(count - 1)
        return picked
    }

    public static func html(_ entries: [Entry], title: String = "stackplay report") -> String {
        let ordered = entries.filter(\.failed) + entries.filter { !$0.failed }
        let failed = entries.filter(\.failed).count
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(TraceSVG.escape(title))</title>
            <style>
            body { font-family: sans-serif; margin: 16px; background: #fafafa; color: #222; }
            section { border: 1px solid #ccc; border-radius: 8px; margin: 12px 0; padding: 8px 12px; background: #fff; }
            section.failed { border-color: #c33; }
            h2 { font-size: 16px; margin: 4px 0; }
            .status { font-weight: bold; } .failed .status { color: #c33; } .passed .status { color: #393; }
            pre { background: #f3f3f3; padding: 6px; white-space: pre-wrap; font-size: 12px; }
            .filmstrip { display: flex; overflow-x: auto; gap: 6px; padding: 4px 0; }
            figure { margin: 0; flex: none; width: 124px; border: 2px solid transparent; border-radius: 4px; }
            figure.failing { border-color: #c33; }
            figure svg { width: 120px; height: auto; display: block; }
            figcaption { font-size: 10px; text-align: center; }
            </style></head><body>
            <h1>\(TraceSVG.escape(title))</h1>
            <p class="summary">\(entries.count - failed) passed, \(failed) failed</p>

            """
        for entry in ordered {
            let status = entry.failed ? "failed" : "passed"
            out +=
                "<section class=\"test \(status)\"><h2><span class=\"status\">\(status.uppercased())</span> \(TraceSVG.escape(entry.name))</h2>\n"
            if !entry.message.isEmpty { out += "<pre>\(TraceSVG.escape(entry.message))</pre>\n" }
            for (screen, trace) in entry.traces.enumerated() {
                if entry.traces.count > 1 { out += "<p>screen \(screen + 1)</p>\n" }
                out += "<div class=\"filmstrip\">\n"
                for index in shownFrames(trace.steps.count) {
                    guard let frame = try? trace.frame(at: index) else { continue }
                    let failing =
                        entry.failed && index == trace.steps.count - 1 && screen == entry.traces.count - 1
                    out += "<figure class=\"frame\(failing ? " failing" : "")\" data-event=\"\(index)\">"
                    out += TraceSVG.render(frame, issues: failing ? entry.auditIssues : [])
                    out +=
                        "<figcaption>\(failing ? "✗ " : "")\(TraceSVG.escape(TraceSVG.caption(trace.steps[index])))</figcaption></figure>\n"
                }
                if trace.steps.isEmpty, let frame = try? TraceSVG.initialFrame(of: trace) {
                    let issues = entry.failed && screen == entry.traces.count - 1 ? entry.auditIssues : []
                    out +=
                        "<figure class=\"frame\" data-event=\"initial\">" + TraceSVG.render(frame, issues: issues)
                    out += "<figcaption>before any event</figcaption></figure>\n"
                }
                out += "</div>\n"
            }
            out += "</section>\n"
        }
        return out + "</body></html>\n"
    }
}
