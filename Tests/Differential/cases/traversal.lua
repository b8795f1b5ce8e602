-- Traversal by the manual's rules: clearing fields while traversing, early stops, next's checks.
local t = {}
for i = 1, 100 do t["k" .. i] = i; t[i] = i end
local n = 0
for k in pairs(t) do
  t[k] = nil
  n = n + 1
  if next(t) == nil then print("emptied after", n) end
end
print("left", next(t))

local sum = 0
local u = { a = 1, b = 2, c = 3, d = 4 }
for k, v in pairs(u) do
  if v % 2 == 0 then u[k] = nil end
  sum = sum + v
end
print("sum", sum, u.a, u.b, u.c, u.d)

-- a weak table's entries can go after a traversal that stopped early
local weak = setmetatable({}, { __mode = "k" })
for i = 1, 50 do weak[{}] = i end
for _ in pairs(weak) do break end
local empty = next(weak) == nil
collectgarbage()
collectgarbage()
print("weak entries left", next(weak) == nil, empty)

-- each key once, values right
local count, total = 0, 0
local big = {}
for i = 1, 3000 do big[i * 3] = i end
for i = 1, 3000 do big["s" .. i] = i end
for k, v in pairs(big) do count = count + 1; total = total + v end
print("big", count, total)

-- nested traversals of one table
local pairs_seen = 0
local small = { x = 1, y = 2, z = 3 }
for _ in pairs(small) do for _ in pairs(small) do pairs_seen = pairs_seen + 1 end end
print("nested", pairs_seen)

print(pcall(next, {}, 1))
print(pcall(next, { a = 1 }, "b"))
print(next({}))
print(rawequal(next, select(1, pairs({}))))
print(select("#", pairs({})))
local mt = setmetatable({}, { __pairs = function(self) return function(_, k) if not k then return 1, "one" end end, self, nil end })
for k, v in pairs(mt) do print("__pairs", k, v) end
local ok, e = pcall(pairs, setmetatable({}, { __pairs = function() error({ code = 7 }) end }))
print(ok, type(e), e.code)
local arr = { 10, 20, 30, nil, 50 }
for i, v in ipairs(arr) do print("ipairs", i, v) end
