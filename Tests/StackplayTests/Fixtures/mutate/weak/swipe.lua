-- A deliberately weak suite (issue 25): it swipes 150 pt and checks only that the card left, so
-- a threshold moved either way, or made strict, goes unnoticed.
test("a swipe of 150 pt clears the card", function()
  local screen = stackplay.screen { width = 390, height = 844 }
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true, expanded = true,
    x = 16, y = 180, width = 358,
  }
  stack:drag("calendar", { x = -150 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
end)
