// The Lua side of the touch-move comparisons (main.swift) and of `--profile lua-moves`.

/// The Lua side of the comparison: `round()` makes the same open stack and moves a finger 1000 times.
let luaRound = """
    local function open_stack()
      local screen = stackplay.screen { width = 390, height = 844 }
      local stack = screen:notification_stack {
        items = { "messages", "calendar", "mail", "fitness" }, card_height = 70,
        expanded = true, dismissible = true, x = 16, y = 100, width = 358,
      }
      local x, y = stack:point("calendar")
      return screen, stack, screen:touch_down(x, y), x, y
    end

    function round()
      local screen, stack, finger, x, y = open_stack()
      local sink = 0
      for step = 1, 1000 do
        screen:touch_move(finger, x - step % 100, y)
        sink = sink + stack:card("calendar").x
      end
      screen:touch_up(finger)
      return sink
    end

    function drags()
      local screen, stack, finger = open_stack()
      screen:touch_up(finger)
      stack:drag("calendar", { x = -100 }, { steps = 1000 })
    end

    function moves()
      local screen, stack, finger, x, y = open_stack()
      for step = 1, 1000 do screen:touch_move(finger, x - step % 100, y) end
      screen:touch_up(finger)
    end
    """
