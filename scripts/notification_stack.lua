-- NotificationStack (seed 000): the lock-screen pile, opening, closing, swiping, the header, and
-- what the owner sees. Numbers are the seed's: cards 70 pt high, spacing 10, peek 10.
local lock = require "helpers.lock_screen"

test("N1 N2 N3 N4 N5 closed: three cards show, bottoms peek 10 pt apart, the ones behind smaller", function()
  local _, stack = lock.lock_screen()
  expect(stack:open()):to_be_falsy()
  expect(stack:progress()):to_equal(0)
  -- Closed tops: 0, 10, 20, 20 below y 180; the stack is 70 + 2 * 10 high.
  expect(stack:frame()):to_equal { x = 16, y = 180, width = 358, height = 90 }
  local calendar = stack:card("calendar")
  expect(calendar.scale):to_be_near(0.94, 1e-12)              -- N3: 1 - 0.06
  expect(calendar.y + calendar.height):to_be_near(260, 1e-9)  -- anchored at its bottom: 190 + 70
  expect(stack:card("mail").scale):to_be_near(0.88, 1e-12)
  expect(stack:card("fitness").scale):to_be_near(0.88, 1e-12) -- depth capped at 2
  local opacities, z = {}, {}
  for i, card in ipairs(stack:cards()) do opacities[i], z[i] = card.opacity, card.z end
  expect(opacities):to_equal { 1, 1, 1, 0 }                   -- N4
  expect(z):to_equal { 4, 3, 2, 1 }                           -- N5: the first card on top
end)

test("N1 fewer than two cards is open without being expanded", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "only" } }
  expect(stack:expanded()):to_be_falsy()
  expect(stack:open()):to_be_truthy()
  expect(stack:progress()):to_equal(1)
  expect(stack:part("header")):to_equal(nil)
end)

test("N6 N7 G1 a tap opens the pile, and progress passes strictly between 0 and 1", function()
  local screen, stack = lock.lock_screen()
  local hit = stack:tap()
  expect(hit.target):to_equal "stack"
  expect(stack:expanded()):to_be_truthy()
  expect(stack:progress()):to_equal(0)        -- G1: the clock has not moved yet
  local between = 0
  for _ = 1, 20 do
    screen:advance(0.02)
    local p = stack:progress()
    if p > 0 and p < 1 then between = between + 1 end
  end
  expect(between > 5):to_be_truthy()
  screen:settle()
  expect(stack:progress()):to_equal(1)
end)

test("N2 N8 open: a column 10 pt apart under a 44 pt header", function()
  local _, stack = lock.opened()
  local ys = {}
  for i, card in ipairs(stack:cards()) do ys[i] = card.y end
  -- Header 44 + spacing 10 above the cards, then tops 0, 80, 160, 240.
  expect(ys):to_equal { 234, 314, 394, 474 }
  expect(stack:part("header")):to_equal {
    name = "header", x = 16, y = 180, width = 358, height = 44, opacity = 1, hittable = true,
  }
  expect(stack:part("Show less").height >= 44):to_be_truthy()
end)

test("N6 closed, the cards ignore touches: a finger on the first card lands on the stack", function()
  local screen, stack = lock.lock_screen()
  local first = stack:card("messages")
  expect(first.hittable):to_be_falsy()
  expect(screen:hit_test(first.x + 10, first.y + 10).target):to_equal "stack"
end)

test("N8 'Show less' collapses the pile and the header fades away", function()
  local screen, stack = lock.opened()
  expect(stack:tap("Show less").target):to_equal "show_less"
  expect(stack:expanded()):to_be_falsy()
  screen:advance(0.05)
  local header = stack:part("header")
  expect(header.opacity > 0 and header.opacity < 1):to_be_truthy()
  expect(header.hittable):to_be_falsy()
  screen:settle()
  expect(stack:part("header")):to_equal(nil)
  expect(stack:progress()):to_equal(0)
end)

test("G3 an opening interrupted by 'Show less' keeps moving the same way for a moment", function()
  local screen, stack = lock.lock_screen()
  stack:tap()
  screen:advance(0.1)
  local before = stack:progress()
  stack:tap("Show less")
  expect(stack:progress()):to_equal(before)   -- starts from what is on screen
  screen:advance(0.005)
  expect(stack:progress() > before):to_be_truthy() -- and keeps its velocity
  screen:settle()
  expect(stack:progress()):to_equal(0)
end)

test("N9 a closed pile cannot be swiped, nor a stack without onDismiss", function()
  local screen, stack = lock.lock_screen()
  stack:drag("messages", { x = -200 }, { force = true }); screen:settle() -- closed: its cards take no touches
  expect(stack:ids()):to_equal(lock.ITEMS)
  local screen2, keep = lock.opened { dismissible = false }
  keep:drag("calendar", { x = -200 }); screen2:settle()
  expect(keep:ids()):to_equal(lock.ITEMS)
  expect(keep:card("calendar").x):to_equal(16)
end)

test("N10 G5 a drag of 19 pt changes nothing; past 20 pt the card follows the whole translation", function()
  local screen, stack = lock.opened()
  local before = stack:card("calendar")
  stack:drag("calendar", { x = -19 })
  expect(stack:card("calendar")):to_equal(before)
  local x, y = stack:point("calendar")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 30, y)
  expect(stack:card("calendar").x):to_equal(16 - 30)
  screen:touch_move(finger, x + 40, y)              -- never past 0 towards the trailing edge
  expect(stack:card("calendar").x):to_equal(16)
  screen:touch_up(finger)
end)

test("N12 a swiped card fades: 1 - min(|offset| / 275, 0.6)", function()
  local screen, stack = lock.opened()
  local x, y = stack:point("mail")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 55, y)
  expect(stack:card("mail").opacity):to_be_near(0.8, 1e-12)
  screen:touch_move(finger, x - 200, y)
  expect(stack:card("mail").opacity):to_be_near(0.4, 1e-12)
  screen:touch_up(finger)
end)

test("N13 a card let go short of 110 pt springs back past its place and settles", function()
  local screen, stack = lock.opened()
  stack:drag("calendar", { x = -100 })
  local passed = false
  for _ = 1, 60 do
    screen:advance(0.01)
    if stack:card("calendar").x > 16 then passed = true end
  end
  expect(passed):to_be_truthy()      -- spring(0.35, 0.25) overshoots
  screen:settle()
  expect(stack:card("calendar").x):to_equal(16)
end)

test("N14 after a dismissal the cards below move up with a spring", function()
  local screen, stack = lock.opened()
  local mail_before = stack:card("mail").y
  stack:drag("calendar", { x = -150 })
  expect(stack:dismissed()):to_equal { "calendar" }
  expect(stack:card("mail").y):to_equal(mail_before)   -- where it was, then it moves
  screen:advance(0.1)
  local mid = stack:card("mail").y
  expect(mid < mail_before and mid > mail_before - 90):to_be_truthy()
  screen:settle()
  expect(stack:card("mail").y):to_equal(mail_before - 80)
end)

test("N14 the owner can change the cards; one card left drops the header", function()
  local screen, stack = lock.opened()
  stack:set_items { items = { "mail" } }
  screen:settle()
  expect(stack:ids()):to_equal { "mail" }
  expect(stack:part("header")):to_equal(nil)
  expect(stack:card("mail").y):to_equal(180)
end)

test("N16 a card taller than the first shows over it while closed", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack {
    items = { { id = "short", height = 70 }, { id = "tall", height = 100 } }, y = 100,
  }
  expect(stack:card("tall").y < stack:card("short").y):to_be_truthy()
end)

test("G4 a touch lands on the top-most view under it, after offset", function()
  local screen, stack = lock.opened()
  expect(screen:hit_test(20, 240).card):to_equal "messages"
  expect(screen:hit_test(20, 306).target):to_equal "stack"    -- between two cards
  expect(screen:hit_test(20, 170)):to_equal(nil)              -- above the stack
  local x, y = stack:point("messages")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 100, y)
  expect(screen:hit_test(360, y).target):to_equal "stack"     -- the card moved out from under it
  screen:touch_up(finger)
end)

test("N6 G4 closed, a gesture by card id raises, since the cards take no touches; force aims anyway", function()
  local screen, stack = lock.lock_screen()
  expect(function() stack:drag("messages", { x = -200 }) end)
    :to_raise("card 'messages' of notification_stack 'notifications' cannot be touched: hit testing is off")
  expect(stack:tap("messages", { force = true }).target):to_equal "stack" -- the pile takes it and opens
  screen:settle()
  expect(stack:open()):to_be_truthy()
  expect(stack:tap("messages").card):to_equal "messages"
end)
