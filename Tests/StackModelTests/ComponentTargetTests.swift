import Testing

@testable import StackModel

@Suite struct ComponentTargetTests {
    @Test func cardTextParsesToTheCardAndPrintsBack() {
        let target = ComponentTarget("card:calendar")
        #expect(target == .card("calendar"))
        #expect(target.name == "card:calendar")
        #expect(target.cardID == "calendar")
        #expect(target.bareName == "calendar")
    }

    @Test func otherTextIsAPartOfItsName() {
        let target = ComponentTarget("show_less")
        #expect(target == .part("show_less"))
        #expect(target.name == "show_less")
        #expect(target.cardID == nil)
    }

    @Test func onlyTheFirstPrefixIsTheCardsAndAnEmptyIdStaysACard() {
        #expect(ComponentTarget("card:card:x") == .card("card:x"))
        #expect(ComponentTarget("card:") == .card(""))
        #expect(ComponentTarget("Card:x") == .part("Card:x"))
        #expect(ComponentTarget.card("card:x").name == "card:card:x")
    }

    @Test func aLiteralReadsAsTheTextDoes() {
        let literal: ComponentTarget = "card:mail"
        #expect(literal == .card("mail"))
        #expect("\(ComponentTarget.part("stack"))" == "stack")
    }

    @Test func hitsNameTheirCardAsTextForScriptsAndReports() throws {
        let f = try NotificationFixture(expanded: true)
        let hit = try #require(f.screen.hitTest(f.card("calendar").frame.center))
        #expect(hit.part == .card("calendar"))
        #expect(hit.target == "card:calendar")
        #expect(hit.description == "notifications card:calendar")
    }
}
