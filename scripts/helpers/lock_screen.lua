-- Shared set-up for the NotificationStack scenarios: the seed's demo, a lock screen with four
-- notifications 70 pt high, 16 pt from each side. Scenarios `require "helpers.lock_screen"`.
local M = {}

M.ITEMS = { "messages", "calendar", "mail", "fitness" }

--- A 390 × 844 screen with the demo's pile. `options` may set layout_direction, reduce_motion,
--- dynamic_type (for the screen) and expanded, dismissible (for the stack; dismissible by default).
function M.lock_screen(options)
  options = options or {}
  local screen = stackplay.screen {
    width = 390, height = 844,
    layout_direction = options.layout_direction or "ltr",
    reduce_motion = options.reduce_motion or false,
    dynamic_type = options.dynamic_type,
  }
  local dismissible = options.dismissible
  if dismissible == nil then dismissible = true end
  local stack = screen:notification_stack {
    items = M.ITEMS, card_height = 70, dismissible = dismissible,
    expanded = options.expanded or false, x = 16, y = 180, width = 358,
  }
  return screen, stack
end

--- The pile opened by a tap, with the clock run until it rests.
function M.opened(options)
  local screen, stack = M.lock_screen(options)
  stack:tap()
  screen:settle()
  return screen, stack
end

return M
