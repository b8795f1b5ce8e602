-- io in the sandbox writes to the output (stdout and stderr alike); what it writes is stock's.
io.write("a", 1, " ", 2.5, " ", 1.0, " ", -0.0, " ", 1e100, " ", math.mininteger, "\n")
print(io.write("chained ") == io.stdout, io.stdout:write("method\n") == io.stdout)
io.stdout:write("x", 2, "\n"):write("again\n")
print(io.type(io.stdout), io.type(io.stderr), io.type(42), io.type({}), io.output() == io.stdout)
print(pcall(io.write, {}))
print(pcall(io.write, "ok ", nil))
print(select("#", io.stdout:setvbuf("no")), io.stdout:flush() == io.stdout)
print(getmetatable(io.stdout) == getmetatable(io.stderr), getmetatable(io.stdout).__name)
-- bytes that are not UTF-8 come out as they are, beside real characters of every plane
io.write("raw \xff\xfe\x80 bytes, a \xed\xa0\x80 surrogate, \u{10FFFF} \u{10FF80} \u{E000} é 🃏\n")
print("a\xffb", ("\xf4\x8f\xbf\xbf"):len())
-- a test has no input (stdin at its end, as under `lua5.4 < /dev/null`) and only the C locale
print(io.read(), io.stdin:read("l"), io.type(io.stdin), io.input() == io.stdin)
for line in io.lines() do print("never", line) end
print(os.setlocale(), os.setlocale("C"), os.setlocale("POSIX", "numeric"), os.setlocale("xx_YY"))
print(pcall(os.setlocale, "C", "bogus"))
print(tonumber("3,4"), tonumber("3.4"))
-- errors name the function as it was called, or by its global name under pcall
print(select(2, pcall(function() io.write({}) end)))
print(select(2, pcall(function() io.stdout:write("a", {}) end)))
print(select(2, pcall(function() os.setlocale("C", "bogus") end)))
print(select(2, pcall(function() local w = io.write; w(1, nil) end)))
print(pcall(package.searchpath, {}))
