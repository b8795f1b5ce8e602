import Testing

@testable import StackModel

/// ``TouchMap``: the same answers with a few fingers (a linear list) and with many (a dictionary
/// over a list with holes), in the order the fingers went down.
@Suite struct TouchMapTests {
    /// `count` fingers down, every third lifted, the rest moved: checked against a dictionary and
    /// an ordered list of the keys at every step.
    func check(_ count: Int) {
        var map = TouchMap<Int>()
        var expected: [Int: Int] = [:]
        var order: [Int] = []
        for key in 0..<count {
            map[key * 7] = key
            expected[key * 7] = key
            order.append(key * 7)
        }
        for key in stride(from: 0, to: count, by: 3) {
            #expect(map.removeValue(forKey: key * 7) == key)
            expected[key * 7] = nil
            order.removeAll { $0 == key * 7 }
        }
        for key in stride(from: 1, to: count, by: 3) {
            map[key * 7] = -key
            expected[key * 7] = -key
        }
        #expect(map.removeValue(forKey: -1) == nil)
        #expect(map.count == expected.count)
        #expect(map.isEmpty == expected.isEmpty)
        for key in 0..<count { #expect(map[key * 7] == expected[key * 7]) }
        #expect(map.map(\.key) == order)
        #expect(map.values == order.map { expected[$0]! })
        #expect(map.filter { $0.value < 0 }.map(\.key) == order.filter { expected[$0]! < 0 })
        // lifted to the last one: empty again, and it takes new fingers
        for key in order { map[key] = nil }
        #expect(map.isEmpty && map.count == 0 && map.values.isEmpty)
        map[5] = 1
        #expect(map[5] == 1 && map.count == 1)
    }

    @Test func `a few fingers and many give the same answers in the order they went down`() {
        for count in [0, 1, 2, 8, 9, 10, 30, 1000] { check(count) }
    }
}
