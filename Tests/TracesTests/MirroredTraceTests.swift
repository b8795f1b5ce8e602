import StackModel
import Testing
import Traces

/// A mirrored screen's trace (docs/traces.md, "A mirrored screen"): the script's world with
/// `"mirror": true`, replayed mirrored; a screen that is not mirrored keeps its bytes.
@Suite struct MirroredTraceTests {
    func record(mirrored: Bool) throws -> String {
        let screen = try Screen(
            settings: ScreenSettings(layoutDirection: mirrored ? .rightToLeft : .leftToRight))
        screen.isMirrored = mirrored
        let recorder = TraceRecorder(screen: screen, stackplay: "test")
        try screen.add(
            WalletCardStack(cards: [CardSpec(id: "a", height: 200)], origin: Point(x: 20, y: 0), width: 300))
        // The script taps at x 30 in its world: on a mirrored screen that is 390 − 30.
        try screen.tap(at: screen.mirror.point(Point(x: 30, y: 50)))
        try screen.settle()
        return recorder.text
    }

    @Test func `a screen that is not mirrored writes no mirror field`() throws {
        let text = try record(mirrored: false)
        #expect(!text.contains("mirror"))
        #expect(
            text.hasPrefix(
                "{\"format\":\"stackplay-trace\",\"version\":2,\"stackplay\":\"test\",\"screen\":{\"width\":390,\"height\":844,\"layout_direction\":\"ltr\",\"reduce_motion\":false,\"dynamic_type\":\"large\",\"now\":0},"
            ))
        #expect(try !Trace(text: text, file: "t.jsonl").isMirrored)
    }

    @Test func `a mirrored screen records the script's world, says so, and replays mirrored`() throws {
        let plain = try record(mirrored: false)
        let mirrored = try record(mirrored: true)
        #expect(mirrored.contains("\"dynamic_type\":\"large\",\"now\":0,\"mirror\":true}"))
        // The same bytes as the unmirrored run, the flag aside: the layout is the mirror image.
        #expect(mirrored.replacing(",\"mirror\":true", with: "") == plain)
        let trace = try Trace(text: mirrored, file: "m.jsonl")
        #expect(trace.isMirrored && trace.settings.layoutDirection == .leftToRight)
        let replayer = try TraceReplayer(trace)
        #expect(replayer.screen.isMirrored && replayer.screen.settings.layoutDirection == .rightToLeft)
        #expect(try replayer.run(tolerance: 0) == nil)
        // Compared as golden traces, the flag is not a difference.
        let other = try Trace(text: plain, file: "p.jsonl")
        #expect(TraceComparison.firstDifference(expected: other, actual: trace, tolerance: 0) == nil)
        // An unmirrored trace replayed in a mirrored world: the mirror image, every frame equal.
        let again = try TraceReplayer(other, mirrored: true)
        #expect(again.screen.settings.layoutDirection == .rightToLeft)
        #expect(try again.run(tolerance: 1e-9) == nil)
    }

    @Test func `mirroring's own rounding is equal, anything more is a difference`() throws {
        func trace(_ x: Double, mirrored: Bool) throws -> Trace {
            let mirror = mirrored ? #","mirror":true"# : ""
            let text = """
                {"format":"stackplay-trace","version":2,"stackplay":"test","screen":{"width":390,"height":844,"layout_direction":"ltr","reduce_motion":false,"dynamic_type":"large","now":0\(mirror)},"components":[]}
                {"i":0,"t":0,"type":"touch_down","touch":1,"x":\(x),"y":10,"frame":{"components":[]}}

                """
            return try Trace(text: text, file: "t.jsonl")
        }
        // The README's case: 37.48 through `width − x` there and back.
        let golden = try trace(37.47999999999999, mirrored: false)
        #expect(
            TraceComparison.firstDifference(
                expected: golden, actual: try trace(37.47999999999996, mirrored: true), tolerance: 0) == nil)
        // Not mirrored, the same numbers differ: the slack is the mirror's alone.
        #expect(
            TraceComparison.firstDifference(
                expected: golden, actual: try trace(37.47999999999996, mirrored: false), tolerance: 0) != nil)
        // Mirrored, a real difference (a ten-thousandth of a point) still fails.
        let moved = TraceComparison.firstDifference(
            expected: golden, actual: try trace(37.4801, mirrored: true), tolerance: 0)
        #expect(moved?.field == "x")
    }
}
