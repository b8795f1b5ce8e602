import Testing

@testable import StackModel

@Suite("Did you mean")
struct NearestNameTests {
    @Test(
        "a typo finds the name it was meant to be",
        arguments: [
            ("calender", ["messages", "calendar", "mail"], "calendar"),
            ("stpes", ["steps", "duration"], "steps"),  // two neighbours swapped
            ("widht", ["width", "height"], "width"),
            ("rlt", ["ltr", "rtl"], "rtl"),
            ("larg", ["large", "xLarge"], "large"),
            ("Spacing", ["spacing", "peek"], "spacing"),  // case does not matter
        ])
    func finds(typo: String, known: [String], expected: String) {
        #expect(nearestName(to: typo, in: known) == expected)
    }

    @Test(
        "a name that is not a typo of any known one finds nothing", arguments: ["zz", "nope", "fitness", ""])
    func findsNothing(name: String) {
        #expect(nearestName(to: name, in: ["c0", "c1", "mail", "calendar"]) == nil)
    }

    @Test("edit distance counts a swap of neighbours as one edit")
    func distance() {
        #expect(editDistance("steps", "stpes") == 1)
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("kitten", "sitting") == 3)
    }

    @Test("G6 a card id with a typo is an error that suggests the card")
    func unknownCardSuggests() throws {
        let f = try NotificationFixture(expanded: true)
        #expect(throws: StackModelError("notifications has no card 'calender' (did you mean 'calendar'?)")) {
            try f.stack.point(of: "calender", in: f.screen.settings)
        }
        #expect(
            throws: StackModelError(
                "notifications has no card 'zz' (cards: messages, calendar, mail, fitness)")
        ) {
            try f.stack.point(of: "zz", in: f.screen.settings)
        }
    }
}
