-- The stackplay prelude: tests, expectations and the failure report. It runs in the script's own
-- sandbox after the API and before the script.
--
-- The runner's side of it (the list of tests, running one, reading its failure) is a table this
-- chunk hands to explore.lua, which adds the explorer's side and returns it for Swift to keep in
-- the Lua registry: nothing a script can reach or replace decides a verdict. Every library
-- function is taken here, before the script runs, and strings are never used through methods
-- (`s:find`), so a script that replaces `string.find` or `setmetatable` changes nothing here.
-- Its argument is a table of Swift functions: `where` (the script's current `path:line`),
-- `traceback(level)`, `dump()` (the screens as text) and `golden(screen, path)`
-- (`to_match_trace`) and `audit(screen, options)` (`to_pass_audit`); the second is the table
-- values.lua returns (`show`, `deep_equal`, `diff`, ...).
local internal, values = ...
local where, traceback, golden, audit = internal.where, internal.traceback, internal.golden, internal.audit
local nearest = internal.nearest
local api = stackplay
local registry = { tests = {}, names = {}, before_each = {}, after_each = {}, explorations = {} }
local type, ipairs, next, tostring, select, error = type, ipairs, next, tostring, select, error
local rawget, rawlen, getmetatable, setmetatable = rawget, rawlen, getmetatable, setmetatable
local xpcall, pcall = xpcall, pcall
local format, concat, sort = string.format, table.concat, table.sort
local find, match, gsub, sub = string.find, string.match, string.gsub, string.sub
local math_type, floor, abs = math.type, math.floor, math.abs
local show, show_number = values.show, values.show_number
local deep_equal, tables_match = values.deep_equal, values.tables_match
local diff, near_hint = values.diff, values.near_hint
api.show = show

-- Failing ------------------------------------------------------------------------------------

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return type(rawget(f, "message")) == "string" and rawget(f, "message") or "?" end

--- Whether `err` is a failure `fail` made: a script can reach the metatable (getmetatable of a
--- caught failure) and forge one, with a table for its message; a forged one is reported as
--- the table it is, never as an empty message.
local function is_failure(err)
  if getmetatable(err) ~= Failure then return false end
  if type(rawget(err, "message")) ~= "string" or rawget(err, "message") == "" then return false end
  for _, key in ipairs { "position", "expected", "actual", "diff" } do
    local value = rawget(err, key)
    if value ~= nil and type(value) ~= "string" then return false end
  end
  return true
end

--- Raises an assertion failure pointing at the line that called the expectation. `report` holds
--- the message, both sides as text (`expected`, `actual`), the diff lines and what to do next;
--- the runner reads them apart for JSON and JUnit.
local function fail(self, report)
  local position = where() or "?"
  local heading = report.message
  if self.message then heading = self.message .. ": " .. heading end
  local lines = { position .. ": " .. heading }
  if report.sides == false then report.expected, report.actual = nil, nil end
  if report.expected then lines[#lines + 1] = "  expected: " .. report.expected end
  if report.actual then lines[#lines + 1] = "    actual: " .. report.actual end
  if report.diff and #report.diff > 0 then
    lines[#lines + 1] = "  diff (- expected, + actual):"
    for _, line in ipairs(report.diff) do lines[#lines + 1] = line end
  end
  if report.detail then lines[#lines + 1] = report.detail end
  if report.hint then lines[#lines + 1] = "  To fix: " .. report.hint end
  local failure = setmetatable({
    message = concat(lines, "\n"), position = position, expected = report.expected,
    actual = report.actual, diff = report.diff and concat(report.diff, "\n") or nil, assertion = true,
  }, Failure)
  -- A script without tests fails outside the runner's steps: the runner finds it here.
  registry.last_failure = failure
  error(failure, 0)
end

local function check_arity(name, n, count)
  if n < count then error(format("bad argument #%d to '%s' (value expected)", count, name), 3) end
end

local Expectation = {}
Expectation.__index = Expectation

--- The expectations made and not yet finished by a matcher, each with the line of its `expect`:
--- one left at the end of a test fails it there (`expect(count == 3)` checks nothing).
local unfinished = {}

--- Raises, at the caller's caller's line (a metamethod's script), that `key` is an unknown
--- `what` (a format for the key: "matcher %s") of table `t`, with the nearest of its string
--- keys that `keep` keeps, or them all (after `listed`).
local function unknown_name(what, key, t, keep, listed)
  local names, k = {}, next(t)
  while k ~= nil do
    if type(k) == "string" and keep(k) then names[#names + 1] = k end
    k = next(t, k)
  end
  sort(names)
  local near = type(key) == "string" and nearest(key, names)
  error(format("unknown " .. what, type(key) == "string" and ("'" .. key .. "'") or show(key))
    .. (near and (" (did you mean '" .. near .. "'?)") or (" (" .. listed .. ": " .. concat(names, ", ") .. ")")), 3)
end

--- Reading a name an expectation does not have: the nearest matcher, at the script's line.
local function unknown_matcher(_, key)
  local function is_matcher(k) return find(k, "^to_") or k == "never" end
  unknown_name("matcher %s", key, Expectation, is_matcher, "matchers")
end

--- The first expectation of `unfinished` as a failure at its own line, or nil; forgets them all.
local function unfinished_failure()
  local first
  local e = next(unfinished)
  while e ~= nil do
    local position = unfinished[e]
    if first == nil or position.order < first.order then first = position end
    e = next(unfinished, e)
  end
  unfinished = {}
  if first == nil then return nil end
  first.at = match(first.at, "^(.-): $") or "?"
  local hint = first.boolean and "did you mean expect(...):to_be_truthy()?"
    or "did you mean expect(...):to_equal(expected) or another matcher?"
  local message = "expect at " .. first.at .. " has no matcher: " .. hint
  return setmetatable({
    message = first.at .. ": " .. message .. "\n  To fix: an expectation checks nothing until a matcher is "
      .. "called on it (expect(x):to_be_truthy(), expect(x):to_equal(y), ...).",
    position = first.at, assertion = true,
  }, Failure)
end
local made = 0

--- Lua: `expect(actual [, message])`, then a matcher (`:to_equal(expected)`, ...), or `:never()`
--- first to negate it. The message, when given, heads the failure.
function _ENV.expect(...)
  check_arity("expect", select("#", ...), 1)
  local actual, message = ...
  if message ~= nil and type(message) ~= "string" then
    -- `expect(c:point("a"))`: a call gives all its values, the second one taken for the message
    error("bad argument #2 to 'expect' (string expected, got " .. type(message) .. ": the second argument "
      .. "is a message; to check the first value of a call that returns several, use expect((f(...))))", 2)
  end
  local expectation = setmetatable({ actual = actual, negated = false, message = message }, Expectation)
  made = made + 1
  -- the caller's `path:line: `, as `error` places a message (cheaper than `where` at every expect)
  local _, at = pcall(error, "", 3)
  unfinished[expectation] = { at = at, order = made, boolean = type(actual) == "boolean" }
  return expectation
end

function Expectation:never()
  self.negated = not self.negated
  return self
end
Expectation.to_not = Expectation.never

--- Passes or fails. `report.wanted` says what was expected in words ("a value greater than 3"),
--- `report.expected` shows it as a value; a negated expectation fails with "expected not ...".
local function outcome(self, passed, report)
  if passed ~= self.negated then return self end
  report.actual = report.actual or show(self.actual)
  if self.negated then
    local wanted = report.wanted or show(report.value)
    report.message = report.wanted and ("expected not " .. wanted .. ", got " .. report.actual)
      or ("expected anything but " .. wanted .. ", got it")
    report.expected, report.diff, report.detail = "not " .. wanted, nil, nil
  end
  fail(self, report)
end

--- An argument error for a matcher, at the script's line.
local function bad_argument(n, name, detail)
  error(format("bad argument #%d to '%s' (%s)", n, name, detail), 3)
end

function Expectation:to_equal(...)
  check_arity("to_equal", select("#", ...), 1)
  local expected = ...
  local actual = self.actual
  local lines
  if type(expected) == "table" and type(actual) == "table" then lines = diff(expected, actual, "", {}) end
  return outcome(self, deep_equal(expected, actual), {
    message = "values differ", value = expected, expected = show(expected), diff = lines,
    hint = near_hint(expected, actual) or "check the gestures and time before this line, or the expected value.",
  })
end

local function is_near(expected, actual, tolerance)
  if type(expected) == "number" and type(actual) == "number" then
    return abs(expected - actual) <= tolerance
  end
  if type(expected) ~= "table" or type(actual) ~= "table" then return false end
  return tables_match(expected, actual, is_near, tolerance)
end

function Expectation:to_be_near(expected, tolerance)
  if type(expected) ~= "number" and type(expected) ~= "table" then
    bad_argument(1, "to_be_near", "number or table expected, got " .. type(expected))
  end
  tolerance = tolerance == nil and 1e-9 or tolerance
  if type(tolerance) ~= "number" or tolerance ~= tolerance or tolerance < 0 then
    bad_argument(2, "to_be_near", "tolerance must be a number >= 0, got " .. show(tolerance))
  end
  local lines
  if type(expected) == "table" and type(self.actual) == "table" then lines = diff(expected, self.actual, "", {}) end
  local wanted = show(expected) .. " ± " .. show_number(tolerance)
  return outcome(self, is_near(expected, self.actual, tolerance), {
    message = "values are not near", wanted = "a value near " .. wanted, expected = wanted, diff = lines,
  })
end

function Expectation:to_be_truthy()
  return outcome(self, not not self.actual, {
    message = "expected a truthy value, got " .. show(self.actual), wanted = "a truthy value",
    expected = "a truthy value (anything but nil and false)",
  })
end

function Expectation:to_be_falsy()
  return outcome(self, not self.actual, {
    message = "expected a falsy value, got " .. show(self.actual), wanted = "a falsy value",
    expected = "a falsy value (nil or false)",
  })
end

function Expectation:to_be_nil()
  return outcome(self, self.actual == nil, {
    message = "expected nil, got " .. show(self.actual), wanted = "nil", expected = "nil",
  })
end

--- The comparisons: `to_be_greater_than(n)`, `to_be_less_than(n)` and their `_or_equal` forms,
--- `to_be_between(low, high)` (both ends included). A value that is not a number fails them all,
--- negated or not.
local function compare(self, name, bounds, words, passes)
  for i, bound in ipairs(bounds) do
    if type(bound) ~= "number" or bound ~= bound then
      bad_argument(i, name, "number expected, got " .. (type(bound) == "number" and "nan" or type(bound)))
    end
  end
  local wanted = words
  if type(self.actual) ~= "number" or self.actual ~= self.actual then
    fail(self, {
      message = "expected " .. wanted .. ", got " .. show(self.actual) .. " (not a number)",
      expected = wanted, actual = show(self.actual),
    })
  end
  return outcome(self, passes(self.actual), {
    message = "expected " .. wanted .. ", got " .. show(self.actual), wanted = wanted, expected = wanted,
  })
end

function Expectation:to_be_greater_than(n)
  return compare(self, "to_be_greater_than", { n }, "a value greater than " .. show(n), function(v) return v > n end)
end

function Expectation:to_be_greater_than_or_equal(n)
  return compare(self, "to_be_greater_than_or_equal", { n }, "a value >= " .. show(n), function(v) return v >= n end)
end

function Expectation:to_be_less_than(n)
  return compare(self, "to_be_less_than", { n }, "a value less than " .. show(n), function(v) return v < n end)
end

function Expectation:to_be_less_than_or_equal(n)
  return compare(self, "to_be_less_than_or_equal", { n }, "a value <= " .. show(n), function(v) return v <= n end)
end

function Expectation:to_be_between(low, high)
  if type(low) == "number" and type(high) == "number" and low > high then
    bad_argument(2, "to_be_between", "the high end " .. show(high) .. " is below the low end " .. show(low))
  end
  return compare(self, "to_be_between", { low, high }, "a value between " .. show(low) .. " and " .. show(high),
    function(v) return v >= low and v <= high end)
end

--- `to_contain(x)`: a string holds `x` as plain text, or a list holds an element equal to `x`.
function Expectation:to_contain(...)
  check_arity("to_contain", select("#", ...), 1)
  local item = ...
  local actual, found = self.actual, false
  if type(actual) == "string" then
    if type(item) ~= "string" then
      bad_argument(1, "to_contain", "string expected for a string, got " .. type(item))
    end
    found = find(actual, item, 1, true) ~= nil
  elseif type(actual) == "table" then
    for i = 1, rawlen(actual) do
      if deep_equal(rawget(actual, i), item) then found = true; break end
    end
  else
    fail(self, {
      message = "expected a string or a list containing " .. show(item) .. ", got " .. show(actual),
      expected = "a string or a list containing " .. show(item), actual = show(actual),
    })
  end
  local wanted = (type(actual) == "string" and "a string containing " or "a list containing ") .. show(item)
  return outcome(self, found, {
    message = "expected " .. wanted .. ", got " .. show(actual), wanted = wanted, expected = wanted,
  })
end

--- `to_have_length(n)`: a string's bytes or a list's elements (`#`, raw).
function Expectation:to_have_length(n)
  if math_type(n) ~= "integer" and not (type(n) == "number" and n == floor(n)) then
    bad_argument(1, "to_have_length", "whole number expected, got " .. show(n))
  end
  local actual = self.actual
  if type(actual) ~= "string" and type(actual) ~= "table" then
    fail(self, {
      message = "expected a string or a table of length " .. show(n) .. ", got " .. show(actual),
      expected = "length " .. show(n), actual = show(actual),
    })
  end
  local length = rawlen(actual)
  return outcome(self, length == n, {
    message = "expected length " .. show(n) .. ", got length " .. length, wanted = "length " .. show(n),
    expected = "length " .. show(n), actual = "length " .. length .. ": " .. show(actual),
  })
end

local type_names = { "nil", "boolean", "number", "string", "table", "function", "thread", "userdata" }

--- `to_be_type(name)`: Lua's `type(actual)` is `name`.
function Expectation:to_be_type(name)
  local known = false
  for _, t in ipairs(type_names) do if t == name then known = true end end
  if not known then
    bad_argument(1, "to_be_type",
      "a Lua type name expected (" .. concat(type_names, ", ") .. "), got " .. show(name))
  end
  local wanted = "a value of type " .. name
  return outcome(self, type(self.actual) == name, {
    message = "expected " .. wanted .. ", got " .. show(self.actual) .. " (a " .. type(self.actual) .. ")",
    wanted = wanted, expected = wanted, actual = show(self.actual) .. " (" .. type(self.actual) .. ")",
  })
end

--- `to_match(pattern)`: a string matches a Lua pattern (`"^card:%d+$"`).
function Expectation:to_match(pattern)
  if type(pattern) ~= "string" then bad_argument(1, "to_match", "string expected, got " .. type(pattern)) end
  local actual = self.actual
  local ok, found = pcall(find, type(actual) == "string" and actual or "", pattern)
  if not ok then bad_argument(1, "to_match", "malformed pattern " .. show(pattern)) end
  if type(actual) ~= "string" then
    fail(self, {
      message = "expected a string matching " .. show(pattern) .. ", got " .. show(actual),
      expected = "a string matching " .. show(pattern), actual = show(actual),
    })
  end
  local wanted = "a string matching " .. show(pattern)
  return outcome(self, found ~= nil, {
    message = "expected " .. wanted .. ", got " .. show(actual), wanted = wanted, expected = wanted,
  })
end

function Expectation:to_raise(text)
  if type(self.actual) ~= "function" then
    bad_argument(1, "expect", "function expected for to_raise, got " .. type(self.actual))
  end
  if text ~= nil and type(text) ~= "string" then
    bad_argument(1, "to_raise", "string expected, got " .. type(text))
  end
  local ok, err = pcall(self.actual)
  local message
  if is_failure(err) then message = rawget(err, "message")
  elseif type(err) == "string" then message = err
  else message = show(err) end
  local wanted = "an error" .. (text and (" containing " .. show(text)) or "")
  if ok then
    return outcome(self, false, {
      message = "expected " .. wanted .. ", got none", wanted = wanted, expected = wanted, actual = "no error",
    })
  end
  if text and not find(message, text, 1, true) then
    return outcome(self, false, {
      message = "expected " .. wanted .. ", got " .. show(message), wanted = wanted, expected = wanted,
      actual = show(message),
    })
  end
  return outcome(self, true, { message = "", wanted = wanted, expected = wanted, actual = show(message) })
end

--- Lua: `expect(screen):to_match_trace(path)`: the inputs and frames `screen` recorded so far
--- (`stackplay.screen { record = true }`) against the golden trace at `path`. A missing golden
--- trace, or any with `--update`, is written and named on stderr.
function Expectation:to_match_trace(path)
  if type(path) ~= "string" then bad_argument(1, "to_match_trace", "string expected, got " .. type(path)) end
  local difference, problem = golden(self.actual, path)
  if problem then error(problem, 2) end
  return outcome(self, difference == nil, {
    message = "the screen's trace differs from " .. path, wanted = "a trace matching " .. path,
    sides = false, -- the difference names the field, expected and actual
    detail = difference and ("  " .. gsub(difference, "\n", "\n  ")) or nil,
  })
end

--- Lua: `expect(screen):to_pass_audit([options])`: the screen's accessibility audit finds no
--- issue (`screen:audit(options)`); a failure lists every issue, with the state of the screens.
function Expectation:to_pass_audit(options)
  local ok, count, summary, report = pcall(audit, self.actual, options)
  if not ok then error((gsub(tostring(count), "^[^\n]-stackplay/[^:]*:%d+: ", "")), 2) end
  return outcome(self, count == 0, {
    message = "the screen's accessibility audit found " .. summary, wanted = "an audit with no issue",
    expected = "no accessibility issues", actual = summary,
    detail = count > 0 and report or nil,
    hint = "change the screen, or allow a known issue: to_pass_audit { allow = { { type =, element = } } }.",
  })
end

--- A matcher called with `.` (`expect(x).to_equal(3)`) gets no expectation as `self`: every
--- method says to use `:`, at the script's line, instead of a confusing argument error.
for name, method in next, Expectation do
  if type(method) == "function" then
    Expectation[name] = function(self, ...)
      if getmetatable(self) ~= Expectation then
        error(format("calling '%s' on bad self (use ':' as in expect(x):%s(...), not expect(x).%s(...))",
          name, name, name), 2)
      end
      if name ~= "never" and name ~= "to_not" then unfinished[self] = nil end
      return method(self, ...)
    end
  end
end
--- The fields an expectation holds itself, read through `self` (`message` may be nil).
local expectation_fields = { actual = true, negated = true, message = true }
-- The matchers are the expectations' `__index` table; a name it has not is an unknown matcher.
setmetatable(Expectation, {
  __index = function(self, key)
    if expectation_fields[key] then return nil end
    return unknown_matcher(self, key)
  end,
})

-- Tests --------------------------------------------------------------------------------------

--- The tags of `test(name, { tags = { "rtl", "smoke" } }, fn)`: words without spaces or commas
--- (`--tag a,b` lists them), each given once.
local function read_tags(kind, options)
  if type(options) ~= "table" then
    error(format("bad argument #2 to '%s' (table or function expected, got %s)", kind, type(options)), 4)
  end
  local k = next(options)
  while k ~= nil do
    if k ~= "tags" then
      local near = type(k) == "string" and nearest(k, { "tags" })
      error(format("bad argument #2 to '%s' (unknown option %s%s)", kind, show(k),
        near and (" (did you mean '" .. near .. "'?)") or " (known: tags)"), 4)
    end
    k = next(options, k)
  end
  local given, tags = rawget(options, "tags"), {}
  if given == nil then return tags end
  if type(given) ~= "table" then
    error(format("bad argument #2 to '%s' (field 'tags': table expected, got %s)", kind, type(given)), 4)
  end
  for i = 1, rawlen(given) do
    local tag = rawget(given, i)
    if type(tag) ~= "string" or tag == "" or find(tag, "[%s,]") then
      error(format("bad argument #2 to '%s' (field 'tags': tag %d must be a word without spaces or commas, "
        .. "got %s)", kind, i, show(tag)), 4)
    end
    tags[#tags + 1] = tag
  end
  return tags
end

local function register(kind, name, options, fn)
  local running = registry.running
  if running then
    error(format("'%s' called while the test %s runs: tests are defined at a file's top level, "
      .. "and one defined inside a test would never run", kind, show(running)), 3)
  end
  if type(name) ~= "string" then
    error(format("bad argument #1 to '%s' (string expected, got %s)", kind, type(name)), 3)
  end
  if name == "" or not find(name, "%S") then
    error(format("bad argument #1 to '%s' (the test's name is empty)", kind), 3)
  end
  local tags = {}
  if fn == nil and type(options) == "function" then
    fn = options
  else
    tags = read_tags(kind, options)
  end
  if type(fn) ~= "function" then
    error(format("bad argument #%d to '%s' (function expected, got %s)", options == fn and 2 or 3, kind, type(fn)), 3)
  end
  -- by name, not a scan of the list: registering N tests is linear in N
  local earlier = registry.names[name]
  if earlier then error(format("a test called %s is already defined at %s", show(name), earlier.position), 3) end
  local entry = { name = name, fn = fn, mode = kind, position = where(), tags = tags }
  registry.tests[#registry.tests + 1] = entry
  registry.names[name] = entry
end

--- Lua: `test(name, [{ tags = { ... } },] fn)`: a named test; each runs from a fresh start.
function _ENV.test(name, options, fn) register("test", name, options, fn) end
--- Lua: `skip(name, [options,] fn)`: a test that is listed but not run.
function _ENV.skip(name, options, fn) register("skip", name, options, fn) end
--- Lua: `only(name, [options,] fn)`: when any test is marked `only`, the others are skipped.
function _ENV.only(name, options, fn) register("only", name, options, fn) end

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

-- Unknown names of the stackplay table ---------------------------------------------------------

--- Reading a name the `stackplay` table does not have raises at the script's line with the
--- nearest name (`stackplay.scren`); a script may still set fields of its own.
setmetatable(api, {
  __metatable = "locked",
  __index = function(_, key)
    -- "unknown field 'scren' of stackplay (did you mean 'screen'?)"
    unknown_name("field %s of stackplay", key, api, function() return true end, "it has")
  end,
})

-- The runner's side: never reachable from scripts ------------------------------------------

local runner = {}

--- The registered tests themselves (each one's name, position, mode and tags, which the runner
--- reads and never changes: a list of copies was half of a 10,000-test file's listing), how many
--- explorations the file declares, and whether a test is `only` (the others then do not run).
function runner.tests()
  -- an expectation the top level left without a matcher: the file fails there
  local dangling = unfinished_failure()
  if dangling then
    registry.last_failure = dangling
    error(rawget(dangling, "message"), 0)
  end
  local focus = false
  for _, t in ipairs(registry.tests) do if t.mode == "only" then focus = true end end
  return registry.tests, #registry.explorations, focus
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
  if is_failure(err) then
    result.message, result.position = rawget(err, "message"), rawget(err, "position")
    result.expected, result.actual = rawget(err, "expected"), rawget(err, "actual")
    result.diff = rawget(err, "diff")
    result.assertion = true
  elseif type(err) == "string" then
    -- `assert(false)` and `error(msg, 0)` carry no position: add the test's line.
    local position = match(err, "^([^\n]-:%d+):") or captured.where
    -- an error raised in stackplay's own Lua (a matcher's argument error) is the script's line's
    if position and captured.where and find(position, "^stackplay/") then
      err = captured.where .. sub(err, #position + 1)
      position = captured.where
    end
    result.message = match(err, "^[^\n]-:%d+:") and err or ((position and (position .. ": ") or "") .. err)
    result.position = position
  else
    result.position = captured.where
    result.message = (result.position and (result.position .. ": ") or "")
      .. "(error object is a " .. type(err) .. " value: " .. show(err) .. ")"
  end
  -- The runner keeps the script's own frames only (scriptFrames in ScriptTests.swift).
  result.traceback = captured.traceback
  return result
end

--- Runs test `index`: the before_each hooks, the test, the after_each hooks. Returns nil when
--- every step returned, else { status = "failed", message, position, traceback }.
function runner.run(index, name)
  local t = registry.tests[index]
  -- Discovery listed the tests from another load of the file: if the list changed (names from
  -- math.random or the time at the top level), this is not the test that was listed.
  if t == nil or (name ~= nil and t.name ~= name) then
    return { status = "failed", mismatch = true, now = t and t.name, count = #registry.tests }
  end
  local failure
  local function step(fn)
    local ok, captured = xpcall(fn, capture)
    if not ok and not failure then failure = captured end
    -- an expectation the step left without a matcher fails it at that expectation's line
    local dangling = unfinished_failure()
    if dangling and not failure then failure = { value = dangling, traceback = "", where = dangling.position } end
  end
  unfinished = {}
  registry.running = t.name
  for _, fn in ipairs(registry.before_each) do
    if not failure then step(fn) end
  end
  if not failure then step(t.fn) end
  for _, fn in ipairs(registry.after_each) do step(fn) end
  registry.running = nil
  if failure then return describe(failure) end
  return nil
end

--- An expectation a whole script (a file without tests) left without a matcher, as `describe`
--- gives it, or nil; its run is then a failure at that expectation's line.
function runner.unfinished()
  local dangling = unfinished_failure()
  if dangling == nil then return nil end
  return describe({ value = dangling, traceback = "", where = rawget(dangling, "position") })
end

--- The last expectation that failed, as `describe` gives it, for a script without tests (whose
--- error reaches the runner as text): the runner compares the messages.
function runner.last_failure()
  local failure = registry.last_failure
  if failure == nil then return nil end
  return describe({ value = failure, traceback = "", where = rawget(failure, "position") })
end

-- The explorations (explore.lua) receive the runner and what they share with the tests.
return { runner = runner, registry = registry, is_failure = is_failure, values = values }
