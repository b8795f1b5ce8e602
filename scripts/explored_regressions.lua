-- Regressions found by `stackplay explore scripts/explore` (README: Exploring), each shrunk to
-- its gestures and kept here as an ordinary scenario.

test("N2 G4 a card drawn at opacity 0 is not hit-tested: the fourth card as the pile opens", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail", "fitness" }, card_height = 70, dismissible = true,
  }
  stack:set_expanded(true)                  -- found as: set_expanded(true), then the frame at once
  local fitness = stack:card("fitness")
  expect(fitness.opacity):to_equal(0)       -- behind the pile's three, it fades in as the pile opens
  -- SwiftUI does not hit-test a view drawn at opacity 0.
  expect(fitness.hittable):to_be_falsy()
  screen:settle()
  expect(stack:card("fitness").hittable):to_be_truthy()
end)

test("N14 G4 a card the owner inserts is not hit-tested before it starts to fade in", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "mail" }, expanded = true, dismissible = true }
  screen:settle()
  stack:set_items { items = { "messages", "news", "mail" } }
  local news = stack:card("news")
  expect(news.opacity):to_equal(0)
  expect(news.hittable):to_be_falsy()
  expect((screen:hit_test(news.x + news.width / 2, news.y + news.height / 2) or {}).card):never():to_equal("news")
  screen:settle()
  expect(stack:card("news").hittable):to_be_truthy()
end)

test("W3 the owner replaces a wallet's cards from Lua, as the model and traces could already", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "everyday", "savings", "travel" }, selection = "savings" }
  screen:settle()
  wallet:set_items { items = { "everyday", "travel", "gift" } }   -- the selected card goes (W11)
  screen:settle()
  expect(wallet:ids()):to_equal { "everyday", "travel", "gift" }
  expect(wallet:card("gift").height):to_equal(200)
  expect(wallet:selection()):to_equal "savings"                    -- the owner's binding is kept ...
  expect(wallet:card("everyday").y):to_equal(0)                     -- ... and counts as none
end)
