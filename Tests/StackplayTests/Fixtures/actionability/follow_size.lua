-- Components made without an explicit width or height follow screen:set_size (issue 24 item 5).
test("components without sizes follow set_size; given sizes stay", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b" }, name = "wallet" }
  local fixed = screen:wallet_card_stack { items = { "c" }, name = "fixed", width = 300, height = 400 }
  local stack = screen:notification_stack { items = { "m", "n" }, name = "stack", y = 500 }
  local sticky = screen:sticky_stacked_cards { items = { "s", "t" }, name = "sticky", x = 10, y = 20 }
  screen:set_size { width = 820, height = 1180 }
  print("wallet", wallet:frame().width, wallet:frame().height, "fixed", fixed:frame().width, fixed:frame().height)
  print("stack", stack:frame().width, "sticky", sticky:frame().width, sticky:frame().height)
end)

test("a wallet laid out again by set_size is tapped at its new centre", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b" } }
  screen:set_size { width = 820, height = 1180 }
  expect(wallet:card("b").width):to_equal(780)
  expect(wallet:tap("b").card):to_equal "b"
  screen:settle()
  expect(wallet:selection()):to_equal "b"
end)
