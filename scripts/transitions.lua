-- Removal transitions (G8, N17): a notification the owner removes fades out where it was, with the
-- count spring(0.4, 0.15), while the others move up and the stack shrinks with the same spring.
local lock = require "helpers.lock_screen"

test("N17 G8 a cleared card fades out where it was, and is gone from ids and touches at once", function()
  local screen, stack = lock.opened()
  local before = stack:card("calendar")
  expect(stack:action("Clear", "calendar")):to_be_truthy()
  expect(stack:ids()):to_equal { "messages", "mail", "fitness" }
  local leaving = stack:leaving()
  expect(#leaving):to_equal(1)
  expect(leaving[1].id):to_equal "calendar"
  expect(leaving[1].opacity):to_equal(1)
  expect(leaving[1].hittable):to_be_falsy()
  -- A touch where it shows lands on what is under it, never on the card that left.
  local hit = screen:hit_test(before.x + before.width / 2, before.y + before.height / 2)
  expect(hit.card ~= "calendar"):to_be_truthy()
  screen:advance(0.1)
  leaving = stack:leaving()
  expect(leaving[1].opacity):to_be_near(1 - 0.5093799547329481, 1e-12)
  expect(leaving[1].y):to_equal(before.y)            -- it stays at its last frame
  expect(leaving[1].x):to_equal(before.x)
  screen:settle()
  expect(#stack:leaving()):to_equal(0)
end)

test("N17 the stack's height follows the count spring on a removal, as on opening", function()
  local screen, stack = lock.opened()
  expect(stack:frame().height):to_equal(364)          -- 44 + 10 of header, then 4 × 70 + 3 × 10
  stack:drag("calendar", { x = -150 })
  expect(stack:frame().height):to_equal(364)          -- where it was, then it moves
  screen:advance(0.1)
  expect(stack:frame().height):to_be_near(323.2496036213641, 1e-9)
  screen:settle()
  expect(stack:frame().height):to_equal(284)
end)

test("N17 a swiped card leaves from where the finger let it go, still faded", function()
  local screen, stack = lock.opened()
  stack:drag("calendar", { x = -150 })
  local leaving = stack:leaving()[1]
  expect(leaving.x < 16 - 110):to_be_truthy()
  expect(leaving.opacity < 1):to_be_truthy()
  local at_release = leaving.opacity
  screen:advance(0.1)
  expect(stack:leaving()[1].opacity):to_be_near(at_release * (1 - 0.5093799547329481), 1e-12)
end)

test("N17 an inserted card still fades in: 0.5093799547329481 at 0.1 s", function()
  local screen, stack = lock.opened()
  stack:set_items { items = { "messages", "calendar", "mail", "fitness", "news" }, card_height = 70 }
  screen:advance(0.1)
  expect(stack:card("news").opacity):to_be_near(0.5093799547329481, 1e-12)
  expect(#stack:leaving()):to_equal(0)
end)

test("N17 G2 with Reduce Motion the card and the height go at once", function()
  local screen, stack = lock.opened { reduce_motion = true }
  stack:action("Clear", "calendar")
  expect(#stack:leaving()):to_equal(0)
  expect(stack:frame().height):to_equal(284)
  expect(screen:snapshot().components[1].leaving):to_equal {}
end)

test("G8 the owner's set_items removal fades too; the snapshot lists the leaving card", function()
  local screen, stack = lock.opened()
  stack:set_items { items = { "messages", "mail" }, card_height = 70 }
  local leaving = screen:snapshot().components[1].leaving
  expect(#leaving):to_equal(2)
  expect(leaving[1].id):to_equal "calendar"
  expect(leaving[2].id):to_equal "fitness"
end)
