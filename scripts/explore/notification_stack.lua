-- Explorations of the notification stack: `stackplay explore scripts/explore/notification_stack.lua`.
-- A plain `stackplay scripts` run skips this file: it declares explorations and no tests.
local items = { "messages", "calendar", "mail", "fitness" }
local stack

explore("a notification stack never loses a card", {
  setup = function()
    local screen = stackplay.screen {}
    stack = screen:notification_stack { items = items, card_height = 70, dismissible = true }
    return screen
  end,
  invariants = {
    -- N4, N14: a card swiped away leaves the list for `dismissed`; none appears, none is lost.
    ["count plus dismissed is constant"] = function()
      local count, gone = stack:count(), #stack:dismissed()
      return count + gone == #items, count .. " cards + " .. gone .. " dismissed"
    end,
    ["a card is either shown or dismissed, never both"] = function()
      local shown = {}
      for _, id in ipairs(stack:ids()) do shown[id] = true end
      for _, id in ipairs(stack:dismissed()) do
        if shown[id] then return false, id .. " is both shown and dismissed" end
      end
    end,
    -- N1: progress runs from 0 (closed) to 1 (open); the spring may overshoot only while moving.
    ["progress is a number"] = function()
      local progress = stack:progress()
      return progress == progress, "progress is " .. tostring(progress)
    end,
  },
  actions = {
    owner = 0, -- set_items would change the count; the owner only opens and closes it here
    ["toggle expanded"] = function() stack:set_expanded(not stack:expanded()) end,
  },
})
