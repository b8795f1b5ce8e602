-- Written for left to right only, with hand-written left-to-right numbers and components placed
-- off centre: `stackplay --mirror` must pass every test here in the mirrored world too (R3).

local function notifications()
  local screen = stackplay.screen { layout_direction = "ltr" }
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true,
    x = 10, width = 300,
  }
  return screen, stack
end

test("N6 N8 a tap opens the pile; Show less sits at the right end of the header and closes it", function()
  local screen, stack = notifications()
  expect(stack:frame().x):to_equal(10)
  stack:tap(); screen:settle()
  expect(stack:open()):to_be_truthy()
  local button = stack:part("Show less")
  expect(button.x):to_equal(10 + 300 - 72)
  expect(stack:part("header").x):to_equal(10)
  local x = stack:point("Show less")
  expect(x):to_equal(10 + 300 - 36)
  expect(screen:hit_test(x, button.y + 10).target):to_equal("show_less")
  stack:tap("Show less"); screen:settle()
  expect(stack:expanded()):to_be_falsy()
end)

test("N10 N13 drags to the left past 110 pt clear a card, short of it and to the right spring back", function()
  local screen, stack = notifications()
  stack:tap(); screen:settle()
  stack:drag("calendar", { x = -100 }); screen:settle()
  expect(stack:card("calendar").x):to_equal(10)
  stack:drag("calendar", { x = 150 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
  -- Mid-swipe the card has moved left by the finger's translation.
  local x, y = stack:point("calendar")
  expect(x):to_equal(160)
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 60, y)
  expect(stack:card("calendar").x):to_equal(10 - 60)
  screen:touch_move(finger, x - 111, y)
  screen:touch_up(finger); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
  -- A raw drag on the screen, to the left past 110 pt.
  local mx, my = stack:point("mail")
  screen:drag(mx, my, { x = -130 }); screen:settle()
  expect(stack:ids()):to_equal { "messages" }
end)

test("N15 G6 VoiceOver reads the header, then each card, with activation points in the middle", function()
  local screen, stack = notifications()
  stack:tap(); screen:settle()
  local ids, xs = {}, {}
  for _, element in ipairs(stack:accessibility()) do
    ids[#ids + 1] = element.id
    xs[#xs + 1] = element.activation_point.x
  end
  expect(ids):to_equal { "title", "show_less", "card:messages", "card:calendar", "card:mail" }
  expect(xs[3]):to_equal(160)
  expect(screen:accessibility()[3].frame.x):to_equal(10)
  expect(stack:action("Clear", "calendar")):to_be_truthy()
  screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
end)

local function wallet()
  local screen = stackplay.screen { layout_direction = "ltr" }
  local w = screen:wallet_card_stack {
    items = { "visa", "amex", "mc" }, x = 20, width = 300, height = 600,
  }
  return screen, w
end

test("W4 W9 W10 a tap selects a card, Escape clears it; VoiceOver activates in the middle of what shows", function()
  local screen, w = wallet()
  expect(w:card("amex").x):to_equal(20)
  local points = {}
  for _, element in ipairs(w:accessibility()) do points[#points + 1] = element.activation_point.x end
  expect(points):to_equal { 170, 170, 170 }
  expect(screen:hit_test(25, w:card("mc").y + 10).card):to_equal("mc")
  expect(screen:hit_test(325, w:card("mc").y + 10)):to_be_nil()
  w:tap("amex"); screen:settle()
  expect(w:selection()):to_equal("amex")
  expect(w:accessibility()[1].id):to_equal("card:amex")
  expect(w:part("detail").x):to_equal(20)
  expect(screen:escape()):to_be_truthy(); screen:settle()
  expect(w:selection()):to_be_nil()
  expect(w:activate("mc")):to_be_truthy(); screen:settle()
  expect(w:selection()):to_equal("mc")
  w:tap("visa"); screen:settle()
  expect(w:selection()):to_be_nil()
end)

test("S2 S6 sticky cards scroll under the finger and pin, wherever they sit", function()
  local screen = stackplay.screen { layout_direction = "ltr" }
  local cards = screen:sticky_stacked_cards {
    items = { "Design", "Build", "Ship", "Learn" }, x = 0, width = 300, card_height = 348, inset_horizontal = 0,
  }
  expect(cards:frame().x):to_equal(0)
  cards:scroll(400); screen:settle()
  expect(cards:scroll_offset()):to_equal(400)
  expect(cards:card("Design").y):to_equal(12)
  expect(cards:card("Ship").x):to_equal(0)
  expect(screen:hit_test(5, 300).component):to_equal("sticky")
  expect(screen:hit_test(305, 300)):to_be_nil()
  local snapshot = screen:snapshot()
  expect(snapshot.components[1].cards[3].x):to_equal(0)
  expect(snapshot.settings.layout_direction):to_equal("ltr")
end)
