-- Penlight as its manual shows it: `require "pl"` brings its modules in as globals, on first use.
require "pl"

local l = List { 10, 20, 30, 40 }
print(l, l:len(), l:map(function(x) return x / 10 end), l:filter(function(x) return x > 15 end))
print(l:slice(2, 3), l:reverse(), List.range(1, 5), l:index(30), l:contains(99))
print(List { 3, 1, 2 }:sort(), List { "b", "a" }:sort():concat("+"))

print(stringx.split("a,b,,c", ","), stringx.strip("  padded  "), stringx.startswith("penlight", "pen"))
print(stringx.join("-", { "x", "y", "z" }), stringx.rjust("7", 3, "0"), stringx.count("banana", "an"))
print(stringx.title("hello world"), stringx.shorten("a long sentence here", 10), stringx.splitlines("1\n2\n3"))

print(tablex.size({ a = 1, b = 2, 3 }), tablex.deepcompare({ 1, { 2 } }, { 1, { 2 } }))
print(tablex.index_by({ 10, 20, 30 }, { 3, 1 }), tablex.reduce("+", { 1, 2, 3, 4 }), tablex.range(1, 10, 3))
local keys = tablex.keys({ z = 1, a = 2, m = 3 })
table.sort(keys)
print(List(keys), tablex.find({ "p", "q" }, "q"), tablex.zip({ 1, 2 }, { "a", "b" })[2][2])

print(pretty.write({ 1, 2, "three", { nested = true } }, ""))
print(pretty.write({ alpha = 1, beta = { 1, 2 } }))

local Animal = class()
function Animal:_init(name) self.name = name end
function Animal:__tostring() return "Animal(" .. self.name .. ")" end
local Dog = class(Animal)
function Dog:speak() return self.name .. " says woof" end
local d = Dog("rex")
print(d, d:speak(), Dog:class_of(d), Animal:class_of(d), d:is_a(Dog))

print(List(utils.split("1 2 3")), utils.choose(true, "yes", "no"), utils.string_lambda("_ + 1")(41))
print(seq.copy(seq.map(function(x) return x * x end, seq.range(1, 5))))
print(Set({ 1, 2, 3 }) + Set({ 3, 4 }) == Set({ 1, 2, 3, 4 }), Set.len(Set({ "a", "b" })))
local m = OrderedMap()
m:set("z", 1); m:set("a", 2)
print(m:keys(), m:values())
print(text.Template("hello $who"):substitute({ who = "world" }), sip.match_at_start("$v=$v", "x=10", {}))
print(List(comprehension.new()("x^2 for x=1,4")()), List(comprehension.new()("{k, v} for k, v in ipairs(_1)")({ "a", "b" })[2]))
print(operator.add(1, 2), func.bind1(operator.mul, 6)(7), types.is_integer(3), types.is_empty({}))
print(pcall(utils.assert_arg, 1, 5, "string"))
print(data.read and "data" or "no data", array2d.new(2, 2, 0)[2][2])
