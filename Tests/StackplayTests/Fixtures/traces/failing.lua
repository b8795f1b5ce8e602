-- A scenario that fails after some frames, for --artifacts.
test("wallet: expects the wrong card on top", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
  wallet:tap("visa"); screen:settle()
  expect(wallet:selection()):to_equal("amex")
end)
