-- Smaller points of the library the sandbox replaces.
print(string.format("%5.1s|%-8s|", {}, nil), string.format("%-5p|%3p|", 1, true))
print(pcall(string.format, "%q", {}))
print(select(2, pcall(load("return x", "n", "t", nil))))
print(load("return ...", nil)(1, 2))
print(pcall(pairs, setmetatable({}, { __pairs = false })))
local calls = setmetatable({}, { __pairs = function(t) return function(_, k) if k == nil then return "only", t end end, t, nil, "extra" end })
print(select("#", pairs(calls)))
print(getmetatable("").__index.format == string.format, ("%d"):format(3))
print(os.difftime(10, 4), math.type(os.difftime(10, 4)), pcall(os.difftime))
print(os.date("!%H:%M", 3600), os.time { year = 2020, month = 1, day = 1, hour = 12, min = 0, sec = 0, isdst = false })
print(pcall(math.randomseed, 1.5))
print(setmetatable({}, nil) ~= nil)
print(type(string.dump(function() end, true)))
local t = { 10, 20, 30, x = 1 }
local keys = {}
for k in next, t do keys[#keys + 1] = tostring(k) end
table.sort(keys)
print(table.concat(keys, " "))
local f = { [1.5] = "a", [2] = "b" }
print(next(f, 1.5) ~= nil or next(f, 2) ~= nil, f[1.5])
print(pcall(print, setmetatable({}, { __tostring = function() return 42 end })))
print(pcall(warn, "@on", 1))
