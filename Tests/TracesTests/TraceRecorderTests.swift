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
}
