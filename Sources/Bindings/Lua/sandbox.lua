-- The stackplay sandbox: runs first in every Lua state, before the API and the prelude.
--
-- It trims the standard libraries to what scripts may reach and makes everything they can reach
-- deterministic: the same script gives the same values on every run and every machine.
--   * `pairs` and `next` visit keys in one documented order (see `key_less`), not in the hash order
--     that Lua 5.4 seeds from the clock and from addresses.
--   * `math.random` is seeded from the run's seed (`--seed`); `math.randomseed()` without arguments
--     draws its seed from that sequence instead of from the clock.
--   * `os.time()` is a fixed epoch, `os.date` works in UTC, `os.clock()` is 0.
--   * `tostring`, `print` and `string.format("%s"/"%p")` name tables, functions, coroutines and
--     userdata by a number given in the order they were first shown, never by address.
--   * `print` writes to the test's captured output, never to the terminal.
--   * No `__gc` finalizers (Lua runs them with hooks off, outside the CPU budget); an `xpcall`
--     message handler does not run once the budget has stopped the script.
-- Its argument is a table of Swift functions: `locate` (require's file lookup), `write` (the
-- test's output), `stopped` (whether a budget has stopped the script), and the number `seed`.
local internal = ...
local locate, write, stopped, seed = internal.locate, internal.write, internal.stopped, internal.seed

local load, loadfile, error, select, type, os = load, loadfile, error, select, type, os
local rawget, rawequal, rawlen, raw_next, raw_pairs = rawget, rawequal, rawlen, next, pairs
local getmetatable = getmetatable
local raw_tostring, raw_xpcall, raw_setmetatable, pcall = tostring, xpcall, setmetatable, pcall
local raw_random, raw_randomseed, math_type, maxinteger = math.random, math.randomseed, math.type, math.maxinteger
local sort, concat, unpack = table.sort, table.concat, table.unpack
local raw_format, find, sub, match = string.format, string.find, string.sub, string.match
local ipairs = ipairs
local raw_date, floor = os.date, math.floor

-- Object names: "table: 1", "function: 2", ... in the order objects are first shown -----------

local object_ids = raw_setmetatable({}, { __mode = "k" })
local last_object_id = 0
local function object_id(v)
  local id = object_ids[v]
  if id == nil then
    last_object_id = last_object_id + 1
    id = last_object_id
    object_ids[v] = id
  end
  return id
end

local shown_types = { table = true, ["function"] = true, thread = true, userdata = true }

--- Lua: `tostring(v)`, with numbered names instead of addresses. A `__tostring` metamethod is used
--- as Lua uses it; `__name` (stackplay's own objects) names the kind.
local function det_tostring(v)
  if not shown_types[type(v)] then return raw_tostring(v) end
  local text = raw_tostring(v)
  -- Lua's own form is "<kind>: 0x<address>" (or "builtin: 0x...");  anything else came from
  -- __tostring and is kept as it is.
  local kind = match(text, "^(.-): 0x%x+$")
  if kind == nil then kind = match(text, "^(.-): %(nil%)$") end
  if kind == nil then return text end
  return kind .. ": " .. object_id(v)
end
_G.tostring = det_tostring

-- Key order: numbers ascending, then strings in byte order, then false and true, then other
-- values (tables, functions, ...) in the order they were first named.

local key_rank = { number = 1, string = 2, boolean = 3 }
local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    local ra, rb = key_rank[ta] or 4, key_rank[tb] or 4
    if ra ~= rb then return ra < rb end
    return ta < tb
  end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return (not a) and b end
  return object_id(a) < object_id(b)
end

-- For each table being traversed, its keys in order and each key's place.
local traversals = raw_setmetatable({}, { __mode = "k" })

local function start_traversal(t)
  local keys, n = {}, 0
  local k = raw_next(t)
  while k ~= nil do
    n = n + 1
    keys[n] = k
    k = raw_next(t, k)
  end
  sort(keys, key_less)
  local place = {}
  for i = 1, n do place[keys[i]] = i end
  local traversal = { keys = keys, place = place }
  traversals[t] = traversal
  return traversal
end

--- Lua: `next(t [, k])`: the key after `k` in the documented order, and its value.
local function det_next(t, k)
  if type(t) ~= "table" then
    error(raw_format("bad argument #1 to 'next' (table expected, got %s)", type(t)), 2)
  end
  local traversal, i
  if k == nil then
    traversal, i = start_traversal(t), 0
  else
    traversal = traversals[t]
    i = traversal and traversal.place[k]
    if i == nil then
      traversal = start_traversal(t)
      i = traversal.place[k]
      if i == nil then error("invalid key to 'next'", 2) end
    end
  end
  local keys = traversal.keys
  while true do
    i = i + 1
    local key = keys[i]
    if key == nil then
      traversals[t] = nil
      return nil
    end
    local value = rawget(t, key)
    if value ~= nil then return key, value end
  end
end
_G.next = det_next

--- Lua: `pairs(t)`: `__pairs` when the table has one, else `det_next` in the documented order.
_G.pairs = function(t)
  -- the common case first: a table without __pairs needs no protected call
  if type(t) == "table" and getmetatable(t) == nil then return det_next, t, nil end
  local ok, f, s, c = pcall(raw_pairs, t)
  if not ok then
    -- Lua's own message ("bad argument #1 to 'pairs' ..."), at the script's line
    error(f, match(f, "^[^\n]-:%d+:") and 0 or 2)
  end
  if rawequal(f, raw_next) then return det_next, t, nil end
  return f, s, c
end

-- Output ----------------------------------------------------------------------------------------

--- Lua: `print(...)`: into the test's captured output (the reporters show it with the test).
_G.print = function(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = det_tostring((select(i, ...))) end
  write(concat(parts, "\t") .. "\n")
end

--- Lua: `string.format`: as Lua's, but `%s` of a table, function, ... and `%p` use the numbered
--- names of `tostring`.
local function det_format(fmt, ...)
  if type(fmt) ~= "string" then return raw_format(fmt, ...) end
  local n = select("#", ...)
  -- the common case first: no object among the arguments and no %p, so Lua's own is exact
  if not find(fmt, "%p", 1, true) then
    local plain = true
    for i = 1, n do
      if shown_types[type((select(i, ...)))] then plain = false; break end
    end
    if plain then return raw_format(fmt, ...) end
  end
  local args = { ... }
  local changed, argument, position = false, 0, 1
  local pieces = {}
  while true do
    local start, stop, spec = find(fmt, "%%[-+ #0]*%d*%.?%d*(%a?)", position)
    if start == nil then break end
    if sub(fmt, start, start + 1) == "%%" then
      position = start + 2
    else
      argument = argument + 1
      if (spec == "s" and shown_types[type(args[argument])]) then
        args[argument] = det_tostring(args[argument])
        changed = true
      elseif spec == "p" then
        local v = args[argument]
        pieces[#pieces + 1] = { start, stop, argument }
        args[argument] = shown_types[type(v)] and (type(v) .. ": " .. object_id(v))
          or (type(v) == "string" and "string") or "(null)"
        changed = true
      end
      position = stop + 1
    end
  end
  if not changed then return raw_format(fmt, ...) end
  if #pieces > 0 then
    -- %p becomes %s of the name given above
    local out, from = {}, 1
    for _, piece in ipairs(pieces) do
      out[#out + 1] = sub(fmt, from, piece[1] - 1)
      out[#out + 1] = "%s"
      from = piece[2] + 1
    end
    out[#out + 1] = sub(fmt, from)
    fmt = concat(out)
  end
  return raw_format(fmt, unpack(args, 1, n))
end
string.format = det_format

-- Random numbers --------------------------------------------------------------------------------

raw_randomseed(seed)
math.randomseed = function(...)
  if select("#", ...) == 0 then
    -- Lua would take the clock; take the next number of the seeded sequence instead.
    local drawn = raw_random(0, maxinteger)
    raw_randomseed(drawn)
    return drawn, 0
  end
  return raw_randomseed(...)
end

-- Time: a fixed epoch, UTC -------------------------------------------------------------------

--- 2026-01-01T00:00:00Z: what `os.time()` returns, and the time `os.date()` shows by default.
local epoch = 1767225600

local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = (153 * mp + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end

local function field(t, key, default)
  local v = rawget(t, key)
  if v == nil then
    if default == nil then error(raw_format("field '%s' missing in date table", key), 3) end
    return default
  end
  if math_type(v) == "float" and v == floor(v) then v = floor(v) end
  if math_type(v) ~= "integer" then
    error(raw_format("field '%s' is not an integer", key), 3)
  end
  return v
end

--- Lua: `os.time([t])`: the fixed epoch, or the date table `t` read as UTC.
local function det_time(t)
  if t == nil then return epoch end
  if type(t) ~= "table" then
    error(raw_format("bad argument #1 to 'time' (table expected, got %s)", type(t)), 2)
  end
  local year, month = field(t, "year"), field(t, "month")
  local day = field(t, "day")
  local hour, min, sec = field(t, "hour", 12), field(t, "min", 0), field(t, "sec", 0)
  -- months outside 1..12 carry into the year, as mktime does
  year = year + (month - 1) // 12
  month = (month - 1) % 12 + 1
  return ((days_from_civil(year, month, 1) + day - 1) * 24 + hour) * 3600 + min * 60 + sec
end

--- Lua: `os.date([format [, time]])`: always UTC (a leading "!" changes nothing), at the fixed
--- epoch unless a time is given.
local function det_date(fmt, t)
  fmt = fmt == nil and "%c" or fmt
  if type(fmt) ~= "string" then
    error(raw_format("bad argument #1 to 'date' (string expected, got %s)", type(fmt)), 2)
  end
  if sub(fmt, 1, 1) ~= "!" then fmt = "!" .. fmt end
  return raw_date(fmt, t == nil and epoch or t)
end

_G.os = { time = det_time, date = det_date, clock = function() return 0.0 end }

-- Loading code -------------------------------------------------------------------------------

_G.dofile, _G.loadfile = nil, nil
_G.load = function(chunk, name, mode, ...)
  if select("#", ...) > 0 then return load(chunk, name, "t", (...)) end
  return load(chunk, name, "t")
end

local loaded = {}
_G.require = function(name)
  if type(name) ~= "string" then
    error(raw_format("bad argument #1 to 'require' (string expected, got %s)",
      name == nil and "no value" or type(name)), 2)
  end
  local value = loaded[name]
  if value ~= nil then return value end
  local path, message = locate(name)
  if not path then error(message, 2) end
  local chunk, problem = loadfile(path, "t")
  if not chunk then error(problem, 0) end
  value = chunk(name, path)
  if value == nil then value = true end
  loaded[name] = value
  return value
end

-- What runs outside the budgets --------------------------------------------------------------

--- Lua: `setmetatable(t, mt)`: refuses a metatable with `__gc`: Lua runs finalizers with hooks
--- off, where the CPU budget cannot stop them.
_G.setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("bad argument #2 to 'setmetatable' (stackplay does not run __gc finalizers: "
      .. "they would run outside the CPU budget)", 2)
  end
  return raw_setmetatable(t, mt)
end

--- Lua: `xpcall(f, handler, ...)`: the handler does not run for a budget stop (Lua runs it with
--- hooks off, where nothing could stop it); the stop goes on unwinding.
_G.xpcall = function(f, handler, ...)
  if type(handler) ~= "function" then return raw_xpcall(f, handler, ...) end
  return raw_xpcall(f, function(e)
    if stopped() then return e end
    return handler(e)
  end, ...)
end
