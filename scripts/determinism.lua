-- The same script with the same inputs gives the same outcome, every time (R2).
local lock = require "helpers.lock_screen"

local function session()
  local screen, stack = lock.lock_screen { layout_direction = "rtl" }
  stack:tap()
  screen:advance(0.123)
  local x, y = stack:point("mail")
  local finger = screen:touch_down(x, y)
  for step = 1, 7 do
    screen:advance(1 / 60)
    screen:touch_move(finger, x + step * 19, y + step)
  end
  screen:touch_up(finger)
  screen:advance(0.2)
  return screen:snapshot()
end

test("R2 two runs of the same gestures give identical frames, bit for bit", function()
  expect(session()):to_equal(session())
end)
