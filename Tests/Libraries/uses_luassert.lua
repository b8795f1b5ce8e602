-- luassert as its README shows it: `local assert = require "luassert"`.
local assert = require "luassert"
local spy = require "luassert.spy"
local stub = require "luassert.stub"
local match = require "luassert.match"

assert.are.same({ 1, { 2, 3 } }, { 1, { 2, 3 } })
assert.are_not.equal({}, {})
assert.is_true(true)
assert.is.falsy(nil)
assert.has_error(function() error("boom") end)
assert.has_error(function() error("boom", 0) end, "boom")
assert.matches("^h.llo", "hello")
assert.near(1.0, 1.05, 0.1)
assert.is_number(3)
assert.are.unique({ 1, 2, 3 })
print("passing assertions pass")

-- (a failure's message; where it shows a table, only its first line: stock shows an address)
local function failure(f, ...)
  local ok, err = pcall(f, ...)
  local message = type(err) == "table" and tostring(err.message or err) or err
  if message:find("table: ", 1, true) then message = message:match("^[^\n]*") end
  print(ok, message)
end
failure(assert.are.equal, 1, 2)
failure(assert.are.same, { a = 1 }, { a = 2 })
failure(assert.is_true, false)
failure(assert.has_no.errors, function() error("inner", 0) end)
failure(assert.is_string, 42)

local s = spy.new(function(x) return x * 2 end)
print(s(21), s(1))
assert.spy(s).was.called(2)
assert.spy(s).was.called_with(21)
failure(function() assert.spy(s).was.called_with(99) end)

local t = { greet = function(name) return "hello " .. name end }
stub(t, "greet").returns("stubbed")
print(t.greet("x"))
assert.stub(t.greet).was.called_with("x")
t.greet:revert()
print(t.greet("x"))

assert.is_true(match.is_string()("x"))
assert.spy(s).was.called_with(match.is_number())
local said = require "say"
said:set("assertion.custom.positive", "Expected %s to be even")
assert:register("assertion", "even", function(_, arguments) return arguments[1] % 2 == 0 end,
  "assertion.custom.positive", "assertion.custom.positive")
assert.is.even(4)
failure(assert.is.even, 3)
print(said("assertion.custom.positive", { "7" }))
