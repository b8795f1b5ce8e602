-- Recorded sessions of each component, for the trace tests (--trace, --golden, replay, render).
test("wallet: open a card, escape, select, new height", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
  wallet:tap("visa"); screen:settle()
  screen:escape(); screen:advance(0.2)
  wallet:select("mc"); wallet:set_height(500); screen:settle()
  expect(wallet:selection()):to_equal("mc")
end)

test("notifications: open, swipe one away", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "a", "b", "c" }, dismissible = true, y = 100 }
  stack:tap(); screen:settle()
  stack:drag("b", { x = -150 }, { duration = 0.2 }); screen:settle()
  stack:set_expanded(false); screen:settle()
  expect(stack:ids()):to_equal { "a", "c" }
end)

test("sticky: scroll and pin", function()
  local screen = stackplay.screen {}
  local sticky = screen:sticky_stacked_cards { items = { "one", "two", "three", "four" } }
  sticky:scroll(400, { steps = 4 })
  sticky:scroll_to(120)
  expect(sticky:scroll_offset()):to_equal(120)
end)
