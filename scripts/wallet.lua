-- WalletCardStack (seed 004): a tapped card rises to the top with its details; the others wait
-- in a pile at the bottom; a tap or Escape closes it. Cards 200 pt high, peek 64, pile 76.
local CARDS = { "everyday", "savings", "travel", "transit" }

local function wallet(options)
  options = options or {}
  local screen = stackplay.screen {
    reduce_motion = options.reduce_motion or false, dynamic_type = options.dynamic_type,
  }
  local stack = screen:wallet_card_stack {
    items = options.items or CARDS, x = 20, y = 100, width = 350, height = options.height or 600,
    selection = options.selection, pile_height = options.pile_height,
  }
  return screen, stack
end

local function tops(stack)
  local ys = {}
  for i, card in ipairs(stack:cards()) do ys[i] = card.y - 100 end
  return ys
end

test("W1 W3 the stack takes its height; cards stand peek apart, later over earlier", function()
  local _, stack = wallet()
  expect(stack:step()):to_equal(64)
  expect(tops(stack)):to_equal { 0, 64, 128, 192 }
  for i, card in ipairs(stack:cards()) do
    expect(card.height):to_equal(200)
    expect(card.z):to_equal(i)
  end
  expect(stack:frame()):to_equal { x = 20, y = 100, width = 350, height = 600 }
end)

test("W1 six cards that do not fit tighten the step to (height - card) / 5", function()
  local _, stack = wallet { items = { "a", "b", "c", "d", "e", "f" }, height = 400 }
  expect(stack:step()):to_equal(40)
  expect(tops(stack)):to_equal { 0, 40, 80, 120, 160, 200 }
end)

test("W2 W4 a tap selects: the card goes to the top, the others gather in a pile 14 apart", function()
  local screen, stack = wallet()
  expect(stack:tap("travel").card):to_equal "travel"
  screen:settle()
  expect(stack:selection()):to_equal "travel"
  -- height - pileHeight = 524; others = 3, gap min(14, 76 / 3) = 14.
  expect(tops(stack)):to_equal { 524, 538, 0, 552 }
end)

test("W2 with seven cards the pile gap is pileHeight / others", function()
  local screen, stack = wallet { items = { "a", "b", "c", "d", "e", "f", "g" } }
  stack:select("d"); screen:settle()
  local gap = 76 / 6
  expect(tops(stack)):to_be_near(
    { 524, 524 + gap, 524 + 2 * gap, 0, 524 + 3 * gap, 524 + 4 * gap, 524 + 5 * gap }, 1e-9)
end)

test("W4 a tap on a pile card while one is open closes it, and does not switch", function()
  local screen, stack = wallet()
  stack:tap("travel"); screen:settle()
  stack:tap("savings"); screen:settle()
  expect(stack:selection()):to_equal(nil)
  expect(tops(stack)):to_equal { 0, 64, 128, 192 }
end)

test("W5 the details sit 16 pt under the open card, as high as what is left, and fade in", function()
  local screen, stack = wallet()
  expect(stack:part("detail")):to_equal(nil)
  stack:tap("transit")
  screen:advance(0.05)
  local fading = stack:part("detail")
  expect(fading.opacity > 0 and fading.opacity < 1):to_be_truthy()
  screen:settle()
  local detail = stack:part("detail")
  -- y = 100 + 200 + 16; height = max(600 - 200 - 76 - 32, 0) = 292.
  expect({ detail.x, detail.y, detail.width, detail.height, detail.opacity }):to_equal { 20, 316, 350, 292, 1 }
end)

test("W6 the selection spring overshoots: a card passes its target and comes back", function()
  local screen, stack = wallet()
  stack:tap("travel")
  local lowest = math.huge
  for _ = 1, 100 do
    screen:advance(0.01)
    lowest = math.min(lowest, stack:card("travel").y)
  end
  expect(lowest < 100):to_be_truthy()     -- past its target at y 100 (top 0)
  screen:settle()
  expect(stack:card("travel").y):to_equal(100)
end)

test("W7 a pressed card is drawn at 0.98 until the finger lifts", function()
  local screen, stack = wallet()
  local x, y = stack:point("savings")
  local finger = screen:touch_down(x, y)
  screen:advance(0.15)                   -- ease-out 0.15 s
  expect(stack:card("savings").scale):to_equal(0.98)
  screen:touch_up(finger)
  screen:settle()
  expect(stack:card("savings").scale):to_equal(1)
  expect(stack:selection()):to_equal "savings"
end)

test("W8 a pile cut below the bottom edge is not visible, yet still takes touches", function()
  local screen, stack = wallet { pile_height = 0 }
  stack:select("everyday"); screen:settle()
  local savings = stack:card("savings")
  expect(savings.y):to_equal(100 + 600)   -- height - pileHeight = 600: at the bottom edge
  expect(savings.visible):to_be_falsy()
  expect(savings.hittable):to_be_truthy()
  expect(screen:hit_test(savings.x + 10, savings.y + 10).card):to_equal "transit"
end)

test("W9 Escape clears the selection", function()
  local screen, stack = wallet()
  stack:tap("savings"); screen:settle()
  expect(stack:escape()):to_be_truthy()
  expect(stack:selection()):to_equal(nil)
  expect(screen:escape()):to_be_falsy()   -- nothing left to dismiss
end)

test("W11 a selection that names no card counts as none", function()
  local _, stack = wallet { selection = "nope" }
  expect(tops(stack)):to_equal { 0, 64, 128, 192 }
  expect(stack:part("detail")):to_equal(nil)
end)
