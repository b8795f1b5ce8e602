import Foundation
import StackModel
import Testing

@testable import Bindings

// The Lua API against the Swift model: the same gestures through Lua and through `Screen` leave
// the same state (every card's frame, every part, the component's state), and the VoiceOver path
// leads where the gesture does (G6); mirrored scripts agree (R1).

/// `screen:dump()` of the screen a Lua snippet leaves in `screen`, minus its first line (the clock).
func luaState(_ code: String) throws -> String {
    let lua = try makeState()
    let result = try lua.run(code + "\nreturn screen:dump()", name: "@parity.lua")
    return try #require(result.first?.string).split(separator: "\n").dropFirst().joined(separator: "\n")
}

/// The same dump of a Swift screen.
func swiftState(_ screen: Screen) -> String {
    LuaSnapshot.dump(screen).split(separator: "\n").dropFirst().joined(separator: "\n")
}

let lockScreen = """
    screen = stackplay.screen { width = 390, height = 844 }
    stack = screen:notification_stack {
      items = { "messages", "calendar", "mail", "fitness" }, card_height = 70, dismissible = true,
      x = 16, y = 180, width = 358,
    }
    stack:tap(); screen:settle()
    """

func swiftLockScreen(_ direction: LayoutDirection = .leftToRight) throws -> (Screen, NotificationStack) {
    let screen = try Screen(settings: ScreenSettings(layoutDirection: direction))
    let stack = try NotificationStack(
        cards: ["messages", "calendar", "mail", "fitness"].map { CardSpec(id: $0, height: 70) },
        isDismissible: true, origin: Point(x: 16, y: 180), width: 358)
    try screen.add(stack)
    try screen.tap(at: stack.point(of: "stack", in: screen.settings))
    try screen.settle()
    return (screen, stack)
}

extension BindingsTests {
    @Suite struct ModelParity {
        @Test(arguments: [-150.0, -110.0, -60.0, 40.0])
        func notificationSwipeThroughLuaAndSwift(dx: Double) throws {
            let lua = try luaState(lockScreen + "\nstack:drag(\"calendar\", { x = \(dx) }); screen:settle()")
            let (screen, stack) = try swiftLockScreen()
            try screen.drag(
                from: stack.point(of: "card:calendar", in: screen.settings), by: Point(x: dx, y: 0))
            try screen.settle()
            #expect(lua == swiftState(screen))
        }

        @Test(
            "N13 count() and card(id) through Lua are the model's, for every kind, after a swipe past 110 too"
        )
        func countAndCardThroughLuaAndSwift() throws {
            let lua = try makeState()
            let result = try lua.run(
                lockScreen + """

                    local wallet = screen:wallet_card_stack { items = { "visa", "amex", "debit" }, y = 500, height = 300 }
                    local sticky = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b" } }
                    local before = stack:count()
                    stack:drag("calendar", { x = -150 }); screen:settle()
                    local card = stack:card("mail")
                    return before, stack:count(), wallet:count(), sticky:count(), card.x, card.y, card.id
                    """, name: "@parity.lua")
            let (screen, stack) = try swiftLockScreen()
            try screen.drag(
                from: stack.point(of: "card:calendar", in: screen.settings), by: Point(x: -150, y: 0))
            try screen.settle()
            let mail = try #require(stack.cardSnapshots(in: screen.settings).first { $0.id == "mail" })
            #expect(result.map(\.number) == [4, 3, 3, 2, mail.frame.x, mail.frame.y, nil])
            #expect(result.last?.string == "mail")
            #expect(stack.cardCount == 3)
        }

        @Test func notificationMidSwipeThroughLuaAndSwift() throws {
            let lua = try luaState(
                lockScreen + """

                    local x, y = stack:point("calendar")
                    local finger = screen:touch_down(x, y)
                    screen:touch_move(finger, x - 60, y)
                    screen:advance(0.1)
                    """)
            let (screen, stack) = try swiftLockScreen()
            let start = try stack.point(of: "card:calendar", in: screen.settings)
            let (finger, _) = try screen.touchDown(at: start)
            try screen.touchMove(finger, to: Point(x: start.x - 60, y: start.y))
            try screen.advance(by: 0.1)
            #expect(lua == swiftState(screen))
        }

        @Test func notificationTapAndShowLessThroughLuaAndSwift() throws {
            let lua = try luaState(lockScreen + "\nstack:tap(\"Show less\"); screen:advance(0.2)")
            let (screen, stack) = try swiftLockScreen()
            try screen.tap(at: stack.point(of: "show_less", in: screen.settings))
            try screen.advance(by: 0.2)
            #expect(lua == swiftState(screen))
        }

        @Test func g6ClearActionLeadsWhereTheSwipeDoes() throws {
            let swiped = try luaState(
                lockScreen + "\nstack:drag(\"calendar\", { x = -150 }); screen:settle()")
            let cleared = try luaState(
                lockScreen + "\nexpect(stack:action(\"Clear\", \"calendar\")):to_be_truthy(); screen:settle()"
            )
            #expect(cleared == swiped)
            #expect(cleared.contains("ids = { \"messages\", \"mail\", \"fitness\" }"))
        }

        @Test func g6ActivateOpensThePileAsTheTapDoes() throws {
            let setup = lockScreen.replacingOccurrences(of: "stack:tap(); screen:settle()", with: "")
            #expect(
                try luaState(setup + "\nstack:activate(); screen:settle()")
                    == luaState(setup + "\nstack:tap(); screen:settle()"))
        }

        static let wallet = """
            screen = stackplay.screen { width = 390, height = 844 }
            wallet = screen:wallet_card_stack { items = { "visa", "amex", "debit" }, x = 20, y = 0, width = 350, height = 844 }
            """

        func swiftWallet() throws -> (Screen, WalletCardStack) {
            let screen = try Screen()
            let wallet = try WalletCardStack(
                cards: ["visa", "amex", "debit"].map { CardSpec(id: $0, height: 200) },
                origin: Point(x: 20, y: 0),
                width: 350, height: 844)
            try screen.add(wallet)
            return (screen, wallet)
        }

        @Test(arguments: ["visa", "amex", "debit"])
        func walletSelectThroughLuaAndSwift(id: String) throws {
            let (screen, wallet) = try swiftWallet()
            try screen.tap(at: wallet.point(of: .card(id), in: screen.settings))
            try screen.advance(by: 0.2)
            let tapped = try luaState(Self.wallet + "\nwallet:tap(\"\(id)\"); screen:advance(0.2)")
            #expect(tapped == swiftState(screen))
            // G6: VoiceOver's activate, and the script's select, lead to the same place.
            try screen.settle()
            let settled = swiftState(screen)
            #expect(try luaState(Self.wallet + "\nwallet:activate(\"\(id)\"); screen:settle()") == settled)
            #expect(try luaState(Self.wallet + "\nwallet:select(\"\(id)\"); screen:settle()") == settled)
            // W9: Escape clears it, as a tap on any card does (W4).
            let escaped = try luaState(
                Self.wallet + "\nwallet:select(\"\(id)\"); screen:settle(); wallet:escape(); screen:settle()")
            let tappedBack = try luaState(
                Self.wallet
                    + "\nwallet:select(\"\(id)\"); screen:settle(); wallet:tap(\"visa\"); screen:settle()")
            #expect(escaped == tappedBack)
            #expect(escaped.contains("selection = nil"))
        }

        @Test(arguments: [0.0, 120.0, 480.0, 5000.0])
        func stickyScrollThroughLuaAndSwift(dy: Double) throws {
            let lua = try luaState(
                """
                screen = stackplay.screen { width = 390, height = 844 }
                sticky = screen:sticky_stacked_cards { items = { "a", "b", "c", "d", "e" } }
                sticky:scroll(\(dy))
                """)
            let screen = try Screen()
            let sticky = try StickyStackedCards(
                cards: ["a", "b", "c", "d", "e"].map { CardSpec(id: $0, height: 348) }, width: 390,
                viewportHeight: 844)
            try screen.add(sticky)
            try screen.drag(from: sticky.point(of: "scroll", in: screen.settings), by: Point(x: 0, y: -dy))
            #expect(lua == swiftState(screen))
        }

        @Test func r1MirroredSwipesThroughLuaLeaveTheSameCards() throws {
            let lua = try makeState()
            let same = try lua.run(
                """
                local function opened(direction)
                  local screen = stackplay.screen { layout_direction = direction }
                  local stack = screen:notification_stack { items = { "a", "b", "c" }, dismissible = true }
                  stack:tap(); screen:settle()
                  return screen, stack
                end
                local results = {}
                for _, dx in ipairs { 60, 109, 111, 200 } do
                  local ls, ltr = opened("ltr")
                  local rs, rtl = opened("rtl")
                  ltr:drag("b", { x = -dx }); rtl:drag("b", { x = dx })
                  -- Mid-animation the second card is mirrored on screen (N11): as far right of x = 16 as left.
                  local l, r = ltr:cards()[2], rtl:cards()[2]
                  local mid = l.x - 16 == 16 - r.x and l.y == r.y and l.opacity == r.opacity
                  ls:settle(); rs:settle()
                  results[#results + 1] = mid and stackplay.show(ltr:cards()) == stackplay.show(rtl:cards())
                end
                return table.unpack(results)
                """)
            #expect(same.map(\.boolean) == [true, true, true, true])
        }
    }
}
