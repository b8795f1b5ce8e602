-- Swiping a notification away in a right-to-left layout, against the same swipes left to right.
-- In right-to-left the leading edge is on the right: a swipe to the right past 110 pt clears a
-- card, one to the left springs back (N10, N11, N13, R1).
local lock = require "helpers.lock_screen"

test("N11 R1 right to left: a swipe to the right past 110 pt clears the card", function()
  local screen, stack = lock.opened { layout_direction = "rtl" }
  stack:drag("calendar", { x = 111 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail", "fitness" }
  expect(stack:dismissed()):to_equal { "calendar" }
end)

test("N11 R1 right to left: the same swipe to the left springs back", function()
  local screen, stack = lock.opened { layout_direction = "rtl" }
  stack:drag("calendar", { x = -111 }); screen:settle()
  expect(stack:ids()):to_equal(lock.ITEMS)
  expect(stack:card("calendar").x):to_equal(16)
end)

test("N10 R1 left to right: a swipe to the left past 110 pt clears the card", function()
  local screen, stack = lock.opened { layout_direction = "ltr" }
  stack:drag("calendar", { x = -111 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail", "fitness" }
end)

test("N10 R1 left to right: the same swipe to the right springs back", function()
  local screen, stack = lock.opened { layout_direction = "ltr" }
  stack:drag("calendar", { x = 111 }); screen:settle()
  expect(stack:ids()):to_equal(lock.ITEMS)
end)

test("N11 right to left: the card follows the finger to the right on screen", function()
  local screen, stack = lock.opened { layout_direction = "rtl" }
  local x, y = stack:point("calendar")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x + 60, y)
  expect(stack:card("calendar").x):to_equal(16 + 60)
  -- N12: it fades as it goes, 1 - 60 / 275.
  expect(stack:card("calendar").opacity):to_be_near(1 - 60 / 275, 1e-12)
  screen:touch_up(finger)
  screen:settle()
  expect(stack:card("calendar").x):to_equal(16)
end)

test("N13 R1 exactly 110 pt springs back, 110.5 pt clears, in both directions", function()
  for _, case in ipairs { { "ltr", -1 }, { "rtl", 1 } } do
    local direction, sign = case[1], case[2]
    local screen, stack = lock.opened { layout_direction = direction }
    stack:drag("mail", { x = 110 * sign }); screen:settle()
    expect(stack:ids()):to_equal(lock.ITEMS)
    stack:drag("mail", { x = 110.5 * sign }); screen:settle()
    expect(stack:ids()):to_equal { "messages", "calendar", "fitness" }
  end
end)

test("R1 the mirrored swipes leave the same frames", function()
  local ltr_screen, ltr = lock.opened { layout_direction = "ltr" }
  local rtl_screen, rtl = lock.opened { layout_direction = "rtl" }
  ltr:drag("messages", { x = -150 }); ltr_screen:settle()
  rtl:drag("messages", { x = 150 }); rtl_screen:settle()
  expect(rtl:cards()):to_equal(ltr:cards())
end)
