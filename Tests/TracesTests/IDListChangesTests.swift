import Testing

@testable import Traces

/// Golden diffs of id lists align by content, as difflib and Jest do.
@Suite struct IDListChangesTests {
    @Test func `one inserted id is one plus, one removed id one minus`() {
        #expect(idListChanges(["a", "b", "c"], ["a", "x", "b", "c"]) == ["+ x at 2"])
        #expect(idListChanges(["a", "b", "c", "d"], ["a", "b", "d"]) == ["- c at 3"])
        #expect(idListChanges(["a", "b"], ["a", "b"]) == [])
    }

    @Test func `a reorder and a replacement are as few changes as align`() {
        #expect(idListChanges(["a", "b", "c"], ["b", "c", "a"]) == ["- a at 1", "+ a at 3"])
        #expect(idListChanges(["a", "b", "c"], ["a", "z", "c"]) == ["+ z at 2", "- b at 2"])
        #expect(idListChanges([], ["a"]) == ["+ a at 1"])
    }

    @Test func `ids compare by bytes, and lists too long to align say nothing`() {
        // "é" precomposed and decomposed: equal as Swift strings, two ids for stackplay.
        #expect(idListChanges(["\u{E9}"], ["e\u{301}"]) == ["+ e\u{301} at 1", "- \u{E9} at 1"])
        let long = (0..<1001).map(String.init)
        #expect(idListChanges(long, Array(long.dropFirst())) == [])
    }
}
