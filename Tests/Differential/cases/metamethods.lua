local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({ x = a.x + b.x }, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__le = function(a, b) return a.x <= b.x end
V.__concat = function(a, b) return "V" .. (type(a) == "table" and a.x or a) .. (type(b) == "table" and b.x or b) end
V.__len = function(a) return a.x end
V.__call = function(self, y) return self.x + y end
V.__unm = function(a) return setmetatable({ x = -a.x }, V) end
V.__tostring = function(a) return "V(" .. a.x .. ")" end
V.__name = "Vector"
local function new(x) return setmetatable({ x = x }, V) end
local a, b = new(1), new(2)
print(tostring(a + b), a == new(1), a < b, a <= b, a .. "!", #b, a(10), tostring(-a))
local log = {}
local proxy = setmetatable({}, { __index = function(_, k) return k .. "!" end, __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. tostring(v) end })
proxy.a = 1
print(proxy.x, rawget(proxy, "a"), log[1])
local protected = setmetatable({}, { __metatable = "locked" })
print(getmetatable(protected), pcall(setmetatable, protected, {}))
print(getmetatable("abc").__index == string, ("x"):upper())
do
  local closed = {}
  do
    local h <close> = setmetatable({}, { __close = function(_, e) closed[#closed + 1] = "closed " .. tostring(e) end })
  end
  print(closed[1])
end
print(pcall(function() local bad <close> = 42 end))
local idx = setmetatable({}, { __index = { inherited = "yes" } })
print(idx.inherited, rawget(idx, "inherited"))
print(rawequal(a, a), rawequal(a, new(1)), rawlen({ 1, 2 }), rawlen("abc"))
local mode = setmetatable({}, { __mode = "v" })
mode[1] = {}
collectgarbage()
print(mode[1])
local seq = setmetatable({}, { __index = function(_, i) if i <= 3 then return i * 10 end end })
print(table.unpack({ 1, 2, 3 }), select(-1, 1, 2, 3))
print(table.concat({ seq[1], seq[2], seq[3] }, ","))
