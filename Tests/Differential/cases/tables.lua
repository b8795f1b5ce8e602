local t = { 1, 2, 3 }
table.insert(t, 4)
table.insert(t, 1, 0)
print(table.concat(t, ","), table.remove(t), table.remove(t, 1), table.concat(t, ","), #t)
print(table.unpack({ 1, 2, 3 }, 2), table.pack(1, nil, 3).n, select("#", table.unpack({}, 1, 3)))
print(table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), ","), pcall(table.insert, {}, 5, 1))
local list = { 5, 2, 8, 1, 9, 3 }
table.sort(list)
print(table.concat(list, " "))
table.sort(list, function(x, y) return x > y end)
print(table.concat(list, " "))
local words = { "pear", "Apple", "fig", "banana" }
table.sort(words)
print(table.concat(words, " "))
print(pcall(table.sort, { 1, "a", 2 }))
print(pcall(table.sort, { {}, {} }))
print(pcall(table.sort, { 3, 2, 1, 5, 4 }, function() return true end))
local big = {}
for i = 1, 1000 do big[i] = (i * 7919) % 1009 end
table.sort(big)
local sorted = true
for i = 2, #big do if big[i - 1] > big[i] then sorted = false end end
print("big sorted", sorted, big[1], big[500], big[1000])
local calls = 0
local again = {}
for i = 1, 300 do again[i] = (i * 31) % 300 end
table.sort(again, function(x, y) calls = calls + 1; return x < y end)
print("calls", calls, again[1], again[300])
local proxy = setmetatable({}, { __len = function() return math.maxinteger end, __index = function() return 0 end, __newindex = function() end })
print(pcall(table.sort, proxy))
print(pcall(table.sort, setmetatable({}, { __len = function() return 3 end })))
local records = { { n = "b", v = 2 }, { n = "a", v = 1 }, { n = "c", v = 3 } }
table.sort(records, function(x, y) return x.n < y.n end)
print(records[1].n, records[2].n, records[3].n)
print(#{ 1, 2, nil, 4 } >= 2, next({}, nil), type(next))
local holes = {}
holes[1], holes[2], holes[4] = "a", "b", "d"
print(holes[3], rawlen({ n = 1 }))
