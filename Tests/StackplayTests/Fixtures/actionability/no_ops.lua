-- No silent no-ops (issue 24 item 5).
test("scroll returns how far the content moved", function()
  local cards = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b", "c", "d" } }
  local short = cards:scroll(8)                 -- under the scroll view's 10 pt pan threshold
  local moved = cards:scroll(300)
  print(("moved %g then %g"):format(short, moved))
  expect(short):to_equal(0)
  expect(moved):to_equal(300)
end)

test("hidden accessibility elements are listed with hidden = true", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "mail", "news" } } -- closed: one button
  for _, e in ipairs(stack:accessibility()) do print(e.id, e.hidden) end
  expect(stack:accessibility()[2].hidden):to_be_truthy()
end)

test("a pressed wallet card lets go when the finger leaves it", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b" }, y = 100, height = 600 }
  local x, y = wallet:point("b")
  local finger = screen:touch_down(x, y); screen:settle()
  print("down", wallet:card("b").scale)
  screen:touch_move(finger, x, y + 670); screen:settle()
  print("away", wallet:card("b").scale)
  screen:touch_up(finger); screen:settle()
  expect(wallet:selection()):to_be_nil()
end)

test("a card left mid-swipe when the stack closes keeps its offset", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "calendar" }, expanded = true, dismissible = true }
  screen:settle()
  local x, y = stack:point("calendar")
  local finger = screen:touch_down(x, y)
  screen:touch_move(finger, x - 60, y)
  stack:set_expanded(false)
  screen:touch_up(finger); screen:settle()
  stack:set_expanded(true); screen:settle()
  print("reopened at", stack:card("calendar").x)
  expect(stack:ids()):to_equal { "messages", "calendar" }
end)
