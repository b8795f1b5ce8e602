-- What VoiceOver hears, and its actions as another way in to the same state (N15, W10, G6).
local lock = require "helpers.lock_screen"

local function ids(elements)
  local list = {}
  for _, element in ipairs(elements) do if not element.hidden then list[#list + 1] = element.id end end
  return list
end

test("N15 closed: one button for the whole stack, '4 notifications', 'Shows them all'", function()
  local _, stack = lock.lock_screen()
  local elements = stack:accessibility()
  expect(ids(elements)):to_equal { "stack" }; expect(elements[5].hidden):to_be_truthy() -- 4 cards, hidden
  expect(elements[1].value):to_equal "4 notifications"
  expect(elements[1].hint):to_equal "Shows them all"
  expect(elements[1].traits):to_equal { "button" }
end)

test("N15 open: the header, then each card with a Clear action", function()
  local _, stack = lock.opened()
  local elements = stack:accessibility()
  expect(ids(elements)):to_equal { "title", "show_less", "card:messages", "card:calendar", "card:mail", "card:fitness" }
  expect(elements[3].actions):to_equal { "Clear" }
end)

test("N15 G6 'Clear' dismisses only when a swipe could", function()
  local _, stack = lock.lock_screen()
  expect(stack:action("Clear", "mail")):to_be_falsy()        -- closed
  local _, keep = lock.opened { dismissible = false }
  expect(keep:action("Clear", "mail")):to_be_falsy()         -- no onDismiss
  local _, open = lock.opened()
  expect(open:action("Clear", "mail")):to_be_truthy()
  expect(open:ids()):to_equal { "messages", "calendar", "fitness" }
  expect(function() open:action("Archive", "messages") end):to_raise("no action 'Archive'")
end)

test("G6 activating the closed stack opens it, as a tap does", function()
  local voice_screen, voice = lock.lock_screen()
  local finger_screen, finger = lock.lock_screen()
  voice:activate("stack"); voice_screen:settle()
  finger:tap(); finger_screen:settle()
  expect(voice:cards()):to_equal(finger:cards())
  expect(voice:expanded()):to_be_truthy()
end)

test("G6 Clear and a swipe past 110 pt end in the same state", function()
  local voice_screen, voice = lock.opened()
  local finger_screen, finger = lock.opened()
  voice:action("Clear", "calendar"); voice_screen:settle()
  finger:drag("calendar", { x = -150 }); finger_screen:settle()
  expect(voice:cards()):to_equal(finger:cards())
  expect(voice:dismissed()):to_equal(finger:dismissed())
end)

test("W10 with none selected each card's activation point is the middle of what shows", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, y = 0, height = 600 }
  local points = {}
  for i, element in ipairs(wallet:accessibility()) do points[i] = element.activation_point.y end
  -- Step 64: the top 64 pt of a and b show (middle 32), all 200 pt of c (middle 100).
  expect(points):to_equal { 32, 64 + 32, 128 + 100 }
  expect(wallet:accessibility()[1].hint):to_equal "Shows its details"
end)

test("W10 selected: that card comes first, Selected, 'Returns to the stack'; the others are hidden", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, y = 0, height = 600 }
  wallet:tap("b"); screen:settle()
  local elements = wallet:accessibility()
  expect(ids(elements)):to_equal { "card:b" }; expect(elements[2].hidden):to_be_truthy() -- a and c
  expect(elements[1].id):to_equal "card:b"
  expect(elements[1].traits):to_equal { "button", "selected" }
  expect(elements[1].hint):to_equal "Returns to the stack"
end)

test("W9 G6 VoiceOver's escape and a tap both close the wallet", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "a", "b", "c" }, y = 0, height = 600 }
  wallet:activate("a"); screen:settle()
  expect(wallet:selection()):to_equal "a"
  expect(wallet:action("escape", "stack")):to_be_truthy()
  expect(wallet:selection()):to_equal(nil)
end)
