import StackModel

/// A frame as an SVG picture: the screen's bounds, each component's outline, its header or detail
/// area, each visible card as a rounded rectangle with its id (its opacity applied, its frame
/// already scaled), drawn in z-order, and an arrow for the layout direction.
public enum TraceSVG {
    /// The corner radius of a card, at most half its shorter side.
    static let cornerRadius = 12.0
    /// Room around the screen for the direction marker and the caption.
    static let margin = 28.0

    /// The largest magnitude a picture holds: SVG numbers must be finite, and anything larger
    /// overflows once scaled or offset by the margin.
    public static let largestNumber = 1e300

    /// A number as SVG writes it, to 1/100 pt. Never `null`: NaN is 0 and a number past
    /// ``largestNumber`` is clamped to it (``undrawable(_:)`` tells the render command to refuse).
    static func n(_ value: Double) -> String {
        guard !value.isNaN else { return "0" }
        let clamped = min(max(value, -largestNumber), largestNumber)
        return JSONValue.format((clamped * 100).rounded() / 100)
    }

    /// The first number of `frame` an SVG cannot hold (NaN, infinite, or past ``largestNumber``),
    /// as the field that holds it (`settings.width`, `components[1].cards[2].x`) and its value.
    public static func undrawable(_ frame: FrameSnapshot) -> (field: String, value: Double)? {
        func bad(_ value: Double) -> Bool { !(abs(value) <= largestNumber) }
        func rect(_ r: Rect, _ path: String) -> (String, Double)? {
            for (name, value) in [("x", r.x), ("y", r.y), ("width", r.width), ("height", r.height)]
            where bad(value) {
                return (path + name, value)
            }
            return nil
        }
        let size = frame.settings.size
        if bad(size.width) { return ("settings.width", size.width) }
        if bad(size.height) { return ("settings.height", size.height) }
        for (i, component) in frame.components.enumerated() {
            let path = "components[\(i + 1)]."
            if let found = rect(component.frame, path + "frame.") { return found }
            for (j, part) in component.parts.enumerated() {
                if let found = rect(part.frame, path + "parts[\(j + 1)].") { return found }
                if bad(part.opacity) { return (path + "parts[\(j + 1)].opacity", part.opacity) }
            }
            for (j, card) in component.cards.enumerated() {
                let cardPath = path + "cards[\(j + 1)]."
                if let found = rect(card.frame, cardPath) { return found }
                for (name, value) in [("scale", card.scale), ("opacity", card.opacity), ("z", card.z)]
                where bad(value) {
                    return (cardPath + name, value)
                }
            }
        }
        return nil
    }

    /// Text safe inside XML.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            // XML 1.0 cannot hold the other control characters at all.
            default: if scalar.value < 0x20 { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// The picture of `frame`; `caption` goes under the screen (event and time); `issues` (an
    /// accessibility audit's, `--audit`) are outlined over everything, each named by its type.
    public static func render(_ frame: FrameSnapshot, caption: String = "", issues: [AuditIssue] = [])
        -> String
    {
        let s = frame.settings
        let w = s.size.width
        let h = s.size.height
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(n(-margin)) \(n(-margin)) \(n(w + 2 * margin)) \(n(h + 2 * margin))" \
            width="\(n(w + 2 * margin))" height="\(n(h + 2 * margin))" font-family="sans-serif">

            """
        out +=
            "<rect class=\"screen\" x=\"0\" y=\"0\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#f4f4f6\" stroke=\"#333\"/>\n"
        // The layout direction: an arrow from leading to trailing above the screen.
        let rtl = s.isRightToLeft
        let (from, to) = rtl ? (w - 8, w - 48) : (8.0, 48.0)
        out += "<g class=\"direction\" data-direction=\"\(s.layoutDirection.rawValue)\">"
        out +=
            "<line x1=\"\(n(from))\" y1=\"-12\" x2=\"\(n(to))\" y2=\"-12\" stroke=\"#06c\" stroke-width=\"3\"/>"
        out += "<polygon points=\"\(n(to)),-18 \(n(to + (rtl ? -10 : 10))),-12 \(n(to)),-6\" fill=\"#06c\"/>"
        out +=
            "<text x=\"\(n(rtl ? to - 16 : to + 16))\" y=\"-7\" font-size=\"12\" fill=\"#06c\"\(rtl ? " text-anchor=\"end\"" : "")>\(s.layoutDirection.rawValue)</text></g>\n"
        for component in frame.components {
            let f = component.frame
            out +=
                "<rect class=\"component\" data-name=\"\(escape(component.name))\" x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
            for part in component.parts where part.opacity > 0 {
                let p = part.frame
                out += "<g class=\"part\" data-name=\"\(escape(part.name))\" opacity=\"\(n(part.opacity))\">"
                out +=
                    "<rect x=\"\(n(p.x))\" y=\"\(n(p.y))\" width=\"\(n(p.width))\" height=\"\(n(p.height))\" fill=\"#dde8f4\" stroke=\"#8ab\"/>"
                out +=
                    "<text x=\"\(n(p.x + 6))\" y=\"\(n(p.y + 16))\" font-size=\"12\" fill=\"#357\">\(escape(part.name))</text></g>\n"
            }
        }
        // Every visible card, lowest z first, so later ones cover earlier ones as on screen.
        // Cards on their way out (G8) are drawn too, with their transition's opacity.
        let cards = frame.components.enumerated().flatMap { index, component in
            (component.cards + component.leaving).filter(\.isVisible).map { (index, $0) }
        }.enumerated().sorted {
            ($0.element.0, $0.element.1.z, $0.offset) < ($1.element.0, $1.element.1.z, $1.offset)
        }
        for (_, (_, card)) in cards {
            let r = card.frame
            let radius = min(cornerRadius * card.scale, r.width / 2, r.height / 2)
            out += "<g class=\"card\" data-id=\"\(escape(card.id))\" opacity=\"\(n(card.opacity))\">"
            out +=
                "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" rx=\"\(n(radius))\" fill=\"#fff\" stroke=\"#555\"/>"
            out +=
                "<text x=\"\(n(r.midX))\" y=\"\(n(r.midY + 5 * card.scale))\" font-size=\"\(n(14 * card.scale))\" text-anchor=\"middle\" fill=\"#222\">\(escape(card.id))</text></g>\n"
        }
        out += outlines(
            issues.filter { issue in frame.components.contains { $0.name.isSameBytes(issue.component) } })
        if !caption.isEmpty {
            out +=
                "<text class=\"caption\" x=\"0\" y=\"\(n(h + 18))\" font-size=\"13\" fill=\"#333\">\(escape(caption))</text>\n"
        }
        return out + "</svg>\n"
    }

    /// The audit's issues as red dashed outlines with their type and element.
    static func outlines(_ issues: [AuditIssue]) -> String {
        var out = ""
        for issue in issues {
            let r = issue.frame
            out +=
                "<g class=\"audit-issue\" data-type=\"\(issue.type.rawValue)\" data-rule=\"\(escape(issue.rule))\" data-element=\"\(escape(issue.element))\">"
            out +=
                "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" fill=\"#d00\" fill-opacity=\"0.08\" stroke=\"#d00\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
            out +=
                "<text x=\"\(n(r.x + 4))\" y=\"\(n(r.maxY - 4))\" font-size=\"11\" fill=\"#d00\">\(escape(issue.type.rawValue + " " + issue.element))</text>"
            out += "<title>\(escape(issue.compact))</title></g>\n"
        }
        return out
    }

    /// The picture of event `index` of `trace` (the last when nil), from its recorded frame. A
    /// trace without events shows the screen its header builds.
    public static func render(_ trace: Trace, at index: Int?, issues: [AuditIssue] = []) throws(TraceError)
        -> String
    {
        guard !trace.steps.isEmpty else {
            guard index == nil || index == 0 else {
                throw TraceError(
                    file: trace.file, line: 1, message: "no event \(index!): the trace has no events")
            }
            let frame = try initialFrame(of: trace)
            try checkDrawable(frame, file: trace.file, line: 1)
            return render(frame, caption: "before any event, t = 0 s", issues: issues)
        }
        let index = index ?? trace.steps.count - 1
        // -1: the screen as built, before the first event.
        if index == -1 {
            let frame = try initialFrame(of: trace)
            try checkDrawable(frame, file: trace.file, line: 1)
            return render(frame, caption: "before any event, t = 0 s", issues: issues)
        }
        guard index >= 0, index < trace.steps.count else {
            throw TraceError(
                file: trace.file, line: 1,
                message:
                    "no event \(index): the trace has events 0 to \(trace.steps.count - 1) (-1: before the first)"
            )
        }
        guard let frame = try trace.frame(at: index) else {
            throw TraceError(
                file: trace.file, line: trace.steps[index].line, field: "frame",
                message: "missing: this event has no frame to draw")
        }
        try checkDrawable(frame, file: trace.file, line: trace.steps[index].line, prefix: "frame.")
        return render(frame, caption: caption(trace.steps[index]), issues: issues)
    }

    /// Refuses a frame with a number an SVG cannot hold, naming the trace's line and field.
    static func checkDrawable(_ frame: FrameSnapshot, file: String, line: Int, prefix: String = "")
        throws(TraceError)
    {
        guard let (field, value) = undrawable(frame) else { return }
        throw TraceError(
            file: file, line: line, field: prefix + field,
            message: "\(JSONValue.format(value)) cannot be drawn: SVG numbers must be finite, at most "
                + "\(JSONValue.format(largestNumber)) in size")
    }

    /// The screen as the header builds it, before any event.
    /// In the script's world, as the trace's frames are (a mirrored trace's x mirrored back).
    public static func initialFrame(of trace: Trace) throws(TraceError) -> FrameSnapshot {
        let screen = try TraceReplayer(trace).screen
        return screen.mirror.frame(screen.snapshot())
    }

    /// `event 12 touch_move, t = 0.25 s`.
    public static func caption(_ step: TraceStep) -> String {
        "event \(step.index) \(step.type), t = \(JSONValue.format(step.time)) s"
    }
}
