import Foundation
import LuaRuntime
import Testing

@testable import Bindings

/// What running `code` in a fresh sandboxed state returns.
func luaResults(_ code: String, name: String = "=(string)") throws -> [LuaValue] {
    try makeState().run(code, name: name)
}

/// Gestures by card id check that a touch can reach the card (issue 24 item 3), as Playwright
/// checks an element before it acts.
extension BindingsTests {
    @Suite struct Actionability {
        /// The error a Lua chunk's protected call ended in, or its first result as text.
        func outcome(_ code: String) throws -> String {
            let results = try luaResults(
                "local ok, e = pcall(function()\n\(code)\nend)\nreturn ok and tostring(e) or e",
                name: "@test.lua")
            return results.first?.string ?? "nil"
        }

        @Test func aCardCoveredByAnotherOfItsStackRaisesNamingTheCover() throws {
            let message = try outcome(
                """
                local w = stackplay.screen {}:wallet_card_stack { items = { "a", "b", "c" }, peek = 0 }
                return w:tap("a")
                """)
            #expect(
                message.hasSuffix(
                    "tap: card 'a' of wallet_card_stack 'wallet' cannot be touched: card 'c' covers it at (195, 100)"
                ))
        }

        @Test func aCardCoveredByAnotherComponentNamesThatComponent() throws {
            let message = try outcome(
                """
                local screen = stackplay.screen {}
                local w = screen:wallet_card_stack { items = { "a" }, name = "low" }
                screen:wallet_card_stack { items = { "x" }, name = "top" }
                return w:drag("a", { x = 10 })
                """)
            #expect(
                message.hasSuffix(
                    "drag: card 'a' of wallet_card_stack 'low' cannot be touched: "
                        + "card 'x' of wallet_card_stack 'top' covers it at (195, 100)"))
        }

        @Test func aPartlyCoveredCardIsTouchedWhereItShowsNotAtItsCentre() throws {
            // A notification card covers the wallet card's top-left 200 × 150 pt and its centre
            // (195, 100): the tap goes to the centre of the largest rectangle left (x 200...370,
            // 34,000 pt², over the band under the cover, 17,500 pt²) and hits the card.
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local low = screen:wallet_card_stack { items = { "a" }, name = "low" }
                screen:notification_stack { items = { "m" }, x = 0, width = 200, card_height = 150 }
                local before = screen:hit_test(195, 100)
                local hit = low:tap("a")
                return before.component, hit.component, hit.card, low:selection()
                """)
            #expect(results.map(\.string) == ["notifications", "low", "a", "a"])
            // The trace's touch_down says where: the middle of x 200...370, y 0...200.
            let aimed = try luaResults(
                """
                local screen = stackplay.screen { record = true }
                local low = screen:wallet_card_stack { items = { "a" }, name = "low" }
                screen:notification_stack { items = { "m" }, x = 0, width = 200, card_height = 150 }
                low:tap("a")
                return screen:trace():match('"touch_down"[^}]*')
                """)
            let line = try #require(aimed.first?.string)
            #expect(line.contains(#""x":285,"y":100"#), "\(line)")
            // `point` reads the same aim.
            let point = try luaResults(
                """
                local screen = stackplay.screen {}
                local low = screen:wallet_card_stack { items = { "a" }, name = "low" }
                screen:notification_stack { items = { "m" }, x = 0, width = 200, card_height = 150 }
                return low:point("a")
                """)
            #expect(point.map(\.number) == [285, 100])
        }

        @Test func eachUnreachableCaseIsNamed() throws {
            let cases: [(String, String)] = [
                (
                    "stackplay.screen {}:wallet_card_stack { items = { 'a' }, y = 900 }:tap('a')",
                    "it is off screen (at x = 20, y = 900, the screen is 390 × 844)"
                ),
                (
                    "stackplay.screen {}:wallet_card_stack { items = { 'z' }, card_height = 0 }:tap('z')",
                    "it has zero size (350 × 0 pt)"
                ),
                (
                    """
                    local s = stackplay.screen {}:notification_stack { items = { "m", "c", "l", "f" } }
                    s:set_expanded(true)
                    s:tap("f")
                    """,
                    "it is drawn at opacity 0, which takes no touches"
                ),
                (
                    "stackplay.screen {}:notification_stack { items = { 'm', 'c' } }:drag('m', { x = -200 })",
                    "hit testing is off for it now (a touch at (195, 35) lands on its 'stack')"
                ),
            ]
            for (code, reason) in cases {
                let message = try outcome(code)
                #expect(message.contains("cannot be touched: \(reason)"), "\(code): \(message)")
            }
        }

        @Test func forceTouchesTheCardsPlaceAnyway() throws {
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local w = screen:wallet_card_stack { items = { "a", "b", "c" }, peek = 0 }
                local hit = w:tap("a", { force = true })
                local stack = screen:notification_stack { items = { "m", "c" }, y = 400 }
                local pile = stack:drag("m", { x = -200 }, { force = true })
                return hit.card, pile.target
                """)
            #expect(results.map(\.string) == ["c", "stack"])
        }

        @Test func forceIsAnOptionOfGesturesByIDOnly() throws {
            let lua = try makeState()
            let typo = try #require(
                runFailure(
                    of:
                        "stackplay.screen {}:wallet_card_stack { items = { 'a' } }:tap('a', { forse = true })",
                    in: lua))
            #expect(
                typo.message.contains(
                    "bad argument #2 to 'tap' (unknown option 'forse' (did you mean 'force'?))"))
            let byPoint = try #require(
                runFailure(of: "stackplay.screen {}:tap(1, 1, { force = true })", in: lua))
            #expect(byPoint.message.contains("unknown option 'force'"))
        }
    }
}

extension BindingsTests {
    /// `sticky:scroll(dy)` says how far it moved (issue 24 item 5): no silent no-op.
    @Suite struct ScrollDistance {
        @Test func scrollReturnsTheDistanceMovedZeroUnderThePanThresholdAndClampedAtTheEnds() throws {
            let results = try luaResults(
                """
                local cards = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b", "c", "d", "e", "f" } }
                local short, more = cards:scroll(8)
                local moved = cards:scroll(300)
                local rest = cards:scroll(5000)
                local back = cards:scroll(-5000)
                return short, more == nil and select("#", cards:scroll(1)) == 1, moved, rest, cards:max_offset(), back
                """)
            #expect(results[0].number == 0)
            // one value: how far it moved (`expect(cards:scroll(9)):to_equal(0)` holds)
            #expect(results[1].boolean == true)
            #expect(results[2].number == 300)
            let maxOffset = try #require(results[4].number)
            #expect(results[3].number == maxOffset - 300)
            #expect(results[5].number == -maxOffset)
        }
    }
}

extension BindingsTests {
    /// Accessibility snapshots list hidden elements with `hidden = true` (issue 24 item 5), after
    /// the ones VoiceOver reads; they still take no activation.
    @Suite struct HiddenElements {
        @Test func aSelectedWalletListsItsPileAsHiddenAfterWhatVoiceOverReads() throws {
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, height = 600 }
                wallet:tap("b"); screen:settle()
                local list = {}
                for _, e in ipairs(wallet:accessibility()) do list[#list + 1] = e.id .. "=" .. tostring(e.hidden) end
                local all = {}
                for _, e in ipairs(screen:accessibility()) do all[#all + 1] = e.id end
                local ok, err = pcall(wallet.activate, wallet, "a")
                return table.concat(list, " "), table.concat(all, " "), ok, err
                """)
            #expect(results[0].string == "card:b=false card:a=true card:c=true")
            #expect(results[1].string == "card:b card:a card:c")
            #expect(results[2].boolean == false)
            #expect(results[3].string?.contains("'card:a' is hidden from VoiceOver") == true)
        }
    }
}

extension BindingsTests {
    /// W7: a pressed wallet card follows the finger out and back in, as `UIControl` highlights.
    @Suite struct PressFollowsTheFinger {
        @Test func aPressedCardLetsGoWhenTheFingerLeavesAndIsPressedAgainWhenItComesBack() throws {
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, y = 100, height = 600 }
                local x, y = wallet:point("c")
                local finger = screen:touch_down(x, y); screen:settle()
                local down = wallet:card("c").scale
                screen:touch_move(finger, x, y + 670); screen:settle()
                local away = wallet:card("c").scale
                screen:touch_move(finger, x + 20, y); screen:settle()
                local back = wallet:card("c").scale
                screen:touch_up(finger); screen:settle()
                return down, away, back, wallet:card("c").scale, wallet:selection()
                """)
            #expect(results[0].number == 0.98)
            #expect(results[1].number == 1)
            #expect(results[2].number == 0.98)
            #expect(results[3].number == 1)
            #expect(results[4].string == "c")  // lifted inside after coming back: the button fires
        }
    }
}

extension BindingsTests {
    /// A card left mid-swipe when the notification stack closes keeps its offset (docs/behaviours.md).
    @Suite struct MidSwipeClose {
        @Test func aCardLeftMidSwipeWhenTheStackClosesKeepsItsOffsetUntilSwipedAgain() throws {
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local stack = screen:notification_stack {
                  items = { "messages", "calendar", "mail" }, expanded = true, dismissible = true,
                }
                screen:settle()
                local x, y = stack:point("calendar")
                local finger = screen:touch_down(x, y)
                screen:touch_move(finger, x - 60, y)
                local swiping = stack:card("calendar").x
                stack:set_expanded(false)
                screen:touch_move(finger, x - 200, y)          -- the disabled swipe no longer follows
                local after = stack:card("calendar").x
                screen:touch_up(finger); screen:settle()        -- no onEnded: no spring back, no dismissal
                local closed = stack:card("calendar").opacity
                stack:set_expanded(true); screen:settle()
                local reopened = stack:card("calendar").x
                stack:drag("calendar", { x = -30 }); screen:settle()   -- a new swipe springs it back
                return swiping, after, closed, reopened, stack:card("calendar").x, #stack:ids(), stack:open()
                """)
            #expect(results[0].number == -44)
            #expect(results[1].number == -44)
            #expect(results[2].number == 1 - 60.0 / 275)
            #expect(results[3].number == -44)
            #expect(results[4].number == 16)
            #expect(results[5].number == 3)
            #expect(results[6].boolean == true)
        }
    }
}

extension BindingsTests {
    /// Components without an explicit width or height follow `set_size` (ContainerFill).
    @Suite struct FollowScreenSize {
        @Test func defaultSizesFollowTheScreenGivenOnesStayAndTheScrollOffsetStaysInRange() throws {
            let results = try luaResults(
                """
                local screen = stackplay.screen {}
                local wallet = screen:wallet_card_stack { items = { "a" }, x = 30, y = 40 }
                local given = screen:wallet_card_stack { items = { "b" }, name = "given", width = 200 }
                local sticky = screen:sticky_stacked_cards { items = { "s", "t", "u", "v" } }
                sticky:scroll_to(sticky:max_offset())
                screen:set_size { width = 500, height = 2000 }
                return wallet:frame().width, wallet:frame().height, given:frame().width, given:frame().height,
                  sticky:frame().height, sticky:scroll_offset(), sticky:max_offset()
                """)
            #expect(results.map(\.number) == [440, 1960, 200, 2000, 2000, 0, 0])
        }
    }
}
