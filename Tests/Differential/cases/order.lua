-- Key order is the documented one in stackplay, the hash order in stock: compared as sets.
local t = { zeta = 1, alpha = 2, mid = 3, [10] = 4, [2] = 5, [true] = 6, [2.5] = 7, [false] = 8, [-1] = 9 }
for k, v in pairs(t) do print("pairs", k, v) end
for k, v in next, t do print("next", k, v) end
