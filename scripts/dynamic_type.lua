-- Dynamic Type (W12): the wallet's peek grows with the headline text style, 17 pt at Large.
local function wallet(size, height)
  local screen = stackplay.screen { dynamic_type = size }
  local stack = screen:wallet_card_stack {
    items = { "everyday", "savings", "travel", "transit" }, y = 0, height = height or 2000,
  }
  return screen, stack
end

test("W12 W1 at Large the peek is 64", function()
  local _, stack = wallet("large")
  expect(stack:peek()):to_equal(64)
  expect(stack:step()):to_equal(64)
end)

test("W12 at AX5 the peek is 64 × 53 / 17 before tightening", function()
  local _, stack = wallet("AX5")
  expect(stack:peek()):to_equal(64 * 53 / 17)
  expect(stack:step()):to_equal(64 * 53 / 17)
end)

test("W12 W1 at AX5 in 600 pt the stack tightens to (600 - 200) / 3", function()
  local _, stack = wallet("AX5", 600)
  expect(stack:step()):to_equal(400 / 3)
end)

test("W12 every size scales the peek by its headline size over 17", function()
  local sizes = { xSmall = 14, small = 15, medium = 16, large = 17, xLarge = 19, xxLarge = 21,
    xxxLarge = 23, AX1 = 28, AX2 = 33, AX3 = 40, AX4 = 47, AX5 = 53 }
  for name, headline in pairs(sizes) do
    local _, stack = wallet(name)
    expect(stack:peek()):to_equal(64 * headline / 17)
  end
end)

test("W12 changing the text size mid-scenario re-lays the stack at once", function()
  local screen, stack = wallet("large")
  screen:set_dynamic_type("AX3")
  expect(stack:card("savings").y):to_equal(64 * 40 / 17)
  expect(screen:settle()):to_equal(0)
end)

test("W12 an unknown size is an error that names the argument", function()
  expect(function() stackplay.screen { dynamic_type = "AX6" } end):to_raise("field 'dynamic_type'")
  local screen = stackplay.screen {}
  expect(function() screen:set_dynamic_type("larg") end):to_raise("did you mean 'large'?")
end)

-- The notification header (N18): as tall as its title's line of .title3 bold, at least 44.
local lock = require "helpers.lock_screen"

test("N18 N8 at the default size the header is 44 high and the first card 54 below the top", function()
  local _, stack = lock.opened()
  expect(stack:part("header").height):to_equal(44)
  expect(stack:part("Show less").height):to_equal(44)
  expect(stack:card("messages").y):to_equal(180 + 54)
end)

test("N18 at AX5 the header is 65 high (title3's line) and every card moves down 21", function()
  local _, large = lock.opened()
  local _, ax5 = lock.opened { dynamic_type = "AX5" }
  expect(ax5:part("header").height):to_equal(65)
  local show_less = ax5:part("Show less")
  expect(show_less.height):to_equal(58)               -- subheadline's line at AX5
  expect(show_less.y + show_less.height / 2):to_equal(180 + 65 / 2)
  for _, id in ipairs { "messages", "calendar", "mail", "fitness" } do
    expect(ax5:card(id).y):to_equal(large:card(id).y + 21)
  end
  expect(ax5:frame().height):to_equal(large:frame().height + 21)
end)

test("N18 the header follows every size: 44 up to AX2, then 51, 58, 65", function()
  local expected = { large = 44, xxxLarge = 44, AX1 = 44, AX2 = 44, AX3 = 51, AX4 = 58, AX5 = 65 }
  for size, height in pairs(expected) do
    local screen, stack = lock.opened()
    screen:set_dynamic_type(size)
    expect(stack:part("header").height):to_equal(height)
    expect(stack:card("messages").y):to_equal(180 + height + 10)
  end
end)
