import StackModel

/// The picture of a failed test's likely cause: the test's name and the cause in words over the
/// frames before and after the action that made it, side by side, with each finger of the action:
/// where it went down (before) and the path it took to where it came up (after), with the drag's
/// translation. What `--artifacts` writes for a failed expectation with a likely cause.
extension TraceSVG {
    /// The room for the title lines above the two frames.
    static let titleHeight = 58.0
    /// The gap between the two frames.
    static let gap = 24.0

    /// The picture of `action` of `trace` (its frames before and after, its fingers), under the
    /// test's name `title` and the cause `cause`.
    public static func cause(_ trace: Trace, action: TraceAction, title: String, cause: String)
        throws(TraceError)
        -> String
    {
        let first = action.firstEvent
        let last = min(action.firstEvent + action.events, trace.steps.count) - 1
        guard first >= 0, last >= first else {
            throw TraceError(file: trace.file, line: action.line, message: "the action has no events to draw")
        }
        let before = first == 0 ? try initialFrame(of: trace) : try trace.frame(at: first - 1)
        guard let before, let after = try trace.frame(at: last) else {
            throw TraceError(
                file: trace.file, line: trace.steps[last].line, field: "frame",
                message: "missing: this event has no frame to draw")
        }
        try checkDrawable(
            before, file: trace.file, line: trace.steps[max(first - 1, 0)].line, prefix: "frame.")
        try checkDrawable(after, file: trace.file, line: trace.steps[last].line, prefix: "frame.")
        let fingers = paths(of: trace.steps[first...last])
        let size = trace.settings.size
        let panel = size.width + 2 * margin
        let width = 2 * panel + gap
        let height = size.height + 2 * margin + titleHeight
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(n(width)) \(n(height))" width="\(n(width))" \
            height="\(n(height))" font-family="sans-serif">
            <text class="title" x="4" y="18" font-size="15" font-weight="bold" fill="#222">\(escape(title))</text>
            <text class="cause" x="4" y="38" font-size="12" fill="#8a3b00">likely cause: \(escape(cause))</text>

            """
        let captions = [
            "before \(action.method) at \(action.file):\(action.sourceLine)",
            "after it: event \(last), t = \(formatNumber((trace.steps[last].time * 100).rounded() / 100)) s",
        ]
        for (column, frame) in [before, after].enumerated() {
            let x = Double(column) * (panel + gap)
            out +=
                "<g class=\"\(column == 0 ? "before" : "after")\" transform=\"translate(\(n(x)) \(n(titleHeight)))\">"
            out +=
                "<text x=\"4\" y=\"12\" font-size=\"12\" fill=\"#333\">\(escape(captions[column]))</text>\n"
            // The frame's own picture, nested below the caption (its viewBox keeps its coordinates,
            // its width and height are the panel's).
            let picture = render(frame)
            let opening = "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            out += "<svg x=\"0\" y=\"16\" " + picture.dropFirst(opening.count).dropLast("</svg>\n".count)
            out += fingerMarks(fingers, lifted: column == 1)
            out += "</svg></g>\n"
        }
        return out + "</svg>\n"
    }

    /// Each finger of `steps`: where it went down and each place it moved to.
    static func paths(of steps: ArraySlice<TraceStep>) -> [(touch: Int, points: [Point])] {
        var paths: [(touch: Int, points: [Point])] = []
        for step in steps {
            guard case .event(let event) = step.input else { continue }
            switch event {
            case .touchDown(let touch, let point): paths.append((touch, [point]))
            case .touchMove(let touch, let point):
                if let index = paths.lastIndex(where: { $0.touch == touch }) {
                    paths[index].points.append(point)
                }
            default: break
            }
        }
        return paths
    }

    /// The fingers: before the action, a circle where each goes down; after it, the path from there
    /// to where it came up, and the drag's translation.
    static func fingerMarks(_ fingers: [(touch: Int, points: [Point])], lifted: Bool) -> String {
        var out = ""
        for (touch, points) in fingers {
            guard let start = points.first, let end = points.last else { continue }
            out += "<g class=\"finger\" data-touch=\"\(touch)\">"
            if lifted, points.count > 1 {
                let line = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                out +=
                    "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#e65100\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>"
                out += "<circle cx=\"\(n(start.x))\" cy=\"\(n(start.y))\" r=\"4\" fill=\"#e65100\"/>"
                out +=
                    "<text class=\"translation\" x=\"\(n(end.x + 20))\" y=\"\(n(end.y - 20))\" font-size=\"13\" fill=\"#e65100\">"
                    + "drag \(n(end.x - start.x)), \(n(end.y - start.y))</text>"
            }
            let at = lifted ? end : start
            out +=
                "<circle class=\"finger-spot\" cx=\"\(n(at.x))\" cy=\"\(n(at.y))\" r=\"14\" fill=\"rgba(230,81,0,0.25)\" stroke=\"#e65100\" stroke-width=\"2\"/>"
            out += "</g>\n"
        }
        return out
    }
}
