-- Hostile values at every entry point: stackplay.screen and its options, the three component
-- constructors and each of their options, every screen and component method, stackplay.replay
-- and its options. Each call either works or raises a Lua error; none may
-- trap, hang or crash the process (fixed seed, so a failure can be replayed).
local rnd = math.random
math.randomseed(11)

local deep = {}
for _ = 1, 150 do deep = { deep } end
local shallow = {}
for _ = 1, 40 do shallow = { shallow } end
local cyclic = {}
cyclic.self = cyclic
cyclic[1] = cyclic
local huge = string.rep("x", 1000000)
local hostile = {
  0 / 0, 1 / 0, -1 / 0, -0.0, 1e300, -1e300, 2 ^ 63, -2 ^ 63, 2 ^ 40, 2 ^ 53 + 1, math.maxinteger,
  math.mininteger, 1e-300, 0.5, -1, 0, 1,
  huge, "\xED\xA0\x80", "\xED\xB0\x80", "a\0b", "\xFF\xFE", "", "\\uD800\\u0041",
  true, false, {}, deep, shallow, cyclic, print, coroutine.create(function() end),
  { x = 0 / 0, y = 1e300 }, { x = 2 ^ 63 }, { steps = 2 ^ 63 }, { steps = 1e300 }, { steps = 0.5 },
  { duration = 1e300 }, { duration = 0 / 0 }, { events = 1e300 }, { events = 0.5 }, { events = -1 },
  { items = cyclic }, { items = deep }, { items = { 1e300 } }, { items = { { id = "a", height = 1e300 } } },
  { items = { huge } }, { width = cyclic }, { width = shallow }, { tolerance = 0 / 0 }, { check = cyclic },
}
local function pick()
  local i = rnd(#hostile + 1)
  return hostile[i]
end

local screen_options = { "width", "height", "layout_direction", "reduce_motion", "dynamic_type", "record" }
local constructors = {
  notification_stack = { "items", "expanded", "title", "spacing", "peek", "dismissible", "card_height", "x", "y",
    "width", "name" },
  wallet_card_stack = { "items", "selection", "card_height", "peek", "pile_height", "x", "y", "width", "height",
    "name" },
  sticky_stacked_cards = { "items", "spacing", "top", "peek", "max_peeking", "card_height", "x", "y", "width",
    "height", "inset_top", "inset_bottom", "scroll_offset", "name" },
}
local screen_methods = { "advance", "settle", "now", "set_reduce_motion", "toggle_reduce_motion",
  "set_layout_direction", "set_dynamic_type", "set_size", "settings", "tap", "touch_down", "touch_move", "touch_up",
  "drag", "hit_test", "escape", "accessibility", "snapshot", "dump", "trace" }
local comp_methods = { "tap", "drag", "point", "ids", "count", "state", "card", "cards", "frame", "part",
  "accessibility", "action", "activate", "escape", "name", "kind", "expanded", "open", "progress", "dismissed",
  "set_expanded", "set_items", "selection", "select", "step", "peek", "set_height", "scroll_offset", "max_offset",
  "content_height", "scroll_to", "scroll" }
local trace = "Tests/StackplayTests/Fixtures/traces/golden/"
  .. "tests-stackplaytests-fixtures-traces-session-lua--notifications-open-swipe-one-away.jsonl"

local calls, errors = 0, 0
local function try(f, ...)
  calls = calls + 1
  local ok = pcall(f, ...)
  if not ok then errors = errors + 1 end
end

-- Each option of each constructor, alone, with each hostile value.
for _, name in ipairs(screen_options) do
  for _, value in ipairs(hostile) do try(stackplay.screen, { [name] = value }) end
end
for kind, names in pairs(constructors) do
  local screen = stackplay.screen {}
  for _, name in ipairs(names) do
    for _, value in ipairs(hostile) do
      local options = { items = { "a", "b" } }
      options[name] = value
      try(screen[kind], screen, options)
    end
  end
  for _, value in ipairs(hostile) do try(screen[kind], screen, value) end
end
-- Replay and the runner's helpers.
for _, value in ipairs(hostile) do
  try(stackplay.replay, trace, value)
  try(stackplay.replay, value)
  try(stackplay.replay, trace, { events = value })
  try(stackplay.replay, trace, { tolerance = value })
  try(stackplay.screen, value)
end
-- Random methods with random hostile arguments.
for _ = 1, 10 do
  local screen = stackplay.screen { layout_direction = (rnd(2) == 1) and "ltr" or "rtl" }
  local comps = {
    screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true, name = "n" },
    screen:wallet_card_stack { items = { "a", "b", "c" }, y = 100, height = 500, name = "w" },
    screen:sticky_stacked_cards { items = { "x", "y", "z" }, name = "s" },
  }
  for _ = 1, 150 do
    if rnd(3) == 1 then
      local m = screen_methods[rnd(#screen_methods)]
      try(screen[m], screen, pick(), pick(), pick(), pick())
    else
      local c = comps[rnd(#comps)]
      -- a method another kind has is an unknown-method error here: look it up under pcall
      local found, f = pcall(function() return c[comp_methods[rnd(#comp_methods)]] end)
      if found and f then try(f, c, pick(), pick(), pick()) end
    end
  end
end
print(calls .. " hostile calls, " .. errors .. " errors raised as Lua errors")
