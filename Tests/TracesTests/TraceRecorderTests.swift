import StackModel
import Testing
import Traces

@Suite struct TraceRecorderTests {
    /// A recorder the caller drops stops recording; the screen goes on (it crashed while the
    /// screen's observer held the recorder `unowned`).
    @Test func aDroppedRecorderLeavesTheScreenWorking() throws {
        let screen = try Screen()
        try screen.add(WalletCardStack(cards: [CardSpec(id: "a", height: 100)]))
        weak var dropped: TraceRecorder?
        do {
            let recorder = TraceRecorder(screen: screen, stackplay: "test")
            dropped = recorder
            try screen.advance(by: 0.1)
            #expect(recorder.eventCount == 1)
        }
        #expect(dropped == nil)
        try screen.tap(at: Point(x: 100, y: 50))
        try screen.select("a", of: "wallet")
        #expect(screen.now == 0.1)
    }

    /// A recorder outlives its screen and keeps what it recorded.
    @Test func aRecorderKeepsItsTraceAfterTheScreenIsGone() throws {
        var screen: Screen? = try Screen()
        let recorder = TraceRecorder(screen: screen!, stackplay: "test")
        try screen!.advance(by: 0.5)
        screen = nil
        #expect(recorder.eventCount == 1)
        #expect(recorder.text.contains("\"type\":\"advance\",\"seconds\":0.5"))
    }

    /// The same inputs, with a call source, recorded by a recorder that keeps values or one that does not.
    func record(keepsValues: Bool) throws -> TraceRecorder {
        let screen = try Screen(settings: ScreenSettings())
        try screen.add(
            NotificationStack(
                cards: ["messages", "calendar", "mail"].map { CardSpec(id: $0, height: 70) },
                isDismissible: true,
                origin: Point(x: 16, y: 100), width: 358))
        var running: TraceCall?
        let recorder = TraceRecorder(
            screen: screen, stackplay: "test", calls: { running }, keepsValues: keepsValues)
        running = TraceCall(serial: 1, method: "tap", file: "x.lua", line: 3, source: "stack:tap()")
        _ = try screen.tap(at: Point(x: 100, y: 120))
        running = nil
        try screen.advance(by: 0.05)
        running = TraceCall(serial: 2, method: "drag", file: "x.lua", line: 4, source: "stack:drag(\"a\tb\")")
        _ = try screen.drag(from: Point(x: 120, y: 130), by: Point(x: -150, y: 3.25), steps: 4, duration: 0.2)
        try screen.settle()
        return recorder
    }

    /// A recorder that keeps its lines as values writes the same text, counts the same bytes, and
    /// its values read back as the same trace as its text does (what `explore` replays).
    @Test func aRecorderKeepingValuesWritesTheSameTraceAndReadsBackTheSame() throws {
        let plain = try record(keepsValues: false)
        let kept = try record(keepsValues: true)
        #expect(kept.eventCount == plain.eventCount)
        #expect(kept.eventCount > 5)
        #expect(kept.text == plain.text)
        #expect(kept.byteCount == plain.byteCount)
        // The event lines only: not the header, not the action lines.
        let events = plain.text.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("{\"action\"") }
        #expect(events.count == plain.eventCount)
        #expect(plain.byteCount == events.reduce(0) { $0 + $1.utf8.count + 1 })
        let fromText = try Trace(text: plain.text, file: "t.jsonl")
        let fromValues = try Trace(values: kept.values, file: "t.jsonl")
        #expect(fromValues.actions == fromText.actions)
        #expect(fromValues.actions.count == 2)
        #expect(fromValues.components == fromText.components)
        #expect(fromValues.settings == fromText.settings)
        #expect(fromValues.steps.count == fromText.steps.count)
        for (a, b) in zip(fromValues.steps, fromText.steps) {
            #expect(a.line == b.line && a.index == b.index && a.time.bitPattern == b.time.bitPattern)
            #expect(a.input == b.input && a.frame == b.frame && a.type == b.type && a.event == b.event)
            #expect(a.action == b.action)
        }
        // The recorder's own trace (its events not checked again) is the same trace.
        let fromRecorder = try kept.trace(file: "t.jsonl")
        #expect(fromRecorder.actions == fromText.actions)
        #expect(fromRecorder.components == fromText.components)
        #expect(fromRecorder.settings == fromText.settings)
        #expect(fromRecorder.steps.count == fromText.steps.count)
        for (a, b) in zip(fromRecorder.steps, fromText.steps) {
            #expect(a.line == b.line && a.index == b.index && a.time.bitPattern == b.time.bitPattern)
            #expect(a.input == b.input && a.frame == b.frame && a.type == b.type && a.event == b.event)
        }
    }

    /// A value's counted bytes are its text's, escapes, signs and number forms included.
    @Test func aValuesTextByteCountIsItsTextsLength() {
        let numbers: [Double] = [
            0, -0.0, 7, -7, 10, -10, 123_456, 1e14, -1e14 + 1, 1e15, 1e16, 0.1, -0.25, 1e-05, 1.0 / 3,
            .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, .infinity, .nan,
        ]
        var values: [JSONValue] = numbers.map(JSONValue.number)
        values += [
            "", "plain", "quote \" and \\ back", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}", "café 👋",
            "a \"long\" key past fifteen bytes\n",
        ].map {
            JSONValue.string($0)
        }
        values += [.null, .bool(true), .bool(false), .array([]), .object([])]
        values.append(.array(values))
        values.append(
            .object([("a\"b", .array([.number(1), .string("x")])), ("", .object([("k", .null)]))]))
        for value in values {
            #expect(value.textByteCount == value.text.utf8.count, "\(value.text)")
        }
    }

    /// A frame one bit away from the recording is a difference for the replay and the comparison
    /// both (each first asks whether two frames are the same, field for field).
    @Test func aFrameOneBitAwayIsStillADifference() throws {
        let text = try record(keepsValues: true).text
        let original = try Trace(text: text, file: "t.jsonl")
        #expect(try TraceReplayer(original).run(tolerance: 0) == nil)
        let near = "0.16715513861433906"
        let next = Double(near)!.nextUp
        #expect(text.contains(near))
        let changed = try Trace(
            text: text.replacing(near, with: "\(next)"), file: "t.jsonl")
        let mismatch = try #require(try TraceReplayer(changed).run(tolerance: 0))
        #expect(mismatch.place == "component 'notifications', part 'header', field 'opacity'")
        #expect(mismatch.expected == "\(next)" && mismatch.actual == near)
        let compared = try #require(
            TraceComparison.firstDifference(expected: original, actual: changed, tolerance: 0))
        #expect(compared.index == mismatch.index && compared.place == mismatch.place)
        // A text that reads the same but is spelled with other bytes (NFD "é") differs too.
        let spelled = try Trace(
            text: text.replacing(
                "\"state\":{\"expanded\":true", with: "\"state\":{\"expanded\":true,\"t\u{E9}\":1"),
            file: "t.jsonl")
        let other = try Trace(
            text: text.replacing(
                "\"state\":{\"expanded\":true", with: "\"state\":{\"expanded\":true,\"te\u{301}\":1"),
            file: "t.jsonl")
        #expect(TraceComparison.firstDifference(expected: spelled, actual: spelled, tolerance: 0) == nil)
        let bytes = try #require(
            TraceComparison.firstDifference(expected: spelled, actual: other, tolerance: 0))
        #expect(bytes.place.hasPrefix("component 'notifications'"))
    }

    /// Values read as a trace refuse what their text would not read back as: a key given twice
    /// (the parser's refusal, for the same key) and a number JSON cannot hold.
    @Test func valuesThatTheirTextWouldNotReadBackAsAreRefused() throws {
        let values = try record(keepsValues: true).values
        guard case .object(var fields) = values[2] else {
            throw TraceError(file: "", line: 0, message: "no event")
        }
        #expect(try Trace(values: values, file: "t.jsonl").steps.count == values.count - 3)
        let twice = JSONValue.object(fields + [("t", .number(1))])
        let text = values.map(\.text)
        #expect(throws: TraceError.self) {
            try Trace(text: (text[..<2] + [twice.text] + text[3...]).joined(separator: "\n"), file: "t.jsonl")
        }
        #expect(
            throws: TraceError(file: "t.jsonl", line: 3, message: "malformed JSON: key 't' is given twice")
        ) {
            try Trace(values: Array(values[..<2] + [twice] + values[3...]), file: "t.jsonl")
        }
        fields[1].1 = .number(.nan)
        #expect(
            throws: TraceError(
                file: "t.jsonl", line: 3, message: "a number is not finite, which JSON cannot hold")
        ) {
            try Trace(values: Array(values[..<2] + [.object(fields)] + values[3...]), file: "t.jsonl")
        }
        // Inner objects first, as the parser reads them; then the first key given again.
        let nested = JSONValue.object([
            ("a", .number(1)), ("b", .array([.object([("x", .null), ("x", .null)])])), ("a", .null),
        ])
        #expect(nested.repeatedKey == "x")
        let many = JSONValue.object(
            (0..<20).map { ("k\($0)", JSONValue.null) } + [("k3", .null), ("k1", .null)])
        #expect(many.repeatedKey == "k3")
        #expect(JSONValue.object((0..<20).map { ("k\($0)", JSONValue.null) }).repeatedKey == nil)
    }
}
