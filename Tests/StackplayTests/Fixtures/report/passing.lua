-- Fixture: two tests that pass, in a second file of the folder.
test("the wallet selects a tapped card", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "visa", "amex" } }
  wallet:tap("amex"); screen:settle()
  expect(wallet:selection()):to_equal("amex")
end)

test("the sticky cards scroll", function()
  local screen = stackplay.screen {}
  local sticky = screen:sticky_stacked_cards { items = { "a", "b", "c", "d" } }
  sticky:scroll(200); screen:settle()
  expect(sticky:scroll_offset()):to_equal(200)
end)
