-- Reduce Motion (G2): with it on, no spring runs and the new state shows at once. It can be
-- toggled at any moment, as the seeds' demos do; an animation already running finishes.
local lock = require "helpers.lock_screen"

test("G2 N7 with Reduce Motion the pile opens without moving: no frame in between", function()
  local screen, stack = lock.lock_screen { reduce_motion = true }
  stack:tap()
  expect(stack:progress()):to_equal(1)
  expect(screen:settle()):to_equal(0)
end)

test("G2 toggled on mid-animation: the running spring finishes, the next change is at once", function()
  local screen, stack = lock.lock_screen()
  stack:tap()
  screen:advance(0.1)
  local mid = stack:progress()
  expect(mid > 0 and mid < 1):to_be_truthy()
  expect(screen:toggle_reduce_motion()):to_be_truthy()
  screen:advance(0.05)
  expect(stack:progress() > mid):to_be_truthy()   -- still springing
  stack:tap("Show less")
  expect(stack:progress()):to_equal(0)            -- at once
  expect(stack:part("header")):to_equal(nil)
end)

test("G2 toggled off again: springs are back", function()
  local screen, stack = lock.lock_screen { reduce_motion = true }
  screen:set_reduce_motion(false)
  stack:tap()
  screen:advance(0.05)
  local p = stack:progress()
  expect(p > 0 and p < 1):to_be_truthy()
end)

test("G2 N13 with Reduce Motion a short swipe snaps back at once", function()
  local _, stack = lock.opened { reduce_motion = true }
  stack:drag("calendar", { x = -60 })
  expect(stack:card("calendar").x):to_equal(16)
end)

test("G2 W6 with Reduce Motion the wallet's cards change places without sliding", function()
  local screen = stackplay.screen { reduce_motion = true }
  local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, y = 0, height = 600 }
  wallet:tap("b")
  expect(wallet:card("b").y):to_equal(0)
  expect(wallet:card("a").y):to_equal(524)
  expect(screen:settle()):to_equal(0)
end)

test("S4 G2 with Reduce Motion the sticky cards pin without shrinking", function()
  local screen = stackplay.screen { reduce_motion = true }
  local cards = screen:sticky_stacked_cards { items = { "a", "b", "c" } }
  cards:scroll_to(cards:max_offset())
  for _, card in ipairs(cards:cards()) do expect(card.scale):to_equal(1) end
end)
