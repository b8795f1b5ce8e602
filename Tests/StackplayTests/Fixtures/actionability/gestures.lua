-- Gestures by card id check that a touch reaches the card (issue 24 item 3).
test("a partly covered card is tapped where it shows", function()
  local screen = stackplay.screen {}
  local low = screen:wallet_card_stack { items = { "a" }, name = "low" }
  screen:notification_stack { items = { "m" }, x = 0, width = 200, card_height = 150 }
  expect(low:tap("a").card):to_equal "a"
end)

test("force taps the covered card's place, and the cover takes it", function()
  local wallet = stackplay.screen {}:wallet_card_stack { items = { "a", "b", "c" }, peek = 0 }
  expect(wallet:tap("a", { force = true }).card):to_equal "c"
end)

test("a covered card cannot be tapped", function()
  local wallet = stackplay.screen {}:wallet_card_stack { items = { "a", "b", "c" }, peek = 0 }
  wallet:tap("a")
end)
