-- stackplay as a Lua library under busted: `busted --lua=lua5.4` with stackplay.so on the cpath
-- (`make test-lua-module` passes `--cpath=.build/lua/?.so`). busted's own describe/it/assert
-- drive the tests; stackplay only models the screen. In the library there is no sandbox, no
-- budget and no test()/expect(): those belong to the `stackplay` runner.
local stackplay = require "stackplay"

--- The seed's demo: a lock screen with four notifications 70 pt high, 16 pt from each side.
local ITEMS = { "messages", "calendar", "mail", "fitness" }

local function opened(direction)
  local screen = stackplay.screen { width = 390, height = 844, layout_direction = direction }
  local stack = screen:notification_stack {
    items = ITEMS, card_height = 70, dismissible = true, x = 16, y = 180, width = 358,
  }
  stack:tap(); screen:settle()
  return screen, stack
end

describe("stackplay as a library", function()
  it("is a module table, not a global", function()
    assert.is_table(stackplay)
    assert.is_nil(rawget(_G, "stackplay"))
    assert.is_string(stackplay.version)
    assert.is_function(stackplay.screen)
    assert.is_function(stackplay.replay)
    assert.are.equal('{ "a", 1 }', stackplay.show { "a", 1 })
  end)

  it("opens the pile with a tap (N1, N6)", function()
    local _, stack = opened("ltr")
    assert.is_true(stack:open())
    assert.are.equal(1, stack:progress())
  end)

  it("N11 R1 right to left: a swipe to the right past 110 pt clears the card", function()
    local screen, stack = opened("rtl")
    stack:drag("calendar", { x = 111 }); screen:settle()
    assert.are.same({ "messages", "mail", "fitness" }, stack:ids())
    assert.are.same({ "calendar" }, stack:dismissed())
  end)

  it("N13 R1 right to left: exactly 110 pt springs back", function()
    local screen, stack = opened("rtl")
    stack:drag("calendar", { x = 110 }); screen:settle()
    assert.are.same(ITEMS, stack:ids())
    assert.are.equal(16, stack:card("calendar").x)
  end)

  it("raises the runner's errors, worded like lauxlib's", function()
    local screen, stack = opened("ltr")
    assert.has_error(function() stack:drag("calendar", { x = 0 / 0 }) end,
      "bad argument #2 to 'drag' (field 'x': number must be finite, got nan)")
    assert.has_error(function() screen:notification_stack { spacng = 1 } end,
      "bad argument #1 to 'notification_stack' (unknown option 'spacng' (did you mean 'spacing'?))")
  end)
end)
