print(utf8.char(72, 228, 8364, 128512), utf8.len("häll€"), utf8.len("\xff"), utf8.codepoint("häll€", 1, -1))
for p, c in utf8.codes("aé€") do print(p, c) end
print(utf8.offset("aé€x", 3), utf8.offset("aé€x", -1), utf8.len("aé€x", 2), pcall(utf8.codepoint, "\xff"))
print(pcall(utf8.char, -1), pcall(utf8.offset, "abc", 1, 5), utf8.len(""), utf8.char())
print(pcall(function() for _ in utf8.codes("a\xffb") do end end))
