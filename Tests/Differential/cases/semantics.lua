-- next with keys not in the table (a float with an integer value never is one)
print(pcall(next, {10, 20, 30}, 1.0))
print(pcall(next, {10, 20, 30}, 3.0))
print(pcall(next, {10, 20, 30}, 4))
print(pcall(next, {10, 20, 30}, 3))
print(pcall(next, {[1] = 1, [2.5] = 2}, 2.5))
local t = {}
t[1.0], t[2.0], t.x = "a", "b", 1
print(pcall(next, t, 1.0))
print(pcall(next, t, 1))
print(pcall(next, {}, 0.5))
-- __gc values that register no code
print((pcall(setmetatable, {}, { __gc = false })), (pcall(setmetatable, {}, { __gc = true })),
  (pcall(setmetatable, {}, { __gc = 2 })))
-- the collector runs in lua5.4's mode
print(collectgarbage("incremental"), collectgarbage("generational"), collectgarbage("generational"))
print(collectgarbage("isrunning"), collectgarbage("step"), math.type(collectgarbage("count")))
-- %p: equal for one object, distinct for two long strings with equal contents, equal for short ones
local long1, long2 = string.rep("x", 100), string.rep("x", 100)
local f = string.format
print(f("%p", long1) == f("%p", long1), f("%p", long1) ~= f("%p", long2), long1 == long2)
print(f("%p", string.rep("y", 10)) == f("%p", "yyyyyyyyyy"), f("%p", 1), f("%p", true))
local keep = long1
print(f("%p", keep) == f("%p", long1))
-- debug keeps what reads
print(debug.getmetatable(setmetatable({}, { __index = { kind = "k" } })).__index.kind)
-- (stock's debug.getmetatable passes a protected metatable's guard; the sandbox's keeps it)
print("protected", type(debug.getmetatable(setmetatable({}, { __metatable = "locked" }))))
print(pcall(debug.setmetatable, setmetatable({}, { __metatable = "locked" }), {}))
print(type(debug.traceback("x")), debug.getinfo(1, "l").currentline, debug.getinfo(print).what)
