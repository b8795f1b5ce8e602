---@meta stackplay
-- LuaLS definitions for stackplay scenario scripts: the `stackplay` table, screens, the three
-- components, and the test prelude (test, skip, only, before_each, after_each, expect).
-- Point an editor at this folder with `.luarc.json`: { "workspace.library": ["types"] }
-- (docs/luarc.example.json). `local stackplay = require "stackplay"` (the Lua module) gets the same
-- types; test/expect exist only in scripts run by the `stackplay` runner.
-- Units are points (pt) and seconds (s); ids are the strings given in `items`.

---@alias stackplay.layout_direction "ltr"|"rtl"
---@alias stackplay.dynamic_type "xSmall"|"small"|"medium"|"large"|"xLarge"|"xxLarge"|"xxxLarge"|"AX1"|"AX2"|"AX3"|"AX4"|"AX5"
---@alias stackplay.item string|integer|stackplay.item_table

---@class stackplay.item_table
---@field id string|integer the card's id
---@field height? number its height in pt (default: the component's card_height)
---@field label? string what VoiceOver reads

---@class stackplay.screen_options
---@field width? number pt, >= 0 (default 390, or .stackplay.lua's screen.width)
---@field height? number pt, >= 0 (default 844)
---@field layout_direction? stackplay.layout_direction default "ltr"
---@field reduce_motion? boolean default false
---@field dynamic_type? stackplay.dynamic_type default "large"
---@field record? boolean record every input and frame from the start (default false; always on with --trace)
---@field mirror? boolean a mirrored world: the other layout direction, every x given or read mirrored across the centre line (default false; on in --mirror's second run)

---@class stackplay.size_options
---@field width? number pt, >= 0 (default: unchanged)
---@field height? number pt, >= 0 (default: unchanged)

---@class stackplay.point
---@field x number
---@field y number

---@class stackplay.translation
---@field x? number screen points, not mirrored in rtl (default 0)
---@field y? number default 0

---@class stackplay.gesture_options
---@field steps? integer moves the drag is made of, >= 1 (default 10)
---@field duration? number seconds the moves are spread over, >= 0 (default 0)

---@class stackplay.tap_options
---@field duration? number seconds between down and up, >= 0 (default 0)

---@class stackplay.card_tap_options: stackplay.tap_options
---@field force? boolean touch the card's centre even where no touch reaches it (default false)

---@class stackplay.card_gesture_options: stackplay.gesture_options
---@field force? boolean start at the card's centre even where no touch reaches it (default false)

---@class stackplay.component_options
---@field items stackplay.item[] the cards, in order
---@field name? string the component's name on the screen
---@field x? number pt from the leading edge: the left in ltr, the right in rtl
---@field y? number top edge in pt
---@field width? number pt, >= 0
---@field card_height? number each card's height unless its item says, >= 0

---@class stackplay.notification_stack_options: stackplay.component_options
---@field expanded? boolean default false
---@field title? string default "Notifications"
---@field spacing? number default 10
---@field peek? number default 10
---@field dismissible? boolean cards can be swiped away (default false)

---@class stackplay.wallet_card_stack_options: stackplay.component_options
---@field selection? string|integer the selected card's id; an id of no card counts as none (W11)
---@field peek? number default 64
---@field pile_height? number >= 0 (default 76)
---@field height? number the stack's height in pt, >= 0

---@class stackplay.sticky_stacked_cards_options: stackplay.component_options
---@field spacing? number default 20
---@field top? number default 12
---@field peek? number default 12
---@field max_peeking? integer default 3
---@field height? number the scroll view's visible height in pt, >= 0
---@field inset_top? number >= 0 (default 12)
---@field inset_bottom? number >= 0 (default 40)
---@field inset_horizontal? number >= 0, each side of the cards (default 20)
---@field scroll_offset? number default 0

---@class stackplay.set_items_options
---@field items stackplay.item[]
---@field card_height? number

---@class stackplay.hit What a touch landed on.
---@field component string the component's name
---@field target string "card:<id>", "stack", "show_less", "scroll", ...
---@field card? string the card's id, when a card was hit

---@class stackplay.rect
---@field x number
---@field y number
---@field width number
---@field height number

---@class stackplay.card A card's frame snapshot.
---@field id string|integer as the items gave it
---@field x number
---@field y number
---@field width number
---@field height number
---@field scale number
---@field opacity number
---@field z number
---@field visible boolean
---@field hittable boolean

---@class stackplay.part A header, a button or a detail area.
---@field name string
---@field x number
---@field y number
---@field width number
---@field height number
---@field opacity number
---@field hittable boolean

---@class stackplay.element An accessibility element: those VoiceOver reads in its order, then the hidden ones.
---@field component string
---@field id string
---@field label string
---@field value string
---@field hint string
---@field traits string[]
---@field hidden boolean hidden from VoiceOver (listed after the others; it takes no activation)
---@field actions string[]
---@field frame stackplay.rect
---@field activation_point stackplay.point
---@field sort_priority number

---@class stackplay.settings
---@field width number
---@field height number
---@field layout_direction stackplay.layout_direction
---@field reduce_motion boolean
---@field dynamic_type stackplay.dynamic_type
---@field now number seconds

---@class stackplay.component_snapshot
---@field kind "notification_stack"|"wallet_card_stack"|"sticky_stacked_cards"
---@field name string
---@field frame stackplay.rect
---@field cards stackplay.card[]
---@field leaving stackplay.card[] the cards on their way out (a removal inside an animated change)
---@field parts table<string, stackplay.part>
---@field state table<string, any>

---@class stackplay.snapshot
---@field time number
---@field settings stackplay.settings
---@field components stackplay.component_snapshot[]

---@alias stackplay.audit_type
---| "hit_region" # a control or swipeable card with no 44 × 44 pt square that takes touches
---| "element_detection" # a card a touch reaches that VoiceOver hides or lacks; an activation point off screen or on something else
---| "sufficient_description" # an empty label, a raw id as label, a repeated label, a button without a hint where the others have one
---| "dynamic_type" # at the screen's text size, a card or part that fits at Large and no longer does
---| "trait" # a control without the Button trait, the selection without Selected
---| "action" # a named action that changes nothing now
---| "contrast" # not applicable headlessly: refused (stackplay draws no colours)
---| "text_clipped" # not applicable headlessly: refused (stackplay lays out no text)

--- A known issue an audit leaves out: every field given must match.
---@class stackplay.audit_allowance
---@field type stackplay.audit_type
---@field element? string an element id (`card:savings`, `show_less`), or a prefix ending in `*` (`card:*`)
---@field component? string the component's name
---@field kind? string the component's kind (`wallet_card_stack`)
---@field rule? string the rule that found it (`hidden_hittable`, `does_nothing`, ...)
---@field reason? string why it is allowed (not read)

---@class stackplay.audit_options
---@field types? stackplay.audit_type[] default: every applicable type
---@field allow? stackplay.audit_allowance[]

--- One accessibility issue.
---@class stackplay.audit_issue
---@field type stackplay.audit_type
---@field rule string which check found it: `too_small`, `covered`, `no_element`, `hidden_hittable`, `activation_off_screen`, `activation_misses`, `empty_label`, `raw_id_label`, `duplicate_label`, `missing_hint`, `pushed_off_screen`, `overflows_component`, `not_a_button`, `not_selected`, `does_nothing`
---@field component string
---@field kind string
---@field element string the element's id or a part's name
---@field frame stackplay.rect
---@field compact string one line
---@field detail string what the rule checks, what it found, what to do
---@field time number the screen's time

---@class stackplaylib
---@field version string stackplay's version, "0.1.0"
stackplay = {}

--- A value as Lua source, as failure reports show it: strings quoted, tables with sorted keys,
--- cycles named, `{...}` past 20 levels. `stackplay.show { "a", 1 }` is `{ "a", 1 }`.
---@param value any
---@return string
function stackplay.show(value) end

--- A new screen with its own clock at t = 0.
---@param options? stackplay.screen_options
---@return stackplay.screen
function stackplay.screen(options) end

---@class stackplay.replay_options
---@field events? integer     replay only the first N events (default: all of them)
---@field tolerance? number   how far a recorded number may be from the replayed one (default 1e-9)
---@field check? boolean      compare every recorded frame (default true)

--- Rebuilds the screen a trace recorded (`stackplay --trace DIR`), feeds it the recorded inputs
--- and checks each recorded frame; raises at the first difference. Returns the screen and its
--- components by name, to assert on.
---@param path string         a `.jsonl` trace, relative to the scripts' folder (in the Lua module: the working folder)
---@param options? stackplay.replay_options
---@return stackplay.screen screen
---@return table<string, stackplay.notification_stack|stackplay.wallet_card_stack|stackplay.sticky_stacked_cards> components
function stackplay.replay(path, options) end

--- A value as Lua source, as failure reports show it: strings quoted, table keys sorted, numbers
--- in their shortest round-trip form (`{ "a", b = 0.1 }`).
---@param value any
---@return string
function stackplay.show(value) end

---@class stackplay.screen
local screen = {}

--- Moves the clock on by `seconds` (>= 0); animations advance with it.
---@param seconds number
function screen:advance(seconds) end
--- Runs the clock until every animation rests; fails if that takes more than `limit` s (default 10).
---@param limit? number
---@return number waited seconds
function screen:settle(limit) end
---@return number now seconds since the screen was made
function screen:now() end
---@param on boolean
function screen:set_reduce_motion(on) end
---@return boolean on the new setting
function screen:toggle_reduce_motion() end
---@param direction stackplay.layout_direction
function screen:set_layout_direction(direction) end
---@param size stackplay.dynamic_type
function screen:set_dynamic_type(size) end
---@param size stackplay.size_options
function screen:set_size(size) end
---@return stackplay.settings
function screen:settings() end
--- Whether the screen is mirrored (`--mirror`, `stackplay.screen { mirror = true }`). A test that
--- asks knows its world: `--mirror` then checks it by its own expectations alone.
---@return boolean
function screen:mirrored() end
--- A tap at a point: `screen:tap(x, y [, options])` or `screen:tap({ x =, y = } [, options])`.
---@param x number|stackplay.point
---@param y? number|stackplay.tap_options
---@param options? stackplay.tap_options
---@return stackplay.hit?
function screen:tap(x, y, options) end
--- A finger goes down; returns its id for touch_move and touch_up.
---@param x number|stackplay.point
---@param y? number
---@return integer finger
---@return stackplay.hit? hit
function screen:touch_down(x, y) end
---@param finger integer
---@param x number|stackplay.point
---@param y? number
function screen:touch_move(finger, x, y) end
---@param finger integer
function screen:touch_up(finger) end
--- A drag from a point by a translation: `screen:drag(x, y, { x = -120 } [, options])`.
---@param x number|stackplay.point
---@param y number|stackplay.translation
---@param by? stackplay.translation|stackplay.gesture_options
---@param options? stackplay.gesture_options
---@return stackplay.hit?
function screen:drag(x, y, by, options) end
---@param x number|stackplay.point
---@param y? number
---@return stackplay.hit?
function screen:hit_test(x, y) end
--- The Escape gesture, sent to the top-most component with something to dismiss.
---@return boolean handled
function screen:escape() end
---@return stackplay.element[]
function screen:accessibility() end
---@return stackplay.snapshot
function screen:snapshot() end
--- The screen as the failure report prints it.
---@return string
function screen:dump() end
--- The accessibility audit of the screen as it is now (XCUITest's audit types, headless): every
--- issue, component after component. `hit_region`, `element_detection` and `dynamic_type` judge a screen at rest.
---@param options? stackplay.audit_options
---@return stackplay.audit_issue[]
function screen:audit(options) end
--- What a recorded screen (`record = true`, or any screen under --trace) has received so far, as
--- a JSON Lines trace (docs/traces.md).
---@return string
function screen:trace() end
--- The component called `name` on the screen, as its kind's object: how a scenario that
--- `stackplay explore` wrote reaches a component (`screen:component("wallet"):select("amex")`).
---@param name string
---@return stackplay.component
function screen:component(name) end
---@param options stackplay.notification_stack_options
---@return stackplay.notification_stack
function screen:notification_stack(options) end
---@param options stackplay.wallet_card_stack_options
---@return stackplay.wallet_card_stack
function screen:wallet_card_stack(options) end
---@param options stackplay.sticky_stacked_cards_options
---@return stackplay.sticky_stacked_cards
function screen:sticky_stacked_cards(options) end

--- What every component has.
---@class stackplay.component
local component = {}

---@return string
function component:name() end
---@return "notification_stack"|"wallet_card_stack"|"sticky_stacked_cards"
function component:kind() end
--- Taps a card by id, a control by title ("Show less"), or (no target) the component itself.
--- A card is tapped at the centre of the largest part of it a touch reaches; one that no touch
--- reaches raises ("card 'a' of wallet_card_stack 'wallet' cannot be touched: card 'c' covers it
--- at (195, 100)"), unless `force`.
---@param target? string
---@param options? stackplay.card_tap_options
---@return stackplay.hit?
function component:tap(target, options) end
--- Drags card `id` by a translation in screen points, from where a touch reaches it (as `tap`).
---@param id string
---@param by stackplay.translation
---@param options? stackplay.card_gesture_options
---@return stackplay.hit?
function component:drag(id, by, options) end
--- The point a tap on `target` lands at (for a card, where `tap` aims: the centre of the largest
--- part a touch reaches; for a card no touch reaches, the middle of the part that shows).
---@param target? string
---@return number x
---@return number y
function component:point(target) end
--- The cards' ids in order; an id given as an integer comes back as one.
---@return (string|integer)[]
function component:ids() end
---@return integer
function component:count() end
---@return table<string, any>
function component:state() end
---@param id string
---@return stackplay.card
function component:card(id) end
---@return stackplay.card[]
function component:cards() end
---The cards on their way out (removed inside an animated change), with their fading opacity; never hittable
---@return stackplay.card[]
function component:leaving() end
---@return stackplay.rect
function component:frame() end
---@param name string "header", "Show less" (or "show_less"): notification stack; "detail": wallet. Another name raises.
---@return stackplay.part?
function component:part(name) end
---@return stackplay.element[]
function component:accessibility() end
--- Performs VoiceOver's action `action` ("Clear") on an element: a card id, or "stack" by default.
---@param action string
---@param element? string
---@return boolean
function component:action(action, element) end
--- VoiceOver's double tap on an element (a card id, or "stack" by default).
---@param element? string
---@return boolean
function component:activate(element) end
---@return boolean handled
function component:escape() end

---@class stackplay.notification_stack: stackplay.component
local notification_stack = {}
---@return boolean
function notification_stack:expanded() end
---@return boolean
function notification_stack:open() end
---@return number? progress 0 closed, 1 open (N1)
function notification_stack:progress() end
---@return (string|integer)[] ids of the cards swiped away, in order
function notification_stack:dismissed() end
---@param expanded boolean
function notification_stack:set_expanded(expanded) end
---@param options stackplay.set_items_options
function notification_stack:set_items(options) end

---@class stackplay.wallet_card_stack: stackplay.component
local wallet_card_stack = {}
---@return (string|integer)? selection the selected card's id, as the items gave it
function wallet_card_stack:selection() end
--- Selects card `id` (it must exist), or clears the selection with nil.
---@param id string?
function wallet_card_stack:select(id) end
---@return number step between card tops (W1)
function wallet_card_stack:step() end
---@return number peek scaled by Dynamic Type (W12)
function wallet_card_stack:peek() end
---@param height number >= 0
function wallet_card_stack:set_height(height) end
--- The owner replaces the cards (W3: every card is the wallet's `card_height` high).
---@param options stackplay.set_items_options
function wallet_card_stack:set_items(options) end

---@class stackplay.sticky_stacked_cards: stackplay.component
local sticky_stacked_cards = {}
---@return number
function sticky_stacked_cards:scroll_offset() end
---@return number
function sticky_stacked_cards:max_offset() end
---@return number
function sticky_stacked_cards:content_height() end
---@param offset number
function sticky_stacked_cards:scroll_to(offset) end
--- A finger drag on the scroll view that scrolls the content down by `dy`. Returns how far
--- the content moved: 0 when `|dy|` is under 10 pt (a scroll view pans only once the finger
--- has moved 10 pt), less than `dy` where the offset stops at 0 or `max_offset()`.
---@param dy number
---@param options? stackplay.gesture_options
---@return number moved the scroll offset after minus before
function sticky_stacked_cards:scroll(dy, options) end

-- The test prelude -------------------------------------------------------------------------

---@class stackplay.test_options
---@field tags? string[] words without spaces or commas, for --tag and --exclude-tag

--- A named test; each runs from a fresh start. `test(name, { tags = { "rtl" } }, fn)` tags it.
---@param name string not empty
---@param options_or_fn stackplay.test_options|fun()
---@param fn? fun()
function test(name, options_or_fn, fn) end
--- A test that is listed but not run.
---@param name string
---@param options_or_fn stackplay.test_options|fun()
---@param fn? fun()
function skip(name, options_or_fn, fn) end
--- When any test of a file is `only`, the others are skipped.
---@param name string
---@param options_or_fn stackplay.test_options|fun()
---@param fn? fun()
function only(name, options_or_fn, fn) end
--- Runs before every test of the file.
---@param fn fun()
function before_each(fn) end
--- Runs after every test of the file, also after a failure.
---@param fn fun()
function after_each(fn) end

---@class stackplay.expectation
local expectation = {}
--- Deep equality; tables are compared key by key and shown as a diff.
---@param expected any
---@return stackplay.expectation
function expectation:to_equal(expected) end
--- Numbers (or tables of numbers) within `tolerance` (default 1e-9).
---@param expected number|table
---@param tolerance? number
---@return stackplay.expectation
function expectation:to_be_near(expected, tolerance) end
---@return stackplay.expectation
function expectation:to_be_truthy() end
---@return stackplay.expectation
function expectation:to_be_falsy() end
--- The value is nil.
---@return stackplay.expectation
function expectation:to_be_nil() end
--- A number greater than `n`.
---@param n number
---@return stackplay.expectation
function expectation:to_be_greater_than(n) end
--- A number greater than or equal to `n`.
---@param n number
---@return stackplay.expectation
function expectation:to_be_greater_than_or_equal(n) end
--- A number less than `n`.
---@param n number
---@return stackplay.expectation
function expectation:to_be_less_than(n) end
--- A number less than or equal to `n`.
---@param n number
---@return stackplay.expectation
function expectation:to_be_less_than_or_equal(n) end
--- A number from `low` to `high`, both included.
---@param low number
---@param high number
---@return stackplay.expectation
function expectation:to_be_between(low, high) end
--- A string holding `item` as plain text, or a list holding an element equal to `item`.
---@param item any
---@return stackplay.expectation
function expectation:to_contain(item) end
--- A string of `n` bytes or a list of `n` elements.
---@param n integer
---@return stackplay.expectation
function expectation:to_have_length(n) end
--- `type(value) == name`.
---@param name "nil"|"boolean"|"number"|"string"|"table"|"function"|"thread"|"userdata"
---@return stackplay.expectation
function expectation:to_be_type(name) end
--- A string that matches the Lua pattern `pattern`.
---@param pattern string
---@return stackplay.expectation
function expectation:to_match(pattern) end
--- The recorded screen given to expect matches the golden trace at `path`: same inputs, same
--- frames. A missing golden trace, or any with --update, is written (and named on stderr).
---@param path string
---@return stackplay.expectation
function expectation:to_match_trace(path) end
--- The screen given to expect passes its accessibility audit (`screen:audit(options)`); a failure
--- lists every issue.
---@param options? stackplay.audit_options
---@return stackplay.expectation
function expectation:to_pass_audit(options) end
--- The function given to expect raises an error, containing `text` if given.
---@param text? string
---@return stackplay.expectation
function expectation:to_raise(text) end
--- Negates the next matcher.
---@return stackplay.expectation
function expectation:never() end
--- The same as never().
---@return stackplay.expectation
function expectation:to_not() end

--- An expectation about `actual`; `message`, when given, heads its failure.
---@param actual any
---@param message? string
---@return stackplay.expectation
function expect(actual, message) end

return stackplay

--- An exploration for `stackplay explore` (a plain run of the file does not run it): runs of
--- generated gestures from a fresh `setup()` each, every invariant checked after every step.
---@class stackplay.exploration
---@field setup fun(): stackplay.screen a fresh screen for every run (keep its components in upvalues)
---@field invariants? table<string, fun(screen: stackplay.screen): boolean?, string?> fails by returning false (and why) or raising
---@field actions? table<string, number|fun(screen: stackplay.screen, n: integer)|{ weight: number?, run: fun(screen: stackplay.screen, n: integer) }> weights of the default families (tap, drag, touch, advance, settle, escape, accessibility, settings, owner; 0 turns one off), and actions of the file's own, called with a drawn whole number
---@field builtins? boolean|table<string, boolean> false turns the built-in invariants off, or some of them: finite, opacity, unique_ids, settles, hittable_visible, accessibility, replay, lua_api, mirror

--- Declares an exploration: `stackplay explore FILE` generates runs against it and shrinks a failure.
---@param name string
---@param spec stackplay.exploration
function explore(name, spec) end
