-- inspect.lua as its README shows it: `local inspect = require "inspect"`.
local inspect = require "inspect"
print(inspect({ 1, 2, 3 }))
print(inspect({ a = 1, b = { c = "deep", d = { 1, 2 } }, [5] = false }))
print(inspect("text\nwith \"quotes\""), inspect(3.5), inspect(nil), inspect(math.huge))
local shared = { "shared" }
print(inspect({ shared, shared }))
print(inspect({ a = { b = { c = { d = 1 } } } }, { depth = 2 }))
print(inspect({ 1, 2, x = 3 }, { newline = " ", indent = "" }))
print(inspect(setmetatable({ v = 1 }, { __index = { hidden = true } })))
print(inspect({ a = 1, b = 2, c = 3 }, { process = function(item, path) if path[#path] ~= "b" then return item end end }))
local cyclic = { name = "loop" }
cyclic.self = cyclic
print(inspect(cyclic))
