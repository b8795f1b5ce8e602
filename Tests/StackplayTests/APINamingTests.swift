import Foundation
import Testing

/// Names and ids reach scripts as the API gives them: one name per part everywhere, integer ids stay integers.
@Suite struct APINamingTests {

    // MARK: 7. The smaller points

    @Test func partsHaveOneNameEverywhereAndAnUnknownPartRaises() throws {
        let run = try runScript(
            """
            local s = stackplay.screen {}
            local n = s:notification_stack { items = { "a", "b" } }
            local w = s:wallet_card_stack { items = { "v" }, y = 400, height = 400 }
            expect(n:part("header")):to_be_nil()
            n:tap(); s:settle()
            expect(n:part("Show less")):to_equal(n:part("show_less"))
            expect(n:part("header")):to_be_type("table")
            expect(w:part("detail")):to_be_nil()
            w:part("details")

            """)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "stackplay: x.lua:9: bad argument #1 to 'part' (wallet_card_stack has no part 'details' (did you mean 'detail'?))\n"
            ))
        let types = try String(
            contentsOf: packageRoot.appendingPathComponent("types/stackplay.lua"), encoding: .utf8)
        #expect(!types.contains("\"details\""))
    }

    @Test func integerIdsStayIntegers() throws {
        let run = try runScript(
            """
            local s = stackplay.screen { record = true }
            local w = s:wallet_card_stack { items = { 1, 2, { id = 3 } }, height = 600 }
            w:tap(2); s:settle()
            expect(w:selection()):to_equal(2)
            expect(math.type(w:selection())):to_equal("integer")
            expect(w:ids()):to_equal { 1, 2, 3 }
            expect(w:card(3).id):to_equal(3)
            local n = s:notification_stack { items = { "a", 7 }, dismissible = true, y = 700, name = "n" }
            expect(n:ids()):to_equal { "a", 7 }
            expect(s:trace()):to_contain('"2"')

            """)
        #expect(run.status == 0, "\(run.stderr)")
    }
}
