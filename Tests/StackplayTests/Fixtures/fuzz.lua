-- Random calls with random arguments on every API method: each either works or raises a Lua
-- error; none may crash the process (fixed seed, so a failure can be replayed).
local rnd = math.random
math.randomseed(7)
local values = { 0, 1, -1, 0.5, 1e9, -1e9, 0/0, 1/0, -1/0, "calendar", "mail", "a", "", "Show less", "stack",
  "card:messages", true, false, {}, { x = 10 }, { x = 0/0 }, { steps = 3 }, { steps = 0 }, { duration = 0.1 },
  { x = 5, y = 5 }, { items = { "a", "b" } }, { items = {} }, nil, 200, 45, 110.5, "ltr", "rtl", "AX5", "escape", "Clear", "activate" }
local function pick() return values[rnd(#values + 1)] end
local screen_methods = { "advance", "settle", "now", "set_reduce_motion", "toggle_reduce_motion", "set_layout_direction",
  "set_dynamic_type", "set_size", "settings", "tap", "touch_down", "touch_move", "touch_up", "drag", "hit_test", "escape",
  "accessibility", "snapshot", "dump" }
local comp_methods = { "tap", "drag", "point", "ids", "count", "state", "card", "cards", "frame", "part", "accessibility",
  "action", "activate", "escape", "name", "kind", "expanded", "open", "progress", "dismissed", "set_expanded", "set_items",
  "selection", "select", "step", "peek", "set_height", "scroll_offset", "max_offset", "content_height", "scroll_to", "scroll" }
local calls, errors = 0, 0
for round = 1, 40 do
  local screen = stackplay.screen { width = 390, height = 844, layout_direction = (rnd(2) == 1) and "ltr" or "rtl" }
  local comps = {
    screen:notification_stack { items = { "messages", "calendar", "mail", "fitness" }, dismissible = rnd(2) == 1, name = "n" },
    screen:wallet_card_stack { items = { "a", "b", "c" }, y = 100, height = 500, name = "w" },
    screen:sticky_stacked_cards { items = { "x", "y", "z" }, name = "s" },
  }
  for _ = 1, 200 do
    local ok, err
    if rnd(3) == 1 then
      local m = screen_methods[rnd(#screen_methods)]
      ok, err = pcall(screen[m], screen, pick(), pick(), pick(), pick())
    else
      local c = comps[rnd(#comps)]
      local m = comp_methods[rnd(#comp_methods)]
      -- A method another kind has raises "unknown method" when looked up.
      local has, f = pcall(function() return c[m] end)
      if has then ok, err = pcall(f, c, pick(), pick(), pick()) else ok = true end
    end
    calls = calls + 1
    if not ok then errors = errors + 1 end
  end
end
print(calls .. " calls, " .. errors .. " errors raised as Lua errors")
