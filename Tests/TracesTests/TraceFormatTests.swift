import Foundation
import StackModel
import Testing
import Traces

/// A recorded session of each component: some gestures, the clock, owner changes.
func recordSession(_ kind: ComponentKind) throws -> String {
    let screen = try Screen()
    let recorder = TraceRecorder(screen: screen, stackplay: "test")
    let cards = (0..<4).map { CardSpec(id: "c\($0)", height: 70) }
    switch kind {
    case .notificationStack:
        try screen.add(
            NotificationStack(cards: cards, isDismissible: true, origin: Point(x: 16, y: 100), width: 358))
        try screen.tap(at: Point(x: 100, y: 120))
        try screen.settle()
        try screen.drag(from: Point(x: 200, y: 230), by: Point(x: -130, y: 0), duration: 0.2)
        try screen.setExpanded(false, of: "notifications")
        try screen.advance(by: 0.1)
        try screen.setItems(Array(cards.prefix(2)), of: "notifications")
        try screen.settle()
    case .walletCardStack:
        try screen.add(WalletCardStack(cards: cards))
        try screen.tap(at: Point(x: 100, y: 70), duration: 0.05)
        try screen.advance(by: 0.2)
        try screen.escape()
        try screen.select("c2", of: "wallet")
        try screen.setHeight(500, of: "wallet")
        screen.setDynamicTypeSize(.accessibility2)
        try screen.settle()
    case .stickyStackedCards:
        try screen.add(StickyStackedCards(cards: cards))
        try screen.drag(from: Point(x: 100, y: 600), by: Point(x: 0, y: -300), steps: 5)
        try screen.scroll(to: 120.5, of: "sticky")
        screen.setReduceMotion(true)
        try screen.scroll(to: 400, of: "sticky")
        // A component added after the first event is an `add` event.
        try screen.add(NotificationStack(name: "late", cards: cards, origin: Point(x: 0, y: 700), width: 300))
        try screen.tap(at: Point(x: 50, y: 710))
    default:
        Issue.record("no session for \(kind)")
    }
    return recorder.text
}

/// The first line of `text` whose JSON has `"type":"<type>"`, edited by `edit`.
func editing(_ text: String, line: Int, _ edit: (String) -> String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[line - 1] = edit(lines[line - 1])
    return lines.joined(separator: "\n")
}

@Suite struct TraceFormatTests {
    @Test(arguments: ComponentKinds.standard.kinds)
    func recordedSessionReplaysGreen(_ kind: ComponentKind) throws {
        let text = try recordSession(kind)
        let trace = try Trace(text: text, file: "session.jsonl")
        #expect(trace.steps.count > 5)
        let replayer = try TraceReplayer(trace)
        #expect(try replayer.run(tolerance: 0) == nil)
        #expect(replayer.position == trace.steps.count)
    }

    @Test(arguments: ComponentKinds.standard.kinds)
    func twoRunsGiveIdenticalBytes(_ kind: ComponentKind) throws {
        #expect(try recordSession(kind) == recordSession(kind))
    }

    @Test func ownerChangesAndLateComponentsAreEvents() throws {
        let types = try Trace(text: recordSession(.stickyStackedCards), file: "s").steps.map(\.type)
        #expect(types.contains("scroll_to"))
        #expect(types.contains("add"))
        let wallet = try Trace(text: recordSession(.walletCardStack), file: "w").steps.map(\.type)
        #expect(wallet.contains("select") && wallet.contains("set_height") && wallet.contains("escape"))
        let stack = try Trace(text: recordSession(.notificationStack), file: "n").steps.map(\.type)
        #expect(stack.contains("set_expanded") && stack.contains("set_items"))
    }

    @Test func aCardMovedByFivePointsFailsOnThatEventAndNamesTheField() throws {
        let text = try recordSession(.walletCardStack)
        // Line 4 is event 2; move card c1's y by 5 pt.
        let original = try Trace(text: text, file: "t").steps[2].frame!
        guard case .number(let y)? = findCard(original, "c1")?["y"],
            case .number(let x)? = findCard(original, "c1")?["x"]
        else {
            Issue.record("no c1.y")
            return
        }
        let prefix = "{\"id\":\"c1\",\"x\":\(JSONValue.format(x)),\"y\":"
        let edited = editing(text, line: 4) {
            $0.replacingOccurrences(
                of: prefix + JSONValue.format(y) + ",", with: prefix + JSONValue.format(y + 5) + ",")
        }
        #expect(edited != text)
        let mismatch = try TraceReplayer(Trace(text: edited, file: "edited.jsonl")).run(tolerance: 1e-9)
        let found = try #require(mismatch)
        #expect(found.index == 2)
        #expect(found.line == 4)
        #expect(found.field == "y")
        #expect(found.expected == JSONValue.format(y + 5))
        #expect(found.actual == JSONValue.format(y))
        #expect("\(found)".contains("event 2"))
        #expect("\(found)".contains("component 'wallet', card 'c1', field 'y' differs"))
    }

    func findCard(_ frame: JSONValue, _ id: String) -> JSONValue? {
        guard case .array(let components)? = frame["components"] else { return nil }
        for component in components {
            guard case .array(let cards)? = component["cards"] else { continue }
            if let card = cards.first(where: { $0["id"] == .string(id) }) { return card }
        }
        return nil
    }

    @Test(arguments: [
        0.1, 1.0 / 3, -0.0, 1e-300, 123456789.125, Double.leastNonzeroMagnitude, 1.7976931348623157e308,
        26.74000000000001,
    ])
    func numbersReadBackAsTheSameBits(_ value: Double) throws {
        let text = JSONValue.number(value).text
        guard case .number(let back) = try JSONParser.parse(text) else {
            Issue.record("not a number")
            return
        }
        #expect(back.bitPattern == value.bitPattern, "\(text)")
    }

    /// Each malformed trace, and what the message must say.
    static let malformed: [(name: String, edit: @Sendable (String) -> String, message: String)] = [
        (
            "truncated line", { editing($0, line: 3) { String($0.prefix(40)) } },
            "bad.jsonl:3: malformed JSON at column"
        ),
        (
            "malformed JSON",
            { editing($0, line: 2) { $0.replacingOccurrences(of: "\"t\":", with: "\"t\"") } },
            "bad.jsonl:2: malformed JSON at column 11: ':' expected after key 't'"
        ),
        (
            "unknown version",
            { editing($0, line: 1) { $0.replacingOccurrences(of: "\"version\":2", with: "\"version\":7") } },
            "bad.jsonl:1: field 'version': unknown trace version 7 (this stackplay reads versions 1 and 2)"
        ),
        (
            "unknown event kind",
            {
                editing($0, line: 2) {
                    $0.replacingOccurrences(of: "\"type\":\"touch_down\"", with: "\"type\":\"touch_dwn\"")
                }
            },
            "bad.jsonl:2: field 'type': unknown event type 'touch_dwn' (did you mean 'touch_down'?)"
        ),
        (
            "NaN", { editing($0, line: 2) { $0.replacingOccurrences(of: "\"x\":100,", with: "\"x\":NaN,") } },
            "bad.jsonl:2: malformed JSON at column"
        ),
        (
            "missing field",
            { editing($0, line: 2) { $0.replacingOccurrences(of: "\"touch\":1,", with: "") } },
            "bad.jsonl:2: field 'touch': missing"
        ),
        (
            "missing field in a frame",
            { editing($0, line: 2) { $0.replacingOccurrences(of: "\"opacity\":1,", with: "") } },
            "bad.jsonl:2: field 'frame.components[0].cards[0].opacity': missing"
        ),
        (
            "null for a number",
            { editing($0, line: 1) { $0.replacingOccurrences(of: "\"width\":390", with: "\"width\":null") } },
            "bad.jsonl:1: field 'screen.width': number expected, got null"
        ),
    ]

    @Test(arguments: malformed.indices)
    func malformedTracesAreRejectedWithTheirMessage(_ index: Int) throws {
        let (name, edit, message) = Self.malformed[index]
        let text = edit(try recordSession(.walletCardStack))
        #expect(throws: TraceError.self, "\(name)") { try Trace(text: text, file: "bad.jsonl") }
        do {
            _ = try Trace(text: text, file: "bad.jsonl")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(name): \(error)")
        }
    }

    @Test func nanIsNamedAsSuch() throws {
        let text = editing(try recordSession(.walletCardStack), line: 2) {
            $0.replacingOccurrences(of: "\"x\":100,", with: "\"x\":NaN,")
        }
        #expect(throws: TraceError.self) { try Trace(text: text, file: "bad.jsonl") }
        do { _ = try Trace(text: text, file: "bad.jsonl") } catch {
            #expect("\(error)".contains("NaN and Infinity are not JSON numbers"))
        }
    }

    @Test func aTraceFromAnotherToolWithoutFramesReplays() throws {
        let header = try recordSession(.walletCardStack).split(separator: "\n")[0]
        // Touches logged on a device: no frames, no advance events, only times.
        let text =
            String(header) + "\n"
            + "{\"t\":0,\"type\":\"touch_down\",\"touch\":42,\"x\":100,\"y\":30}\n"
            + "{\"t\":0.05,\"type\":\"touch_up\",\"touch\":42}\n"
            + "{\"t\":2,\"type\":\"touch_down\",\"touch\":7,\"x\":100,\"y\":70}\n"
        let replayer = try TraceReplayer(try Trace(text: text, file: "device.jsonl"))
        #expect(try replayer.run(tolerance: 0) == nil)
        #expect(replayer.screen.now == 2)
        let wallet = try #require(replayer.screen.component(named: "wallet") as? WalletCardStack)
        #expect(wallet.selection == "c0")
    }
}

/// Version 2's action lines: what a recorder groups, and what a reader accepts.
struct TraceActionTests {
    func call(_ serial: UInt64, _ method: String, line: Int) -> TraceCall {
        TraceCall(serial: serial, method: method, file: "x.lua", line: line, source: "stack:\(method)()")
    }

    /// A screen recorded while `calls` says which call is running before each input.
    func recorded(_ inputs: [(TraceCall?, (Screen) throws -> Void)]) throws -> String {
        let screen = try Screen(settings: ScreenSettings())
        try screen.add(WalletCardStack(cards: ["a", "b"].map { CardSpec(id: $0, height: 200) }))
        var running: TraceCall?
        let recorder = TraceRecorder(screen: screen, stackplay: "test", calls: { running })
        for (call, input) in inputs {
            running = call
            try input(screen)
        }
        return recorder.text
    }

    @Test func `one call's inputs share an action; the same line called again is a new action`() throws {
        let text = try recorded([
            (call(1, "tap", line: 3), { _ = try $0.tap(at: Point(x: 100, y: 100)) }),
            (call(2, "advance", line: 4), { try $0.advance(by: 0.1) }),
            (call(3, "advance", line: 4), { try $0.advance(by: 0.1) }),
            (nil, { try $0.advance(by: 0.1) }),
        ])
        let trace = try Trace(text: text, file: "t.jsonl")
        #expect(trace.version == 2)
        #expect(trace.actions.map(\.method) == ["tap", "advance", "advance"])
        #expect(trace.actions.map(\.events) == [2, 1, 1])
        #expect(trace.actions.map(\.firstEvent) == [0, 2, 3])
        #expect(trace.steps.map(\.action) == [0, 0, 1, 2, nil])
        #expect(trace.actions[0].description == "the tap at x.lua:3 (stack:tap())")
        let lines = text.split(separator: "\n")
        #expect(
            lines[1]
                == "{\"action\":0,\"method\":\"tap\",\"file\":\"x.lua\",\"line\":3,\"source\":\"stack:tap()\",\"events\":2}"
        )
        // A replay checks the events only: the actions are the script's, not the screen's.
        #expect(try TraceReplayer(trace).run(tolerance: 0) == nil)
    }

    @Test func `a replay that parts from the trace names the action that made the event`() throws {
        let text = try recorded([(call(1, "advance", line: 7), { try $0.advance(by: 0.25) })])
        let edited = text.replacingOccurrences(of: "\"t\":0.25,", with: "\"t\":0.5,")
        let trace = try Trace(text: edited, file: "t.jsonl")
        let mismatch = try #require(try TraceReplayer(trace).run(tolerance: 0))
        #expect(
            "\(mismatch)".hasPrefix(
                "t.jsonl:3: event 0 (advance at t = 0.5 s) of the advance at x.lua:7 (stack:advance()): "))
    }

    /// Each case: what is wrong, the text replaced and its replacement, and the message.
    static let malformedActions: [(String, String, String, String)] = [
        (
            "an action with more events than follow", "\"events\":1", "\"events\":3",
            "t.jsonl:2: field 'events': the action groups 3 events, the trace ends after 1"
        ),
        (
            "an action line in a version 1 trace", "\"version\":2", "\"version\":1",
            "t.jsonl:2: field 'action': action lines need trace version 2"
        ),
        (
            "an action that groups nothing", "\"events\":1", "\"events\":0",
            "t.jsonl:2: field 'events': an action groups at least 1 event, got 0"
        ),
    ]

    @Test(arguments: malformedActions.indices)
    func `malformed action lines are refused with their line and field`(_ index: Int) throws {
        let (name, from, to, message) = Self.malformedActions[index]
        let text = try recorded([(call(1, "advance", line: 7), { try $0.advance(by: 0.25) })])
            .replacingOccurrences(of: from, with: to)
        #expect(throws: TraceError.self, "\(name)") { try Trace(text: text, file: "t.jsonl") }
        do { _ = try Trace(text: text, file: "t.jsonl") } catch { #expect("\(error)" == message, "\(name)") }
    }
}
