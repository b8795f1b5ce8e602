-- Fixture for the reporters: a test that passes, one that fails, one skipped, and a before_each
-- that gives every test a fresh screen.
local screen, stack

before_each(function()
  screen = stackplay.screen { width = 390, height = 844 }
  stack = screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true, x = 16, y = 180, width = 358,
  }
end)

test("a tap opens the pile", function()
  stack:tap(); screen:settle()
  expect(stack:expanded()):to_be_truthy()
end)

test("a wrong expectation fails", function()
  stack:tap(); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" } -- FAILS HERE
end)

skip("a test not written yet", function()
  error("a skipped test never runs")
end)
