-- Explorations, for `stackplay explore`: the `explore(name, spec)` scripts call, and the
-- explorer's side of the runner (Sources/Bindings/LuaExploration.swift): each exploration's
-- setup, invariants and actions, run on the screen its setup made. It runs in the script's own
-- sandbox after the prelude (prelude.lua) and before the script; its arguments are the prelude's
-- table of Swift functions (`where`, `nearest`, `explored`: a screen handed to Swift) and what
-- the prelude shares (its runner table, the registry of tests and explorations, `is_failure` and
-- values.lua's table). It returns the runner table, which Swift keeps in the Lua registry.
local internal, shared = ...
local where, nearest, explored = internal.where, internal.nearest, internal.explored
local runner, registry, is_failure = shared.runner, shared.registry, shared.is_failure
local show, sorted_keys = shared.values.show, shared.values.sorted_keys
local type, ipairs, tostring, error, pcall, load = type, ipairs, tostring, error, pcall, load
local format, concat, find = string.format, table.concat, string.find
local huge = math.huge

-- Explorations --------------------------------------------------------------------------------

--- The families of default actions an exploration may weigh (`actions = { tap = 0 }`), and the
--- built-in invariants it may turn off (`builtins = { replay = false }`): Swift's lists, kept
--- equal by a test (ExploreTests).
local action_families = {
  "tap", "drag", "touch", "advance", "settle", "escape", "accessibility", "settings", "owner",
}
local builtin_names = {
  "finite", "opacity", "unique_ids", "settles", "hittable_visible", "accessibility", "replay", "lua_api",
  "mirror",
}
local spec_keys = { "setup", "invariants", "actions", "builtins" }

local function list_has(list, name)
  for _, v in ipairs(list) do if v == name then return true end end
  return false
end

--- An error in an exploration's spec, at the script's line of the `explore(...)` call.
local function spec_error(detail)
  local position = where()
  error((position and (position .. ": ") or "") .. "bad argument #2 to 'explore' (" .. detail .. ")", 0)
end

local function unknown(kind, key, known)
  local near = type(key) == "string" and nearest(key, known)
  spec_error("unknown " .. kind .. " " .. show(key)
    .. (near and (" (did you mean '" .. near .. "'?)") or (" (known: " .. concat(known, ", ") .. ")")))
end

--- Reads an exploration's spec into what the runner needs: the invariants sorted by name, the
--- weights of the default families, the file's own actions (sorted by name) and the built-ins on.
local function read_spec(spec)
  if type(spec) ~= "table" then spec_error("table expected, got " .. type(spec)) end
  local k = next(spec)
  while k ~= nil do
    if not list_has(spec_keys, k) then unknown("field", k, spec_keys) end
    k = next(spec, k)
  end
  local setup = rawget(spec, "setup")
  if type(setup) ~= "function" then spec_error("field 'setup': function expected, got " .. type(setup)) end
  local entry = { setup = setup, invariants = {}, weights = {}, actions = {}, builtins = {} }
  local invariants = rawget(spec, "invariants")
  if invariants ~= nil and type(invariants) ~= "table" then
    spec_error("field 'invariants': table expected, got " .. type(invariants))
  end
  if invariants ~= nil and rawlen(invariants) > 0 then
    spec_error("field 'invariants': give each a name: { [\"name\"] = function(screen) ... end }")
  end
  for _, name in ipairs(sorted_keys(invariants or {})) do
    local fn = rawget(invariants, name)
    if type(name) ~= "string" or type(fn) ~= "function" then
      spec_error("field 'invariants': each is [name] = function(screen), got " .. show(name) .. " = " .. type(fn))
    end
    entry.invariants[#entry.invariants + 1] = { name = name, fn = fn }
  end
  local actions = rawget(spec, "actions")
  if actions ~= nil and type(actions) ~= "table" then
    spec_error("field 'actions': table expected, got " .. type(actions))
  end
  for _, name in ipairs(sorted_keys(actions or {})) do
    local value = rawget(actions, name)
    if type(name) ~= "string" then spec_error("field 'actions': names must be strings, got " .. show(name)) end
    if list_has(action_families, name) then
      if type(value) ~= "number" or value ~= value or value < 0 or value == huge then
        spec_error("field 'actions': the weight of '" .. name .. "' must be a number >= 0, got " .. show(value))
      end
      entry.weights[name] = value
    elseif type(value) == "function" then
      entry.actions[#entry.actions + 1] = { name = name, weight = 1, fn = value }
    elseif type(value) == "table" and type(rawget(value, "run")) == "function" then
      local weight = rawget(value, "weight") or 1
      if type(weight) ~= "number" or weight ~= weight or weight < 0 or weight == huge then
        spec_error("field 'actions': the weight of '" .. name .. "' must be a number >= 0, got " .. show(weight))
      end
      entry.actions[#entry.actions + 1] = { name = name, weight = weight, fn = rawget(value, "run") }
    else
      spec_error("field 'actions': '" .. name .. "' is neither a default action (" .. concat(action_families, ", ")
        .. ") with a weight, nor a function(screen, n), nor { weight =, run = function(screen, n) }")
    end
  end
  local builtins = rawget(spec, "builtins")
  for _, name in ipairs(builtin_names) do entry.builtins[name] = builtins ~= false end
  if type(builtins) == "table" then
    for _, name in ipairs(sorted_keys(builtins)) do
      if not list_has(builtin_names, name) then unknown("built-in invariant", name, builtin_names) end
      local on = rawget(builtins, name)
      if type(on) ~= "boolean" then
        spec_error("field 'builtins': '" .. name .. "' must be true or false, got " .. show(on))
      end
      entry.builtins[name] = on
    end
  elseif builtins ~= nil and builtins ~= false and builtins ~= true then
    spec_error("field 'builtins': table or boolean expected, got " .. type(builtins))
  end
  return entry
end

--- Lua: `explore(name, { setup = fn, invariants = { [name] = fn(screen) }, actions = {...},
--- builtins = {...} })`: declares an exploration for `stackplay explore`. A plain run of the
--- file does not run it; the list lives in the runner's registry, out of the script's reach.
function _ENV.explore(name, spec)
  if type(name) ~= "string" or not find(name, "%S") then
    error(format("bad argument #1 to 'explore' (a name expected, got %s)", show(name)), 2)
  end
  for _, e in ipairs(registry.explorations) do
    if e.name == name then
      error(format("an exploration called %s is already declared at %s", show(name), e.position), 2)
    end
  end
  local entry = read_spec(spec)
  entry.name, entry.position = name, where()
  registry.explorations[#registry.explorations + 1] = entry
end

-- The explorer's side (Sources/Bindings/LuaExploration.swift) ---------------------------------

--- Each exploration: name, position, the weights it gives, its actions' names and weights, the
--- built-in invariants it turned off.
function runner.explorations()
  local list = {}
  for i, e in ipairs(registry.explorations) do
    local actions, off = {}, {}
    for j, a in ipairs(e.actions) do actions[j] = { name = a.name, weight = a.weight } end
    for _, name in ipairs(builtin_names) do if not e.builtins[name] then off[#off + 1] = name end end
    list[i] = { name = e.name, position = e.position, weights = e.weights, actions = actions, off = off }
  end
  return list
end

local current -- the screen the last setup made

--- A fresh screen from exploration `index`'s setup, handed to Swift.
function runner.explore_setup(index)
  current = registry.explorations[index].setup()
  explored(current)
end

local function message_of(err)
  if is_failure(err) then return rawget(err, "message") end
  if type(err) == "string" then return err end
  return show(err)
end

--- An invariant's reason as text: `tostring` of it, or, when its `__tostring` raises, yields or
--- returns no string, the value shown and what went wrong (the invariant is still the one named).
local function reason_text(why)
  local ok, text = pcall(tostring, why)
  if ok and type(text) == "string" then return text end
  local problem = ok and ("returned a " .. type(text)) or ("raised: " .. message_of(text))
  return show(why) .. " (the reason could not be turned into a string: its __tostring " .. problem .. ")"
end

--- The first of exploration `index`'s invariants that does not hold on the current screen:
--- its name and why, or nothing. An invariant fails by returning false (and a reason), or by
--- raising (an `expect` that does not hold, an error).
function runner.explore_check(index)
  local list = registry.explorations[index].invariants
  for i = 1, #list do
    local entry = list[i]
    local ok, holds, why = pcall(entry.fn, current)
    if not ok then return entry.name, message_of(holds) end
    if holds == false then return entry.name, why ~= nil and reason_text(why) or "it returned false" end
  end
end

--- A fresh screen from exploration `index`'s setup, then `code` (Lua the explorer wrote from a
--- run's steps) on it through the Lua API: the `lua_api` invariant compares the frames.
function runner.explore_lua(index, code)
  local e = registry.explorations[index]
  local chunk, problem = load(code, "=stackplay/explored steps", "t")
  if not chunk then error(problem, 0) end
  current = e.setup()
  explored(current)
  chunk(current, function(screen, name, n)
    for _, a in ipairs(e.actions) do
      if a.name == name then return a.fn(screen, n) end
    end
  end)
end

--- Runs exploration `index`'s action `name` with `n` on the current screen.
function runner.explore_action(index, name, n)
  for _, a in ipairs(registry.explorations[index].actions) do
    if a.name == name then return a.fn(current, n) end
  end
  error("no action '" .. name .. "'")
end

return runner
