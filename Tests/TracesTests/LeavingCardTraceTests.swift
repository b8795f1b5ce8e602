import Foundation
import StackModel
import Testing
import Traces

/// G8, N17 in traces: a card on its way out is a frame's `leaving` list, read back, replayed and
/// drawn; frames without one keep the bytes they had.
@Suite struct LeavingCardTraceTests {
    /// The open stack of four, "c1" cleared at t = 0 by VoiceOver, then 0.1 s and the rest.
    func recordClear(reduceMotion: Bool = false) throws -> String {
        let screen = try Screen(settings: ScreenSettings(reduceMotion: reduceMotion))
        let recorder = TraceRecorder(screen: screen, stackplay: "test")
        let cards = (0..<4).map { CardSpec(id: "c\($0)", height: 70) }
        try screen.add(
            NotificationStack(
                cards: cards, isExpanded: true, isDismissible: true, origin: Point(x: 16, y: 100), width: 358)
        )
        _ = try screen.performAction("Clear", on: "card:c1", of: "notifications")
        try screen.advance(by: 0.1)
        try screen.settle()
        return recorder.text
    }

    @Test func `G8 a frame lists the leaving card after the cards, never hittable, fading`() throws {
        let text = try recordClear()
        let trace = try Trace(text: text, file: "clear.jsonl")
        let action = try #require(trace.steps.firstIndex { $0.type == "action" })
        let advance = try #require(trace.steps.firstIndex { $0.type == "advance" })
        let atClear = try #require(try trace.frame(at: action)?.components.first)
        #expect(atClear.cards.map(\.id) == ["c0", "c2", "c3"])
        #expect(atClear.leaving.map(\.id) == ["c1"])
        #expect(atClear.leaving[0].opacity == 1)
        #expect(!atClear.leaving[0].isHittable)
        let later = try #require(try trace.frame(at: advance)?.components.first)
        #expect(abs(later.leaving[0].opacity - (1 - 0.5093799547329481)) < 1e-12)
        #expect(later.leaving[0].frame == atClear.leaving[0].frame)
        // Once it has settled, the field is gone.
        let last = try #require(try trace.frame(at: trace.steps.count - 1)?.components.first)
        #expect(last.leaving.isEmpty)
        let lastLine = try #require(text.split(separator: "\n").last)
        #expect(!lastLine.contains("\"leaving\""))
    }

    @Test func `G8 a trace with a leaving card replays green, and a changed opacity is named`() throws {
        let text = try recordClear()
        let replayer = try TraceReplayer(try Trace(text: text, file: "clear.jsonl"))
        #expect(try replayer.run(tolerance: 0) == nil)
        let edited = text.replacingOccurrences(
            of: "\"leaving\":[{\"id\":\"c1\"", with: "\"leaving\":[{\"id\":\"c9\"")
        #expect(edited != text)
        let mismatch = try TraceReplayer(try Trace(text: edited, file: "clear.jsonl")).run(tolerance: 0)
        #expect(mismatch != nil)
    }

    @Test func `G8 the SVG frame draws the leaving card with its opacity`() throws {
        let trace = try Trace(text: recordClear(), file: "clear.jsonl")
        let advance = try #require(trace.steps.firstIndex { $0.type == "advance" })
        let svg = try TraceSVG.render(trace, at: advance)
        #expect(svg.contains("data-id=\"c1\" opacity=\"0.49\""))
    }

    @Test func `G2 with Reduce Motion no frame has a leaving list`() throws {
        #expect(!(try recordClear(reduceMotion: true)).contains("\"leaving\""))
    }
}
