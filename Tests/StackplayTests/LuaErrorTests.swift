import Foundation
import Testing

// A bad argument to each gesture and constructor, run through the built binary: the script fails
// (exit 1) with lauxlib's wording at the script's own line, naming the argument.

/// `(Lua line, the error after 'path:line: ')`, run after Fixtures/errors/setup.lua.
let badArguments: [(String, String)] = [
    // tap: a point, a card, its options
    ("screen:tap(0/0, 10)", "bad argument #1 to 'tap' (number must be finite, got nan)"),
    ("screen:tap({ x = 1 })", "bad argument #1 to 'tap' (field 'y': number expected, got nil)"),
    (
        "screen:tap(10, 10, { duration = -1 })",
        "bad argument #3 to 'tap' (field 'duration': number must not be negative, got -1)"
    ),
    (
        "screen:tap(10, 10, { durtion = 1 })",
        "bad argument #3 to 'tap' (unknown option 'durtion' (did you mean 'duration'?))"
    ),
    (
        "stack:tap(\"nope\")",
        "bad argument #1 to 'tap' (notifications has no card 'nope' (cards: messages, calendar, mail))"
    ),
    // drag
    (
        "stack:drag(\"calendar\", { x = 0/0 })",
        "bad argument #2 to 'drag' (field 'x': number must be finite, got nan)"
    ),
    (
        "stack:drag(\"nope\", { x = 1 })",
        "bad argument #1 to 'drag' (notifications has no card 'nope' (cards: messages, calendar, mail))"
    ),
    ("stack:drag(\"calendar\", \"left\")", "bad argument #2 to 'drag' (table expected, got string)"),
    (
        "stack:drag(\"calendar\", { x = 1 }, { stpes = 2 })",
        "bad argument #3 to 'drag' (unknown option 'stpes' (did you mean 'steps'?))"
    ),
    (
        "stack:drag(\"calendar\", { x = 1 }, { steps = 0 })",
        "bad argument #3 to 'drag' (field 'steps': must be from 1 to 100000, got 0)"
    ),
    (
        // Swift cannot be stopped by the CPU budget, so one gesture stays short.
        "stack:drag(\"calendar\", { x = 1 }, { steps = 1e9 })",
        "bad argument #3 to 'drag' (field 'steps': must be from 1 to 100000, got 1000000000)"
    ),
    (
        "screen:drag(10, 10, { x = 1/0 })",
        "bad argument #3 to 'drag' (field 'x': number must be finite, got inf)"
    ),
    // raw touches
    ("screen:touch_down(0/0, 1)", "bad argument #1 to 'touch_down' (number must be finite, got nan)"),
    ("screen:touch_down(\"a\", 1)", "bad argument #1 to 'touch_down' (number expected, got string)"),
    ("screen:touch_move(99, 1, 1)", "bad argument #1 to 'touch_move' (no finger with id 99 is down)"),
    (
        "screen:touch_move(1.5, 1, 1)",
        "bad argument #1 to 'touch_move' (number has no integer representation)"
    ),
    (
        "screen:touch_move(screen:touch_down(30, 200), 1, 0/0)",
        "bad argument #3 to 'touch_move' (number must be finite, got nan)"
    ),
    ("screen:touch_up(99)", "bad argument #1 to 'touch_up' (no finger with id 99 is down)"),
    ("screen:touch_up(\"x\")", "bad argument #1 to 'touch_up' (number expected, got string)"),
    // the fast paths of touch_move and touch_up leave these to the methods' closures
    (
        "screen.touch_move(stack, 1, 1, 1)",
        "calling 'touch_move' on bad self (stackplay.screen expected, got stackplay.notification_stack)"
    ),
    (
        "screen.touch_move(nil, 1, 1, 1)",
        "calling 'touch_move' on bad self (stackplay.screen expected, got nil)"
    ),
    (
        "screen.touch_up(wallet, 1)",
        "calling 'touch_up' on bad self (stackplay.screen expected, got stackplay.wallet_card_stack)"
    ),
    (
        "screen:touch_move(screen:touch_down(30, 200), { x = 1 })",
        "bad argument #2 to 'touch_move' (field 'y': number expected, got nil)"
    ),
    (
        "screen:touch_move(screen:touch_down(30, 200), \"1\", 1/0)",
        "bad argument #3 to 'touch_move' (number must be finite, got inf)"
    ),
    // time
    ("screen:advance(-1)", "bad argument #1 to 'advance' (number must not be negative, got -1)"),
    ("screen:advance(0/0)", "bad argument #1 to 'advance' (number must be finite, got nan)"),
    ("screen:advance(\"soon\")", "bad argument #1 to 'advance' (number expected, got string)"),
    ("screen:settle(-1)", "bad argument #1 to 'settle' (number must not be negative, got -1)"),
    ("screen:settle(1/0)", "bad argument #1 to 'settle' (number must be finite, got inf)"),
    // scroll
    ("sticky:scroll(0/0)", "bad argument #1 to 'scroll' (number must be finite, got nan)"),
    ("sticky:scroll(\"down\")", "bad argument #1 to 'scroll' (number expected, got string)"),
    (
        "sticky:scroll(100, { duraton = 1 })",
        "bad argument #2 to 'scroll' (unknown option 'duraton' (did you mean 'duration'?))"
    ),
    ("sticky:scroll_to(1/0)", "bad argument #1 to 'scroll_to' (number must be finite, got inf)"),
    // select
    ("wallet:select(\"vsa\")", "bad argument #1 to 'select' (no card 'vsa' (did you mean 'visa'?))"),
    ("wallet:select(\"diners\")", "bad argument #1 to 'select' (no card 'diners' (cards: visa, amex))"),
    ("wallet:select(true)", "bad argument #1 to 'select' (string expected, got boolean)"),
    // accessibility actions
    ("stack:action(nil)", "bad argument #1 to 'action' (string expected, got nil)"),
    (
        "stack:action(\"Clear\", \"nope\")",
        "bad argument #2 to 'action' (notifications has no accessibility element 'nope' (it has: title, show_less, messages, calendar, mail))"
    ),
    (
        "stack:action(\"Clearr\", \"calendar\")",
        "bad argument #1 to 'action' ('card:calendar' has no action 'Clearr' (did you mean 'Clear'?))"
    ),
    (
        "stack:activate(\"nope\")",
        "bad argument #1 to 'activate' (notifications has no accessibility element 'nope')"
    ),
    ("stack:activate({})", "bad argument #1 to 'activate' (string expected, got table)"),
    // screen options
    (
        "stackplay.screen { width = -1 }",
        "bad argument #1 to 'screen' (field 'width': number must not be negative, got -1)"
    ),
    (
        "stackplay.screen { widht = 1 }",
        "bad argument #1 to 'screen' (unknown option 'widht' (did you mean 'width'?))"
    ),
    (
        "stackplay.screen { width = \"wide\" }",
        "bad argument #1 to 'screen' (field 'width': number expected, got string)"
    ),
    (
        "stackplay.screen { height = 0/0 }",
        "bad argument #1 to 'screen' (field 'height': number must be finite, got nan)"
    ),
    (
        "stackplay.screen { layout_direction = \"rlt\" }",
        "bad argument #1 to 'screen' (field 'layout_direction': expected one of 'ltr', 'rtl', got 'rlt' (did you mean 'rtl'?))"
    ),
    (
        "stackplay.screen { reduce_motion = 1 }",
        "bad argument #1 to 'screen' (field 'reduce_motion': boolean expected, got number)"
    ),
    ("stackplay.screen \"big\"", "bad argument #1 to 'screen' (table expected, got string)"),
    (
        "screen:set_size { width = -1 }",
        "bad argument #1 to 'set_size' (field 'width': number must not be negative, got -1)"
    ),
    (
        "screen:set_reduce_motion(\"on\")",
        "bad argument #1 to 'set_reduce_motion' (boolean expected, got string)"
    ),
    (
        "screen:set_layout_direction(\"up\")",
        "bad argument #1 to 'set_layout_direction' ('ltr' or 'rtl' expected, got 'up')"
    ),
    // component options
    (
        "screen:notification_stack { items = { \"a\" }, spacng = 2 }",
        "bad argument #1 to 'notification_stack' (unknown option 'spacng' (did you mean 'spacing'?))"
    ),
    (
        "screen:notification_stack { items = { \"a\" }, card_height = -5 }",
        "bad argument #1 to 'notification_stack' (field 'card_height': number must not be negative, got -5)"
    ),
    (
        "screen:notification_stack { items = \"a\" }",
        "bad argument #1 to 'notification_stack' (field 'items': list of ids or { id =, height = } tables expected, got string)"
    ),
    (
        "screen:notification_stack { items = { \"a\" }, dismissible = \"yes\" }",
        "bad argument #1 to 'notification_stack' (field 'dismissible': boolean expected, got string)"
    ),
    (
        "screen:wallet_card_stack { items = { \"a\" }, pile_hight = 2 }",
        "bad argument #1 to 'wallet_card_stack' (unknown option 'pile_hight' (did you mean 'pile_height'?))"
    ),
    (
        "screen:wallet_card_stack { items = { \"a\" }, peek = 0/0 }",
        "bad argument #1 to 'wallet_card_stack' (field 'peek': number must be finite, got nan)"
    ),
    (
        "screen:sticky_stacked_cards { items = { \"a\" }, max_peking = 2 }",
        "bad argument #1 to 'sticky_stacked_cards' (unknown option 'max_peking' (did you mean 'max_peeking'?))"
    ),
    (
        "screen:sticky_stacked_cards { items = { \"a\" }, max_peeking = 1.5 }",
        "bad argument #1 to 'sticky_stacked_cards' (field 'max_peeking': number has no integer representation)"
    ),
    (
        "screen:sticky_stacked_cards { items = { \"a\" }, height = -1 }",
        "bad argument #1 to 'sticky_stacked_cards' (field 'height': number must not be negative, got -1)"
    ),
    // observations and setters
    ("stack:card(\"calender\")", "bad argument #1 to 'card' (no card 'calender' (did you mean 'calendar'?))"),
    // card's fast path leaves these to the method's closure
    (
        "stack.card(wallet, \"visa\")",
        "calling 'card' on bad self (stackplay.notification_stack expected, got stackplay.wallet_card_stack)"
    ),
    ("stack:card(12)", "bad argument #1 to 'card' (no card '12' (cards: messages, calendar, mail))"),
    // and count's
    (
        "stack.count(wallet)",
        "calling 'count' on bad self (stackplay.notification_stack expected, got stackplay.wallet_card_stack)"
    ),
    (
        "stack.count(screen)",
        "calling 'count' on bad self (stackplay.notification_stack expected, got stackplay.screen)"
    ),
    ("stack:set_expanded(1)", "bad argument #1 to 'set_expanded' (boolean expected, got number)"),
    ("wallet:set_height(-1)", "bad argument #1 to 'set_height' (number must not be negative, got -1)"),
    ("screen:hit_test(0/0, 1)", "bad argument #1 to 'hit_test' (number must be finite, got nan)"),
]

@Test(arguments: badArguments)
func badArgumentFailsAtTheScriptsLineNamingIt(code: String, message: String) throws {
    let setup = try String(
        contentsOf: packageRoot.appendingPathComponent("\(fixtures)/errors/setup.lua"), encoding: .utf8)
    let folder = try temporaryFolder(["case.lua": setup + code + "\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let line = setup.split(separator: "\n", omittingEmptySubsequences: false).count
    let run = try stackplay(arguments: ["case.lua"], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout == "case.lua\n  FAIL (whole script)\n0 passed, 1 failed\n")
    let first = run.stderr.split(separator: "\n").first.map(String.init)
    #expect(first == "stackplay: case.lua:\(line): \(message)")
}

@Test func theSameErrorsAreCatchableInsideATest() throws {
    let folder = try temporaryFolder([
        "caught.lua": """
        test("to_raise sees the argument error", function()
          local screen = stackplay.screen {}
          expect(function() screen:advance(-1) end):to_raise("bad argument #1 to 'advance'")
          expect(function() screen:advance(1) end):never():to_raise()
        end)
        """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try stackplay(arguments: ["caught.lua"], in: folder)
    #expect(run.stderr == "")
    #expect(run.status == 0)
}
