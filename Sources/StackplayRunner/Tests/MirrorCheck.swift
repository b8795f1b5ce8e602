import Bindings
import StackModel
import TestResults
import Traces

/// `stackplay --mirror`: a mirrored test (`name [mirrored]`) passes only when every frame of every
/// screen it made is the mirror image of the frame its unmirrored twin saw at the same event.
///
/// Both runs happen here, in the same worker, one after the other: the twin (the same test, the
/// same seed, `mirror=off`) and the mirrored run (`mirror=on`), each recording every screen. A
/// mirrored screen records the script's world (``Mirror``): its frames are the right-to-left
/// frames mirrored back. So the two runs' traces must be equal, event by event, number for number
/// (to ``tolerance``; the header's `mirror` flag aside), and ``TraceComparison`` names the first place they part.
/// A test that asks `screen:mirrored()` knows its world and may act on it: its own checks are its
/// verdict, and its frames are not compared.
enum MirrorCheck {
    /// How far apart two numbers may be and still count as equal: `width − (width − x)` is not
    /// always `x` in floating point (37.47999999999999 comes back as 37.47999999999996), so a
    /// mirror image is exact to a billionth of a point.
    static let tolerance = 1e-9

    /// `mirrored`'s result with the comparison folded in: a difference fails it, with the first
    /// diverging event, the component, card and field, both values, and a picture.
    static func check(_ mirrored: TestResult, twin: TestResult, kinds: ComponentKinds) -> TestResult {
        var result = mirrored
        guard result.status != .skipped, !mirrored.asksMirror, !twin.asksMirror else { return result }
        guard let difference = firstDifference(twin: twin.traces, mirrored: mirrored.traces, kinds: kinds)
        else {
            return result
        }
        let own = result.status == .failed ? result.message : ""
        result.message =
            "\(result.test.position): mirrored, the screen is not the mirror image of the unmirrored run\n"
            + difference.text
            + "\n  To fix: make the right-to-left layout and gestures the mirror image of the left-to-right"
            + " ones; a test that must differ by direction asks screen:mirrored()."
            + (own.isEmpty ? "" : "\n  and the test's own check:\n" + own)
        if result.status != .failed {
            result.kind = .failure
            result.expected = difference.unmirrored
            result.actual = difference.mirrored
            result.diff = ""
            result.traceback = ""
        }
        result.status = .failed
        result.picture = difference.picture
        return result
    }

    /// Where the two runs part, in words, and the picture of that moment.
    struct Difference {
        var text: String
        var unmirrored: String
        var mirrored: String
        var picture: String
    }

    static func firstDifference(twin: [String], mirrored: [String], kinds: ComponentKinds) -> Difference? {
        if twin.count != mirrored.count {
            let text =
                "  the unmirrored run made \(twin.count) screen\(twin.count == 1 ? "" : "s"), the mirrored run \(mirrored.count)"
            return Difference(
                text: text, unmirrored: "\(twin.count) screens", mirrored: "\(mirrored.count) screens",
                picture: "")
        }
        for (index, (a, b)) in zip(twin, mirrored).enumerated() {
            let screen = "screen \(index + 1)"
            let expected: Trace
            let actual: Trace
            do {
                expected = try Trace(text: a, file: "the unmirrored run's \(screen)", kinds: kinds)
                actual = try Trace(text: b, file: "the mirrored run's \(screen)", kinds: kinds)
            } catch {
                return Difference(text: "  \(screen): \(error)", unmirrored: "", mirrored: "", picture: "")
            }
            // A frame that differs explains an input that differs at the same event (a tap on a
            // card that is elsewhere lands elsewhere), so frames are looked at first.
            let frames = TraceComparison.firstDifference(
                expected: expected, actual: actual, tolerance: tolerance, inputTolerance: .infinity)
            let inputs = TraceComparison.firstDifference(
                expected: expected, actual: actual, tolerance: tolerance, inputTolerance: tolerance)
            guard let mismatch = [frames, inputs].compactMap({ $0 }).min(by: { $0.index < $1.index }) else {
                continue
            }
            let when =
                mismatch.index < 0
                ? "as it was built"
                : "event \(mismatch.index) (\(mismatch.type) at t = \(JSONValue.format(mismatch.time)) s)"
                    + (mismatch.action.map { " of \($0)" } ?? "")
            let text =
                "  \(screen), \(when): \(mismatch.place) differs\n"
                + "    unmirrored: \(mismatch.expected)\n"
                + "      mirrored: \(mismatch.actual) (the \(actual.settings.layoutDirection == .leftToRight ? "right-to-left" : "left-to-right") frame, mirrored back)"
            return Difference(
                text: text, unmirrored: mismatch.expected, mirrored: mismatch.actual,
                picture: picture(expected, actual, at: mismatch.index, caption: "\(screen), \(when)"))
        }
        return nil
    }

    /// Three pictures side by side: the unmirrored frame, the mirrored run's frame as its screen
    /// showed it (the other direction), and both overlaid in the script's world (the unmirrored
    /// one solid, the mirrored one mirrored back, in red and half transparent), where a
    /// difference shows as two outlines that do not coincide.
    static func picture(_ expected: Trace, _ actual: Trace, at index: Int, caption: String) -> String {
        func frame(_ trace: Trace) -> FrameSnapshot? {
            guard index >= 0, index < trace.steps.count else {
                return FrameSnapshot(settings: trace.settings, components: [])
            }
            return (try? trace.frame(at: index)) ?? nil
        }
        guard let unmirrored = frame(expected), let seen = frame(actual) else { return "" }
        let onScreen = Mirror(width: seen.settings.size.width).frame(seen)
        let margin = 28.0
        let width = max(unmirrored.settings.size.width, seen.settings.size.width) + 2 * margin
        let height = max(unmirrored.settings.size.height, seen.settings.size.height) + 2 * margin + 24
        func panel(_ svg: String, at x: Double, title: String, extra: String = "") -> String {
            "<g transform=\"translate(\(TraceSVGNumber.n(x)) 24)\"\(extra)>"
                + "<text x=\"\(TraceSVGNumber.n(margin))\" y=\"-6\" font-size=\"14\">\(TraceSVG.escape(title))</text>"
                + svg + "</g>\n"
        }
        let total = 3 * width
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(TraceSVGNumber.n(total)) \(TraceSVGNumber.n(height))\" "
            + "width=\"\(TraceSVGNumber.n(total))\" height=\"\(TraceSVGNumber.n(height))\" font-family=\"sans-serif\">\n"
        out += "<title>\(TraceSVG.escape("--mirror: " + caption))</title>\n"
        out += panel(TraceSVG.render(unmirrored, caption: "unmirrored"), at: 0, title: "unmirrored")
        out += panel(
            TraceSVG.render(onScreen, caption: "mirrored run, as the screen showed it"), at: width,
            title: "mirrored run (\(onScreen.settings.layoutDirection.rawValue))")
        out += panel(TraceSVG.render(unmirrored, caption: caption), at: 2 * width, title: "overlaid")
        out += panel(
            TraceSVG.render(seen, caption: ""), at: 2 * width, title: "",
            extra: " class=\"mirrored\" opacity=\"0.5\"")
        // What differs, drawn whatever its opacity: blue where the unmirrored run has it, red
        // dashed where the mirrored run has it (mirrored back).
        out +=
            "<g class=\"differences\" transform=\"translate(\(TraceSVGNumber.n(2 * width + margin)) \(TraceSVGNumber.n(24 + margin)))\" fill=\"none\" stroke-width=\"2\">\n"
        for (name, a, b) in differences(unmirrored, seen) {
            out += outline(a, stroke: "#06c", dash: nil, title: "\(name), unmirrored")
            out += outline(b, stroke: "#d00", dash: "6 4", title: "\(name), mirrored back")
        }
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }
}

extension MirrorCheck {
    /// Every component, card and part whose frame is not where the unmirrored run has it.
    static func differences(_ expected: FrameSnapshot, _ actual: FrameSnapshot) -> [(String, Rect, Rect)] {
        func differ(_ a: Rect, _ b: Rect) -> Bool {
            abs(a.x - b.x) > tolerance || abs(a.y - b.y) > tolerance || abs(a.width - b.width) > tolerance
                || abs(a.height - b.height) > tolerance
        }
        var found: [(String, Rect, Rect)] = []
        for component in expected.components {
            guard let other = actual.components.first(where: { $0.name.isSameBytes(component.name) }) else {
                continue
            }
            if differ(component.frame, other.frame) {
                found.append((component.name, component.frame, other.frame))
            }
            for card in component.cards {
                if let twin = other.cards.first(where: { $0.id.isSameBytes(card.id) }),
                    differ(card.frame, twin.frame)
                {
                    found.append(("card '\(card.id)'", card.frame, twin.frame))
                }
            }
            for part in component.parts {
                if let twin = other.parts.first(where: { $0.name.isSameBytes(part.name) }),
                    differ(part.frame, twin.frame)
                {
                    found.append(("part '\(part.name)'", part.frame, twin.frame))
                }
            }
        }
        return found
    }

    static func outline(_ r: Rect, stroke: String, dash: String?, title: String) -> String {
        let n = TraceSVGNumber.n
        return "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" "
            + "stroke=\"\(stroke)\"" + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")
            + "><title>\(TraceSVG.escape(title))</title></rect>\n"
    }
}

/// Numbers as the pictures write them (1/100 pt).
enum TraceSVGNumber {
    static func n(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }
}

extension TestRunner {
    /// The component kinds this runner's scripts can make: what their traces are read with.
    var traceKinds: ComponentKinds {
        scripts.modules.lazy.compactMap { $0 as? StackModelModule }.first?.kinds.traces ?? .standard
    }

    /// Runs `test`; a mirrored one also runs its unmirrored twin and compares their frames.
    func runMirrorChecked(_ test: TestCase) -> TestResult {
        let result = runUntimed(test)
        guard test.variant.isMirrored, !test.skipped else { return result }
        var twin = test
        twin.variant = test.variant.twin
        return MirrorCheck.check(result, twin: runUntimed(twin), kinds: traceKinds)
    }
}
