-- Moses as its documentation shows it: `local M = require "moses"`.
local M = require "moses"
local function show(t) return table.concat(M.map(t, tostring), " ") end
print(show(M.range(1, 10, 3)), show(M.map({ 1, 2, 3 }, function(v) return v * 10 end)))
print(show(M.filter(M.range(1, 10), function(v) return v % 2 == 0 end)), M.reduce({ 1, 2, 3, 4 }, function(a, b) return a + b end))
print(show(M.uniq({ 1, 1, 2, 3, 3 })), show(M.flatten({ 1, { 2, { 3, 4 } } })), show(M.reverse({ 1, 2, 3 })))
print(show(M.union({ 1, 2 }, { 2, 3 })), show(M.intersection({ 1, 2, 3 }, { 2, 3, 4 })), show(M.difference({ 1, 2, 3 }, { 2 })))
print(M.max({ 4, 9, 2 }), M.min({ 4, 9, 2 }), M.sum({ 1, 2, 3 }), M.product({ 1, 2, 3, 4 }), M.mean({ 1, 2, 3 }))
print(show(M.zip({ 1, 2 }, { "a", "b" })[2]), show(M.sortBy({ 3, 1, 2 })), show(M.first({ 5, 6, 7 }, 2)))
print(M.isEqual({ a = { 1 } }, { a = { 1 } }), M.isArray({ 1, 2 }), M.isEmpty({}), M.count({ 1, 2, 1 }, 1))
local counted = M.countBy({ 1, 2, 3, 4, 5 }, function(v) return v % 2 == 0 and "even" or "odd" end)
print(counted.even, counted.odd)
local memo = M.memoize(function(n) return n * n end)
print(memo(9), memo(9), M.compose(function(x) return x + 1 end, function(x) return x * 2 end)(5))
print(show(M.partition({ 1, 2, 3, 4, 5 }, 2)()), M.isFunction(print), M.identity("same"))
print(show(M.sort({ "pear", "apple", "fig" })), show(M.keys(M.invert({ "x" }))), show(M.rep("ab", 3)))
