-- The stackplay prelude: tests, expectations and the failure report. It runs in the script's own
-- sandbox after the API and before the script.
--
-- The runner's side of it (the list of tests, running one, reading its failure) is the table this
-- chunk returns, which Swift keeps in the Lua registry: nothing a script can reach or replace
-- decides a verdict. Every library function is taken here, before the script runs, and strings
-- are never used through methods (`s:find`), so a script that replaces `string.find` or
-- `setmetatable` changes nothing here. Its argument is a table of Swift functions: `where` (the
-- script's current `path:line`), `traceback(level)`, `dump()` (the screens as text) and
-- `golden(screen, path)` (`to_match_trace`).
local internal = ...
local where, traceback, golden = internal.where, internal.traceback, internal.golden
local api = stackplay
local registry = { tests = {}, before_each = {}, after_each = {} }
local type, ipairs, next, tostring, select, error = type, ipairs, next, tostring, select, error
local rawget, rawlen, getmetatable, setmetatable = rawget, rawlen, getmetatable, setmetatable
local xpcall, pcall, tonumber = xpcall, pcall, tonumber
local format, rep, concat, sort = string.format, string.rep, table.concat, table.sort
local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
local math_type, floor, abs, huge = math.type, math.floor, math.abs, math.huge

-- Showing values -----------------------------------------------------------------------------

local function show_number(n)
  if n ~= n then return "nan" end
  if n == huge then return "inf" end
  if n == -huge then return "-inf" end
  if math_type(n) == "integer" then return tostring(n) end
  if n == floor(n) and abs(n) < 1e15 then return format("%d", n) end
  local short = format("%.15g", n)
  if tonumber(short) == n then return short end
  return format("%.17g", n)
end

--- A stable order for table keys of mixed types: by type name, then by value.
local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

--- The keys of `t` that are not in its sequence part, sorted; read raw (no `__pairs`, `__index`).
local function sorted_keys(t)
  local keys, n = {}, rawlen(t)
  local k = next(t)
  while k ~= nil do
    if not (math_type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
    k = next(t, k)
  end
  sort(keys, key_order)
  return keys, n
end

local show
local function show_key(k)
  if type(k) == "string" and match(k, "^[%a_][%w_]*$") then return k end
  return "[" .. show(k) .. "]"
end

--- The deepest a value is shown; deeper tables show as `{...}`.
local show_depth = 20

--- A value as Lua source: strings quoted, tables with sorted keys, cycles named. Raw reads only.
function show(v, seen, depth)
  local t = type(v)
  if t == "string" then return format("%q", v) end
  if t == "number" then return show_number(v) end
  if t ~= "table" then return tostring(v) end
  seen, depth = seen or {}, depth or 0
  if seen[v] then return "<cycle>" end
  if depth >= show_depth then return "{...}" end
  seen[v] = true
  local parts = {}
  local keys, n = sorted_keys(v)
  for i = 1, n do parts[#parts + 1] = show(rawget(v, i), seen, depth + 1) end
  for _, k in ipairs(keys) do parts[#parts + 1] = show_key(k) .. " = " .. show(rawget(v, k), seen, depth + 1) end
  seen[v] = nil
  if #parts == 0 then return "{}" end
  return "{ " .. concat(parts, ", ") .. " }"
end
api.show = show

-- Comparing values ---------------------------------------------------------------------------

local function deep_equal(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then
    return type(a) == "number" and type(b) == "number" and a ~= a and b ~= b
  end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  local k, v = next(a)
  while k ~= nil do
    if not deep_equal(v, rawget(b, k), seen) then return false end
    k, v = next(a, k)
  end
  k = next(b)
  while k ~= nil do
    if rawget(a, k) == nil then return false end
    k = next(b, k)
  end
  return true
end

--- The lines of a diff between two tables: "- path: expected" and "+ path: actual".
local function diff(expected, actual, path, out)
  if deep_equal(expected, actual) then return out end
  if type(expected) == "table" and type(actual) == "table" then
    local union, seen = {}, {}
    for _, t in ipairs { expected, actual } do
      local k = next(t)
      while k ~= nil do
        if not seen[k] then seen[k] = true; union[#union + 1] = k end
        k = next(t, k)
      end
    end
    sort(union, key_order)
    for _, k in ipairs(union) do
      local sub = type(k) == "string" and match(k, "^[%a_][%w_]*$") and (path .. "." .. k)
        or (path .. "[" .. show(k) .. "]")
      diff(rawget(expected, k), rawget(actual, k), sub, out)
    end
    return out
  end
  local place = path == "" and "value" or gsub(path, "^%.", "")
  out[#out + 1] = "  - " .. place .. ": " .. show(expected)
  out[#out + 1] = "  + " .. place .. ": " .. show(actual)
  return out
end

-- Failing ------------------------------------------------------------------------------------

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return f.message end

--- Raises an assertion failure pointing at the line that called the expectation.
local function fail(message, expected, actual, lines)
  local position = where() or "?"
  local text = position .. ": " .. message
  if lines then text = text .. "\n" .. concat(lines, "\n") end
  error(setmetatable({
    message = text, position = position, expected = expected, actual = actual, assertion = true,
  }, Failure), 0)
end

local function check_arity(name, n, count)
  if n < count then error(format("bad argument #%d to '%s' (value expected)", count, name), 3) end
end

local Expectation = {}
Expectation.__index = Expectation

--- Lua: `expect(actual)`, then `:to_equal(expected)`, `:to_be_near(expected, tolerance)`,
--- `:to_be_truthy()`, `:to_be_falsy()`, `:to_raise([text])`, `:never()`.
function _ENV.expect(...)
  check_arity("expect", select("#", ...), 1)
  return setmetatable({ actual = (...), negated = false }, Expectation)
end

function Expectation:never()
  self.negated = not self.negated
  return self
end
Expectation.to_not = Expectation.never

local function outcome(self, passed, message, expected, lines)
  if passed == self.negated then
    if self.negated then message = "expected anything but " .. show(expected) .. ", got it" ; lines = nil end
    fail(message, expected, self.actual, lines)
  end
  return self
end

function Expectation:to_equal(...)
  check_arity("to_equal", select("#", ...), 1)
  local expected = ...
  local actual = self.actual
  local lines
  if type(expected) == "table" and type(actual) == "table" then
    lines = { "  expected: " .. show(expected), "    actual: " .. show(actual), "  diff (- expected, + actual):" }
    diff(expected, actual, "", lines)
  else
    lines = { "  expected: " .. show(expected), "    actual: " .. show(actual) }
  end
  lines[#lines + 1] = "  To fix: check the gestures and time before this line, or the expected value."
  return outcome(self, deep_equal(expected, actual), "values differ", expected, lines)
end

local function near(expected, actual, tolerance)
  if type(expected) == "number" and type(actual) == "number" then
    return abs(expected - actual) <= tolerance
  end
  if type(expected) ~= "table" or type(actual) ~= "table" then return false end
  local k, v = next(expected)
  while k ~= nil do
    if not near(v, rawget(actual, k), tolerance) then return false end
    k, v = next(expected, k)
  end
  k = next(actual)
  while k ~= nil do
    if rawget(expected, k) == nil then return false end
    k = next(actual, k)
  end
  return true
end

function Expectation:to_be_near(expected, tolerance)
  if type(expected) ~= "number" and type(expected) ~= "table" then
    error("bad argument #1 to 'to_be_near' (number or table expected, got " .. type(expected) .. ")", 2)
  end
  tolerance = tolerance == nil and 1e-9 or tolerance
  if type(tolerance) ~= "number" or tolerance ~= tolerance or tolerance < 0 then
    error("bad argument #2 to 'to_be_near' (tolerance must be a number >= 0, got " .. show(tolerance) .. ")", 2)
  end
  local lines = {
    "  expected: " .. show(expected) .. " ± " .. show_number(tolerance),
    "    actual: " .. show(self.actual),
  }
  if type(expected) == "table" and type(self.actual) == "table" then
    lines[#lines + 1] = "  diff (- expected, + actual):"
    diff(expected, self.actual, "", lines)
  end
  return outcome(self, near(expected, self.actual, tolerance), "values are not near", expected, lines)
end

function Expectation:to_be_truthy()
  return outcome(self, not not self.actual, "expected a truthy value, got " .. show(self.actual), true)
end

function Expectation:to_be_falsy()
  return outcome(self, not self.actual, "expected a falsy value, got " .. show(self.actual), false)
end

function Expectation:to_raise(text)
  if type(self.actual) ~= "function" then
    error("bad argument #1 to 'expect' (function expected for to_raise, got " .. type(self.actual) .. ")", 2)
  end
  if text ~= nil and type(text) ~= "string" then
    error("bad argument #1 to 'to_raise' (string expected, got " .. type(text) .. ")", 2)
  end
  local ok, err = pcall(self.actual)
  local message
  if getmetatable(err) == Failure then message = rawget(err, "message")
  elseif type(err) == "string" then message = err
  else message = show(err) end
  if ok then
    return outcome(self, false, "expected an error" .. (text and (" containing " .. show(text)) or "") .. ", got none", text)
  end
  if text and not find(message, text, 1, true) then
    return outcome(self, false, "expected an error containing " .. show(text) .. ", got " .. show(message), text)
  end
  return outcome(self, true, "", text)
end

--- Lua: `expect(screen):to_match_trace(path)`: the inputs and frames `screen` recorded so far
--- (`stackplay.screen { record = true }`) against the golden trace at `path`. A missing golden
--- trace, or any with `--update`, is written and named on stderr.
function Expectation:to_match_trace(path)
  if type(path) ~= "string" then
    error("bad argument #1 to 'to_match_trace' (string expected, got " .. type(path) .. ")", 2)
  end
  local difference, problem = golden(self.actual, path)
  if problem then error(problem, 2) end
  local lines = difference and { "  " .. gsub(difference, "\n", "\n  ") } or nil
  return outcome(self, difference == nil, "the screen's trace differs from " .. path, path, lines)
end

-- Tests --------------------------------------------------------------------------------------

local function register(kind, name, fn)
  if type(name) ~= "string" then
    error(format("bad argument #1 to '%s' (string expected, got %s)", kind, type(name)), 3)
  end
  if type(fn) ~= "function" then
    error(format("bad argument #2 to '%s' (function expected, got %s)", kind, type(fn)), 3)
  end
  for _, t in ipairs(registry.tests) do
    if t.name == name then error(format("a test called %s is already defined at %s", show(name), t.position), 3) end
  end
  registry.tests[#registry.tests + 1] = { name = name, fn = fn, mode = kind, position = where() }
end

--- Lua: `test(name, fn)`: a named test; each runs from a fresh start.
function _ENV.test(name, fn) register("test", name, fn) end
--- Lua: `skip(name, fn)`: a test that is listed but not run.
function _ENV.skip(name, fn) register("skip", name, fn) end
--- Lua: `only(name, fn)`: when any test is marked `only`, the others are skipped.
function _ENV.only(name, fn) register("only", name, fn) end

local function hook(list, kind)
  return function(fn)
    if type(fn) ~= "function" then
      error(format("bad argument #1 to '%s' (function expected, got %s)", kind, type(fn)), 2)
    end
    list[#list + 1] = fn
  end
end
--- Lua: `before_each(fn)` runs before every test of the file; `after_each(fn)` after it.
_ENV.before_each = hook(registry.before_each, "before_each")
_ENV.after_each = hook(registry.after_each, "after_each")

-- The runner's side: never reachable from scripts ------------------------------------------

local runner = {}

--- Each test's name, position, whether it runs and whether it is `only`.
function runner.tests()
  local list, focus = {}, false
  for _, t in ipairs(registry.tests) do if t.mode == "only" then focus = true end end
  for i, t in ipairs(registry.tests) do
    local skipped = t.mode == "skip" or (focus and t.mode ~= "only")
    list[i] = { name = t.name, position = t.position, skipped = skipped, only = t.mode == "only" }
  end
  return list
end

--- The message handler of a test's steps: runs no script code (Lua may call it with hooks off),
--- only keeps the error value, the traceback and the script's line.
local function capture(e)
  return { value = e, traceback = traceback(2), where = where() }
end

--- A captured error as the report shows it.
local function describe(captured)
  local err = captured.value
  local result = { status = "failed" }
  if getmetatable(err) == Failure then
    result.message, result.position = rawget(err, "message"), rawget(err, "position")
    result.assertion = true
  elseif type(err) == "string" then
    -- `assert(false)` and `error(msg, 0)` carry no position: add the test's line.
    local position = match(err, "^([^\n]-:%d+):") or captured.where
    result.message = match(err, "^[^\n]-:%d+:") and err or ((position and (position .. ": ") or "") .. err)
    result.position = position
  else
    result.position = captured.where
    result.message = (result.position and (result.position .. ": ") or "")
      .. "(error object is a " .. type(err) .. " value: " .. show(err) .. ")"
  end
  -- The script's own frames only: the prelude, the sandbox and the runner are noise to the reader.
  local kept = {}
  for line in gmatch(captured.traceback, "[^\n]+") do
    if not (find(line, "stackplay/", 1, true) or find(line, "(...tail calls...)", 1, true)
        or find(line, "in function 'xpcall'", 1, true) or find(line, "in function 'error'", 1, true)
        or find(line, "[C]: in ?", 1, true) or find(line, "'raw_xpcall'", 1, true)) then
      kept[#kept + 1] = line
    end
  end
  result.traceback = concat(kept, "\n")
  return result
end

--- Runs test `index`: the before_each hooks, the test, the after_each hooks. Returns nil when
--- every step returned, else { status = "failed", message, position, traceback }.
function runner.run(index)
  local t = registry.tests[index]
  local failure
  local function step(fn)
    local ok, captured = xpcall(fn, capture)
    if not ok and not failure then failure = captured end
  end
  for _, fn in ipairs(registry.before_each) do
    if not failure then step(fn) end
  end
  if not failure then step(t.fn) end
  for _, fn in ipairs(registry.after_each) do step(fn) end
  if failure then return describe(failure) end
  return nil
end

return runner
