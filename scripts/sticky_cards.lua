-- StickyStackedCards (seed 003): cards in a vertical scroll view that pin near the top and shrink
-- as the next card scrolls over them. The demo: five cards 348 pt high, 20 apart, padded 12 on
-- top, 40 below and 20 on each side, pins from y 12 stepping 12 for the first three.
local PLANS = { "Design", "Build", "Test", "Ship", "Learn" }
local TRAVEL = 348 + 20      -- one card's height and the spacing

local function demo(options)
  options = options or {}
  local screen = stackplay.screen { reduce_motion = options.reduce_motion or false }
  -- The defaults are the demo's placement (R5): cards 350 wide at x 20 in a full-width scroll view.
  local cards = screen:sticky_stacked_cards { items = PLANS }
  return screen, cards
end

test("S6 the content is 1872 pt high and scrolls between 0 and 1028", function()
  local _, cards = demo()
  -- 12 + 5 * 348 + 4 * 20 + 40 = 1872; 1872 - 844 = 1028.
  expect(cards:content_height()):to_equal(1872)
  expect(cards:max_offset()):to_equal(1028)
  cards:scroll_to(5000)
  expect(cards:scroll_offset()):to_equal(1028)
  cards:scroll_to(-50)
  expect(cards:scroll_offset()):to_equal(0)
end)

test("S1 S2 at offset 0 every card sits where the column puts it, unpinned", function()
  local _, cards = demo()
  local ys, scales = {}, {}
  for i, card in ipairs(cards:cards()) do ys[i], scales[i] = card.y, card.scale end
  expect(ys):to_equal { 12, 380, 748, 1116, 1484 }
  expect(scales):to_equal { 1, 1, 1, 1, 1 }
end)

test("S1 S2 S3 after one card's travel the first is pinned at 12 and shrunk to 0.95", function()
  local _, cards = demo()
  cards:scroll_to(TRAVEL)
  local first, second = cards:card("Design"), cards:card("Build")
  expect(first.y):to_equal(12)                           -- pin offset 12 - (12 - 368) = 368
  expect(first.scale):to_be_near(0.95, 1e-12)            -- 1 - 368 / 368 * 0.05
  expect(first.width):to_be_near(350 * 0.95, 1e-9)       -- anchored at its top centre
  expect(first.x):to_be_near(20 + 350 * 0.025, 1e-9)
  expect(second.y):to_equal(24)                          -- its own pin, 12 lower
  expect(second.scale):to_be_near(1 - 12 / 368 * 0.05, 1e-12)
end)

test("S3 far past the end the scale stops at 4 cards of travel and never goes under 0.6", function()
  local _, cards = demo()
  cards:scroll_to(1028)
  for _, card in ipairs(cards:cards()) do
    expect(card.scale >= 0.6):to_be_truthy()
    expect(card.scale >= 1 - 4 * 0.05 - 1e-12):to_be_truthy()
  end
  -- Design: pinned 12 - (12 - 1028) = 1028 down: 1028 / 368 = 2.79 cards, scale 0.86.
  expect(cards:card("Design").scale):to_be_near(1 - 1028 / 368 * 0.05, 1e-12)
  local pins = {}
  for i, card in ipairs(cards:cards()) do pins[i] = card.y end
  -- Ship (1116 - 1028 = 88) has not reached its pin at 48 yet; Learn is 456 down.
  expect(pins):to_equal { 12, 24, 36, 1116 - 1028, 1484 - 1028 }
end)

test("S4 with Reduce Motion the cards still pin but do not shrink", function()
  local screen, cards = demo { reduce_motion = true }
  cards:scroll_to(1028)
  for _, card in ipairs(cards:cards()) do expect(card.scale):to_equal(1) end
  expect(cards:card("Design").y):to_equal(12)
  screen:set_reduce_motion(false)
  expect(cards:card("Design").scale < 1):to_be_truthy()  -- follows the setting at once
end)

test("S5 later cards are drawn over earlier ones", function()
  local screen, cards = demo()
  cards:scroll_to(TRAVEL)
  expect(cards:card("Build").z > cards:card("Design").z):to_be_truthy()
  -- Design pinned at 12, Build pinned at 24 over it: a touch at y 30 lands on Build.
  expect(screen:hit_test(195, 30).card):to_equal "Build"
end)

test("S6 a drag scrolls by its translation and stops at the end", function()
  local _, cards = demo()
  cards:scroll(300)                          -- finger up 300 pt
  expect(cards:scroll_offset()):to_equal(300)
  cards:scroll(5000)
  expect(cards:scroll_offset()):to_equal(1028)
  cards:scroll(-5000)
  expect(cards:scroll_offset()):to_equal(0)
  cards:scroll(5)                            -- under the pan's 10 pt: no scroll
  expect(cards:scroll_offset()):to_equal(0)
end)

test("S7 nothing animates: every value follows the offset at once", function()
  local screen, cards = demo()
  cards:scroll(400, { steps = 4, duration = 0.2 })
  expect(screen:settle()):to_equal(0)
  expect(cards:scroll_offset()):to_equal(400)
end)
