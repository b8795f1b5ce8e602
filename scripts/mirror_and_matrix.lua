-- One suite, many worlds. Written once for left to right, these run as they are and also:
--
--   stackplay --mirror scripts/mirror_and_matrix.lua
--     each test again in a mirrored world ("name [mirrored]"): the other layout direction, every
--     x the test gives or reads mirrored across the screen's centre line; a frame that is not the
--     mirror image of the unmirrored run's fails (R1).
--   stackplay --matrix layout_direction=ltr,rtl --matrix dynamic_type=large,AX5 scripts/mirror_and_matrix.lua
--     each test under each combination of screen defaults ("name [rtl, AX5]"); a test's own
--     settings win.

test("N10 N13 R1 a swipe towards the leading edge past 110 pt clears the card, short of it springs back", function()
  local screen = stackplay.screen { layout_direction = "ltr" }
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true, expanded = true,
  }
  stack:drag("calendar", { x = -100 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
  expect(stack:card("calendar").x):to_equal(16)
  stack:drag("calendar", { x = -111 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
end)

test("W4 G1 a component's x is from the leading edge: the left in ltr, the right in rtl", function()
  -- No direction given: --matrix layout_direction=rtl makes this screen right to left.
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "visa", "amex" }, x = 10, width = 300, height = 600 }
  local rtl = screen:settings().layout_direction == "rtl"
  expect(wallet:frame().x):to_equal(rtl and 390 - 10 - 300 or 10)
  wallet:tap("amex"); screen:settle()
  expect(wallet:selection()):to_equal("amex")
  expect(wallet:card("amex").y):to_equal(0)
end)

test("R1 a test that must know its world asks screen:mirrored()", function()
  local screen = stackplay.screen { layout_direction = "ltr" }
  -- What the script reads is its own world either way; only the screen under it is the mirror.
  expect(screen:settings().layout_direction):to_equal("ltr")
  expect(screen:dump()):to_contain(screen:mirrored() and "rtl, " or "ltr, ")
end)
