import Testing

@testable import StackModel

@Suite struct OwnerChangeTests {
    @Test func aDeclaredChangeBuildsTheChangeTracesWrite() {
        #expect(
            OwnerChange.setExpanded(true) == OwnerChange("set_expanded", [.init("expanded", .bool(true))]))
        #expect(OwnerChange.select(nil) == OwnerChange("select", [.init("selection", .null)]))
        #expect(OwnerChange.select("c1") == OwnerChange("select", [.init("selection", .string("c1"))]))
        #expect(OwnerChange.setHeight(500) == OwnerChange("set_height", [.init("height", .number(500))]))
        #expect(OwnerChange.scrollTo(12) == OwnerChange("scroll_to", [.init("offset", .number(12))]))
        let cards = [CardSpec(id: "a", height: 70)]
        #expect(OwnerChange.setItems(cards) == OwnerChange("set_items", [.init("items", .cards(cards))]))
    }

    @Test func eachKindDeclaresTheSchemasTracesRead() {
        typealias S = OwnerChange.Schema
        #expect(
            NotificationStack.ownerChanges == [
                S("set_expanded", [.init("expanded", .bool)]), S("set_items", [.init("items", .cards)]),
            ])
        #expect(
            WalletCardStack.ownerChanges == [
                S("set_items", [.init("items", .cards)]), S("select", [.init("selection", .optionalString)]),
                S("set_height", [.init("height", .nonNegative)]),
            ])
        #expect(StickyStackedCards.ownerChanges == [S("scroll_to", [.init("offset", .number)])])
    }

    @Test func aDeclaredChangeReadsOnlyItselfAndNamesAMissingField() throws {
        #expect(try OwnerChange.setExpanded.value(of: .setExpanded(false)) == false)
        #expect(try OwnerChange.setExpanded.value(of: .scrollTo(1)) == nil)
        #expect(try OwnerChange.select.value(of: .select(nil)) == .some(nil))
        #expect(throws: StackModelError("set_expanded: field 'expanded' is missing")) {
            try OwnerChange.setExpanded.value(of: OwnerChange("set_expanded", []))
        }
        #expect(throws: StackModelError("set_expanded: field 'expanded' must be boolean")) {
            try OwnerChange.setExpanded.value(
                of: OwnerChange("set_expanded", [.init("expanded", .number(1))]))
        }
    }

    @Test func aKindAppliesItsChangesAndRefusesTheOthers() throws {
        let screen = try Screen()
        let stack = try NotificationStack(cards: [
            CardSpec(id: "a", height: 70), CardSpec(id: "b", height: 70),
        ])
        try screen.add(stack)
        try screen.change(.setExpanded(true), of: stack.name)
        #expect(stack.isExpanded)
        #expect(throws: StackModelError("'notifications' is a notification_stack, which takes no scroll_to"))
        {
            try screen.change(.scrollTo(3), of: stack.name)
        }
    }

    @Test func defaultsAreTheSeedsAndTheInitializerTakesThem() throws {
        let stack = try NotificationStack(cards: [])
        #expect(stack.name == "notifications")
        #expect(stack.title == "Notifications")
        #expect((stack.spacing, stack.peek) == (10, 10))
        #expect(!stack.isExpanded && !stack.isDismissible)
        let wallet = try WalletCardStack(cards: [])
        #expect((wallet.name, wallet.cardHeight, wallet.peek, wallet.pileHeight) == ("wallet", 200, 64, 76))
        let sticky = try StickyStackedCards(cards: [])
        #expect((sticky.name, sticky.spacing, sticky.top, sticky.peek) == ("sticky", 20, 12, 12))
        #expect(
            (sticky.maxPeeking, sticky.insetTop, sticky.insetBottom, sticky.scrollOffset) == (3, 12, 40, 0))
    }
}
