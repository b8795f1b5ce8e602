-- Fixture: what every bad-argument case starts from; the case itself is the last line.
local screen = stackplay.screen { width = 390, height = 844 }
local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true, expanded = true }
local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, y = 400, height = 400 }
local sticky = stackplay.screen {}:sticky_stacked_cards { items = { "a", "b", "c" } }
