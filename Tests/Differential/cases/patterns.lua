print(("hello world"):match("^(%w+)"), ("key = value"):match("(%w+)%s*=%s*(%w+)"))
print(("THE (quick) fox"):find("%((%a+)%)"), ("abc"):match("()b()"))
for w in ("one two three"):gmatch("%a+") do print(w) end
print(("hello"):gsub("l", "L"), ("hello"):gsub("l", "L", 1), ("abc"):gsub("%w", "%0%0"))
print(("$name is $age"):gsub("%$(%w+)", { name = "Ann", age = 3 }))
print(("abc"):gsub("", "-"), ("x = 1"):gsub("(%w+) = (%w+)", "%2 = %1"))
print(("f(a(b)c)d"):match("%b()"), ("THE END"):match("%f[%w]%w+"), ("  trim  "):match("^%s*(.-)%s*$"))
print(pcall(string.find, "a", "[a"), pcall(string.rep, "x", -1), pcall(string.gsub, "x", "(", ""))
print(pcall(string.match, "a", "%"), pcall(string.gsub, "abc", "b", "%9"))
print(("2024-01-15"):match("(%d+)-(%d+)-(%d+)"))
print(("a.b.c"):gsub("%.", "/"), ("CamelCaseName"):gsub("(%u)", " %1"))
local parts = {}
for k, v in ("a=1, b=2, c=3"):gmatch("(%w+)=(%w+)") do parts[#parts + 1] = k .. v end
print(table.concat(parts, ";"))
print(#utf8.charpattern, ("héllo"):match(utf8.charpattern, 2))
