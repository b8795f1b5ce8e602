local co = coroutine.create(function(a, b)
  print("start", a, b)
  local c = coroutine.yield(a + b)
  print("got", c)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print(coroutine.resume(co, 1, 2))
print(coroutine.status(co))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.status(co), coroutine.resume(co))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print(gen(), gen(), gen())
print(coroutine.isyieldable(), select(2, coroutine.running()))
local bad = coroutine.wrap(function() error("in coroutine") end)
print(pcall(bad))
local errco = coroutine.create(function() error({ code = 1 }) end)
local ok, err = coroutine.resume(errco)
print(ok, type(err), err.code)
-- yields across pcall, and a traversal that yields between keys
local across = coroutine.wrap(function()
  local okk, v = pcall(function() coroutine.yield("inside pcall"); return "after" end)
  coroutine.yield(tostring(okk) .. " " .. v)
  local t = { a = 1, b = 2, c = 3 }
  local n = 0
  for _, v2 in pairs(t) do coroutine.yield(v2 * 0); n = n + v2 end
  return "sum " .. n
end)
print(across()) print(across()) print(across()) print(across()) print(across()) print(across())
local closable = coroutine.create(function() coroutine.yield() end)
coroutine.resume(closable)
print(coroutine.close(closable), coroutine.status(closable))
print(pcall(coroutine.resume, 1), coroutine.resume(coroutine.create(function() end)))
local sorted = coroutine.wrap(function()
  local list = { 5, 3, 1, 4, 2 }
  table.sort(list, function(a, b) coroutine.yield("cmp") return a < b end)
end)
print(pcall(sorted))
