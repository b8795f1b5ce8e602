-- Fixture: before_each runs before each test and after_each after it, and every test starts from a
-- fresh Lua state (so the counters start again).
local ran = {}
local count = 0

before_each(function()
  count = count + 1
  ran[#ran + 1] = "before"
end)

after_each(function()
  ran[#ran + 1] = "after"
end)

test("first", function()
  ran[#ran + 1] = "first"
  expect(count):to_equal(1)
  expect(ran):to_equal { "before", "first" }
end)

test("second starts afresh", function()
  expect(count):to_equal(1)
  expect(ran):to_equal { "before" }
end)
