-- The components' defaults (R5): each sits as its seed's demo places it, by the demo's paddings.

test("R5 the notification stack sits 16 pt in from each side, as the demo pads it", function()
  local screen = stackplay.screen { width = 390, height = 844 }
  local stack = screen:notification_stack { items = { "messages", "calendar" } }
  expect(stack:frame().x):to_equal(16)
  expect(stack:frame().width):to_equal(358)
end)

test("R5 the wallet sits 20 pt in from each side, as the demo pads it", function()
  local screen = stackplay.screen { width = 390, height = 844 }
  local wallet = screen:wallet_card_stack { items = { "everyday", "savings" } }
  expect(wallet:card("everyday").x):to_equal(20)
  expect(wallet:card("everyday").width):to_equal(350)
end)

test("R5 S1 sticky cards are 350 wide at x 20, 12 below the top, in a scroll view as wide as the screen", function()
  local screen = stackplay.screen { width = 390, height = 844 }
  local sticky = screen:sticky_stacked_cards { items = { "Design", "Build", "Test" } }
  local design = sticky:card("Design")
  expect(design.x):to_equal(20)
  expect(design.width):to_equal(350)
  expect(design.y):to_equal(12)
  expect(sticky:frame()):to_equal { x = 0, y = 0, width = 390, height = 844 }
  -- The margin beside the cards is still the scroll view's: a finger there scrolls it.
  expect(screen:hit_test(10, 100).target):to_equal "scroll"
  expect(screen:hit_test(30, 100).card):to_equal "Design"
end)

test("R5 a right-to-left screen keeps the sticky cards' margins on both sides", function()
  local screen = stackplay.screen { width = 390, height = 844, layout_direction = "rtl" }
  local sticky = screen:sticky_stacked_cards { items = { "Design" }, inset_horizontal = 30 }
  expect(sticky:card("Design").x):to_equal(30)
  expect(sticky:card("Design").width):to_equal(330)
end)
