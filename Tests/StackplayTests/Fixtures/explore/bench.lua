-- The bench's exploration (`make bench`, Sources/stackplay-bench/ExploreBench.swift) and
-- ExploreTests' mirror case: a 4-card dismissible notification stack, one Lua invariant.
local stack
explore("bench", {
  setup = function()
    local screen = stackplay.screen {}
    stack = screen:notification_stack {
      items = { "messages", "calendar", "mail", "fitness" }, card_height = 70, dismissible = true,
    }
    return screen
  end,
  invariants = { ["count plus dismissed"] = function() return stack:count() + #stack:dismissed() == 4 end },
  actions = { owner = 0 },
})
