-- The numbers and limits a careful suite checks exactly (issue 25: `stackplay mutate scripts`
-- kills every mutant not documented as equivalent). Each test pins one seed number, limit or
-- gate where a neighbouring value would show: springs sampled mid-flight, taps and drags either
-- side of their limits, pins and scales past the last peeking card and past the travel cap.
local lock = require "helpers.lock_screen"

local WALLET = { "everyday", "savings", "travel", "transit" }

--- Three notifications 70 pt high, open, as the lock screen lays them out: small frames, small traces.
local function open_stack()
  local screen = stackplay.screen { width = 390, height = 844 }
  return screen, screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true, expanded = true,
    x = 16, y = 180, width = 358,
  }
end

local function wallet()
  local screen = stackplay.screen {}
  return screen, screen:wallet_card_stack { items = WALLET, x = 20, y = 100, width = 350, height = 600 }
end

test("N7 the pile opens with spring(0.45, 0.2): its progress 0.1 s in", function()
  local screen, stack = lock.lock_screen()
  stack:tap(); screen:advance(0.1)
  expect(stack:progress()):to_be_near(0.45675720240307394, 1e-9)
end)

test("N13 a short swipe springs back with spring(0.35, 0.25): 0.1 s after letting go", function()
  local screen, stack = open_stack()
  stack:drag("calendar", { x = -60 }); screen:advance(0.1)
  expect(stack:card("calendar").x):to_be_near(-6.2550307269554324, 1e-9)
end)

test("N14 the cards below a dismissed one move up with spring(0.4, 0.15): 0.1 s in", function()
  local screen, stack = open_stack()
  stack:drag("calendar", { x = -150 }); screen:advance(0.1)
  expect(stack:card("mail").y):to_be_near(353.24960362136409, 1e-9)
end)

test("W6 a tapped card rises with spring(0.5, 0.2): 0.1 s in", function()
  local screen, stack = wallet()
  stack:tap("travel"); screen:advance(0.1)
  expect(stack:card("travel").y):to_be_near(176.89583770436326, 1e-9)
end)

test("W7 the press eases out over 0.15 s: a third of the way 0.05 s in", function()
  local screen, stack = wallet()
  local x, y = stack:point("travel")
  local finger = screen:touch_down(x, y); screen:advance(0.05)
  expect(stack:card("travel").scale):to_be_near(0.99023301994579949, 1e-9)
  screen:touch_up(finger)
end)

test("W10 the selected card sorts first: priority 1, the others 0", function()
  local screen, stack = wallet()
  expect(stack:accessibility()[1].sort_priority):to_equal(0)
  stack:tap("travel"); screen:settle()
  for _, element in ipairs(stack:accessibility()) do
    expect(element.sort_priority):to_equal(element.id == "card:travel" and 1 or 0)
  end
end)

--- A closed pile of two, a finger down on it, moved `dx` and held `hold` seconds.
local function press(dx, hold)
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "calendar" }, card_height = 70 }
  local x, y = stack:point("stack")
  local finger = screen:touch_down(x, y)
  if dx > 0 then screen:touch_move(finger, x + dx, y) end
  if hold > 0 then screen:advance(hold) end
  screen:touch_up(finger)
  return stack:open()
end

test("G5 a tap survives up to 45 pt of straying, exactly 45 included, and fails past it", function()
  expect(press(45, 0)):to_be_truthy()
  expect(press(50, 0)):to_be_falsy()
end)

test("G5 a tap lasts up to 0.75 s, exactly 0.75 included, and fails past it", function()
  expect(press(0, 0.75)):to_be_truthy()
  expect(press(0, 1)):to_be_falsy()
end)

test("N10 G5 the swipe starts at exactly 20 pt, and a 25 pt drag moves the card 25 pt", function()
  local screen, stack = open_stack()
  local x, y = stack:point("calendar")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 20, y)
  expect(stack:card("calendar").x):to_equal(16 - 20)
  local second = screen:touch_down(x, y + 80) -- on mail
  screen:touch_move(second, x - 25, y + 80)
  expect(stack:card("mail").x):to_equal(16 - 25)
end)

test("N1 N9 two cards not expanded are a closed pile, which cannot be swiped", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "calendar" }, dismissible = true }
  expect(stack:open()):to_be_falsy()
  expect(stack:state().swipeable):to_be_falsy()
end)

test("N15 the closed stack is labelled by its first card", function()
  local _, stack = lock.lock_screen()
  expect(stack:accessibility()[1].label):to_equal "messages"
end)

--- Seven cards 100 pt high in a 300 pt scroll view, scrolled to the end (572): the first five pinned.
local function pinned()
  local items = {}
  for i = 1, 7 do items[i] = { id = "c" .. i, label = "Card " .. i } end
  local screen = stackplay.screen {}
  local cards = screen:sticky_stacked_cards { items = items, card_height = 100, x = 20, width = 350, height = 300 }
  cards:scroll_to(cards:max_offset())
  return screen, cards
end

test("S1 S3 G6 only 3 cards pin lower, a card shrinks for 4 cards of travel at most, labels are read", function()
  local _, cards = pinned()
  expect(cards:max_offset()):to_equal(572)
  -- S1: the 4th and the 5th share the line 12 + 3 × 12
  expect(cards:card("c3").y):to_equal(36)
  expect(cards:card("c4").y):to_equal(48)
  expect(cards:card("c5").y):to_equal(48)
  -- S3: the first card has travelled 572 / 120 = 4.8 cards, and stays at 1 - 4 × 0.05
  expect(cards:card("c1").scale):to_be_near(0.8, 1e-12)
  -- G6: VoiceOver reads each card's label
  expect(cards:accessibility()[1].label):to_equal "Card 1"
end)

test("S6 the scroll view pans once the finger has moved 10 pt: a 15 pt drag scrolls 15", function()
  local screen = stackplay.screen {}
  local cards = screen:sticky_stacked_cards { items = { "a", "b", "c", "d" }, x = 20, width = 350 }
  local finger = screen:touch_down(195, 400)
  screen:touch_move(finger, 195, 385)
  expect(cards:scroll_offset()):to_equal(15)
  screen:touch_up(finger)
end)

test("S6 G4 nothing below the scroll view's visible rectangle takes a touch", function()
  local screen = stackplay.screen {}
  screen:sticky_stacked_cards { items = { "a", "b", "c" }, x = 20, width = 350, height = 400 }
  expect(screen:hit_test(195, 300).card):to_equal "a"
  expect(screen:hit_test(195, 500)):to_be_nil()
end)
