import Bindings
import TestResults
import Testing

@testable import StackplayRunner

/// Filters, tags and shards, on test cases made here (no Lua, no processes).
@Suite struct SelectionUnitTests {
    static func tests(_ count: Int, tags: (Int) -> [String] = { _ in [] }) -> [TestCase] {
        (1...count).map {
            TestCase(
                file: "f\($0 % 3).lua", root: nil, name: "t\($0)", position: "f.lua:\($0)", index: $0,
                skipped: false, tags: tags($0))
        }
    }

    @Test func `filters keep a test when any of them is in its full name`() {
        let chosen = Selection.apply(Self.tests(9), filters: ["t1", "f2.lua: t5"], shard: nil)
        #expect(chosen.map(\.name) == ["t1", "t5"])
        #expect(Selection.apply(Self.tests(3), filters: [], shard: nil).count == 3)
        #expect(Selection.apply(Self.tests(3), filters: ["nothing"], shard: nil).isEmpty)
    }

    @Test func `tags select, exclusions win`() {
        let tests = Self.tests(6) { $0 % 2 == 0 ? ["rtl"] : ($0 == 3 ? ["rtl", "slow"] : ["smoke"]) }
        #expect(
            Selection.apply(tests, filters: [], tags: ["rtl"], shard: nil).map(\.name) == [
                "t2", "t3", "t4", "t6",
            ])
        #expect(
            Selection.apply(tests, filters: [], tags: ["rtl"], excludedTags: ["slow"], shard: nil).map(\.name)
                == ["t2", "t4", "t6"])
        #expect(
            Selection.apply(tests, filters: [], excludedTags: ["rtl"], shard: nil).map(\.name) == [
                "t1", "t5",
            ])
    }

    @Test(arguments: [1, 2, 3, 7, 20])
    func `shards together run every test exactly once`(count: Int) {
        let tests = Self.tests(17)
        var seen: [String] = []
        for index in 1...count {
            let shard = Selection.apply(tests, filters: [], shard: (index, count))
            // deterministic: the same call gives the same shard
            #expect(shard == Selection.apply(tests, filters: [], shard: (index, count)))
            seen += shard.map(\.name)
        }
        #expect(seen.sorted() == tests.map(\.name).sorted())
    }

    @Test func `describe names every part of the selection`() {
        #expect(
            Selection.describe(filters: ["a"], tags: ["rtl"], excludedTags: ["slow"])
                == "--filter 'a', --tag 'rtl', --exclude-tag 'slow'")
    }
}
