-- WalletCardStack cards are SwiftUI Buttons (W4, W7): a button fires when the finger comes up
-- inside the card, however far it moved and however long it stayed down. The tap limits
-- (<= 45 pt, <= 0.75 s) are the notification stack's and the sticky cards' tap recognizers; they
-- do not apply to wallet cards.
local function wallet()
  local screen = stackplay.screen {}
  local stack = screen:wallet_card_stack {
    items = { "everyday", "savings", "travel" }, x = 20, y = 100, width = 350, height = 600,
  }
  return screen, stack
end

test("W4 a 150 pt sideways drag that lifts inside the card selects it", function()
  local screen, stack = wallet()
  -- The last card's visible part is 350 pt wide: 150 pt to the side stays inside it.
  stack:drag("travel", { x = 150 }); screen:settle()
  expect(stack:selection()):to_equal "travel"
end)

test("W4 a drag that lifts outside the card does not fire it", function()
  local screen, stack = wallet()
  stack:drag("travel", { x = 400 }); screen:settle()
  expect(stack:selection()):to_be_nil()
end)

test("W4 a press held for 2 s still fires on lift", function()
  local screen, stack = wallet()
  stack:tap("savings", { duration = 2 }); screen:settle()
  expect(stack:selection()):to_equal "savings"
end)

test("W7 the card is pressed (scale 0.98) while the finger is on it, and lets go when it leaves", function()
  local screen, stack = wallet()
  local x, y = stack:point("travel")
  local finger = screen:touch_down(x, y); screen:settle(); expect(stack:card("travel").scale):to_equal(0.98)
  screen:touch_move(finger, x + 500, y); screen:settle()
  expect(stack:card("travel").scale):to_equal(1) -- outside: as UIControl's highlight (W7)
  screen:touch_up(finger); screen:settle()
  expect(stack:card("travel").scale):to_equal(1)
  expect(stack:selection()):to_be_nil()
end)
