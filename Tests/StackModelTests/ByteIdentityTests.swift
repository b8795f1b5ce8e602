import Testing

@testable import StackModel

private let nfc = "caf\u{E9}"
private let nfd = "cafe\u{301}"

/// Issue 23 item 7: what Swift's canonical equivalence calls equal, the model keeps apart.
@Suite struct ByteIdentityModelTests {
    @Test func `NFC and NFD café are equal Swift strings but two ByteKeys, in two Set slots, in byte order`()
    {
        #expect(nfc == nfd)  // what the model must not rely on
        #expect(!nfc.isSameBytes(nfd) && nfc.isSameBytes("caf\u{E9}"))
        #expect(Set([nfc, nfd].map(ByteKey.init)).count == 2)
        #expect(ByteKey(nfd) < ByteKey(nfc))  // "e" (0x65) before "é" (0xC3 0xA9)
        #expect(
            [nfc, nfd, "a"].sortedByBytes().map { Array($0.utf8) } == [
                [0x61], Array(nfd.utf8), Array(nfc.utf8),
            ])
        #expect([nfc].containsBytes(nfc) && ![nfc].containsBytes(nfd))
        #expect(nfd.includesBytes("cafe") && !nfc.includesBytes("cafe") && !nfd.includesBytes(nfc))
        #expect(
            Optional(nfc).isSameBytes(nfc) && !Optional(nfc).isSameBytes(nfd) && String?.none.isSameBytes(nil)
        )
    }

    @Test func `byte buffers compared eight bytes at a time answer as one byte at a time does`() {
        // strings of 0 to 19 bytes that differ at one byte (a low or a high one), at many, or not at
        // all, or where one is the start of the other: each answer as Array's own comparisons give it
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var compared = 0
        for length in 0..<20 {
            for _ in 0..<40 {
                let left = (0..<length).map { _ in UInt8(next(256)) }
                var right = left
                switch next(5) {
                case 0 where length > 0: right[next(length)] ^= UInt8(1 << next(8))  // one bit of one byte
                case 1 where length > 0: right.removeLast(next(length) + 1)  // a start of it
                case 2: right.append(UInt8(next(256)))  // it and one more byte
                case 3: right = (0..<length).map { _ in UInt8(next(256)) }  // bytes that differ anywhere
                default: break  // the same bytes
                }
                left.withUnsafeBufferPointer { a in
                    right.withUnsafeBufferPointer { b in
                        #expect(ByteBuffers.same(a, b) == (left == right), "\(left) \(right)")
                        #expect(
                            ByteBuffers.precedes(a, b) == left.lexicographicallyPrecedes(right),
                            "\(left) \(right)")
                        #expect(
                            ByteBuffers.precedes(b, a) == right.lexicographicallyPrecedes(left),
                            "\(left) \(right)")
                        #expect(ByteBuffers.same(a, a) && !ByteBuffers.precedes(a, a))
                    }
                }
                compared += 1
            }
        }
        #expect(compared == 800)
        // through the strings: a high byte in the ninth place orders after a low one
        #expect(
            "abcdefgh\u{E9}".precedesInBytes("abcdefgh\u{E9}z")
                && "abcdefghz".precedesInBytes("abcdefgh\u{E9}"))
        #expect(
            !"abcdefgh\u{E9}".isSameBytes("abcdefghe\u{301}")
                && "abcdefgh\u{E9}".isSameBytes("abcdefgh\u{E9}"))
    }

    @Test func `a name spelled out shows its two spellings apart`() {
        #expect(
            nfc.spelledOut == "caf\\u{E9}" && nfd.spelledOut == "cafe\\u{301}" && "a-b".spelledOut == "a-b")
    }

    @Test func `card targets and ids compare by bytes: two cards, two targets, two parts`() throws {
        #expect(ComponentTarget.card(nfc) != ComponentTarget.card(nfd))
        #expect(Set([ComponentTarget.card(nfc), .card(nfd), .part(nfc)]).count == 3)
        // A combining mark right after the prefix is still a card's id.
        #expect(ComponentTarget("card:\u{301}x").cardID == "\u{301}x")
        try CardSpec.validate([CardSpec(id: nfc, height: 10), CardSpec(id: nfd, height: 10)])
        #expect(throws: StackModelError.self) {
            try CardSpec.validate([CardSpec(id: nfc, height: 1)] + [CardSpec(id: nfc, height: 1)])
        }
    }

    @Test func `a wallet selects, and a pile dismisses, the card of the bytes given`() throws {
        let screen = try Screen(settings: ScreenSettings())
        let wallet = try WalletCardStack(cards: [
            CardSpec(id: nfc, height: 200), CardSpec(id: nfd, height: 200),
        ])
        try screen.add(wallet)
        try screen.select(nfd, of: wallet.name)
        #expect(wallet.selectedIndex == 1)
        let stack = try NotificationStack(
            name: nfc, cards: [CardSpec(id: nfc, height: 70), CardSpec(id: nfd, height: 70)],
            isExpanded: true,
            isDismissible: true, origin: Point(x: 0, y: 500))
        try screen.add(stack)
        #expect(screen.component(named: nfc) === stack && screen.component(named: nfd) == nil)
        stack.dismiss(nfd, in: screen.settings)
        #expect(stack.cards.map { Array($0.id.utf8) } == [Array(nfc.utf8)])
        #expect(screen.invariantViolations() == [])
    }
}
