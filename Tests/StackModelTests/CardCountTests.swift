import Testing

@testable import StackModel

@Suite struct CardCountTests {
    static func cards(_ ids: [String]) -> [CardSpec] { ids.map { CardSpec(id: $0, height: 70) } }

    @Test func everyKindCountsTheCardsItHoldsNow() throws {
        let screen = try Screen()
        let components: [any Component] = [
            try NotificationStack(cards: Self.cards(["a", "b", "c"])),
            try WalletCardStack(cards: Self.cards(["a", "b"])),
            try StickyStackedCards(cards: Self.cards(["a"])),
        ]
        for component in components { try screen.add(component) }
        #expect(screen.components.map(\.cardCount) == [3, 2, 1])
        try screen.setItems(Self.cards(["x"]), of: "notifications")
        try screen.setItems([], of: "wallet")
        #expect(screen.components.map(\.cardCount) == [1, 0, 1])
    }

    @Test func aCountIsTheCardsASnapshotLaysOut() throws {
        let f = try NotificationFixture(expanded: true)
        #expect(f.stack.cardCount == f.stack.cardSnapshots(in: f.screen.settings).count)
        try f.screen.performAction("Clear", on: "card:mail", of: "notifications")
        try f.screen.settle()
        #expect(f.stack.cardCount == 3)
        #expect(f.stack.cardCount == f.stack.cardSnapshots(in: f.screen.settings).count)
    }
}
