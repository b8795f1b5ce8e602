-- luacheck settings for stackplay scenario scripts, shipped with stackplay (`make install` puts
-- it at /usr/local/share/lua/5.4/stackplay/luacheckrc.lua). In your project's `.luacheckrc`,
-- one line:
--
--   return dofile "/usr/local/share/lua/5.4/stackplay/luacheckrc.lua"
--
-- Options you set above that line stay; the returned table adds two standards and picks one:
--   stackplay          the globals the runner adds: `std = "lua54+stackplay"`
--   stackplay_sandbox  exactly what a script run by `stackplay` can reach: the sandbox's part of
--                      Lua 5.4 (no dofile, loadfile; of os only clock, time, date, difftime,
--                      setlocale; of io the output; of debug what reads; package without C
--                      modules) and the
--                      runner's globals: `std = "stackplay_sandbox"`, stricter
-- To keep your own `std`, take only the standards:
--   stds.stackplay = dofile("/usr/local/share/lua/5.4/stackplay/luacheckrc.lua").stds.stackplay

local function names(list)
  local set = {}
  for _, name in ipairs(list) do set[name] = {} end
  return set
end

--- Fields of a library that any value may have beyond those named (luacheck checks none of them).
local open = { other_fields = true }

--- The runner's globals: the `stackplay` table, the tests and `expect`.
local api = {
  stackplay = { fields = names { "screen", "replay", "version", "show" } },
  test = {}, skip = {}, only = {}, before_each = {}, after_each = {}, expect = {},
  explore = {}, -- `stackplay explore`'s explorations
}

local sandbox = {}
for name, definition in pairs(api) do sandbox[name] = definition end
for name, definition in pairs(names {
  "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load", "next",
  "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select",
  "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall",
}) do sandbox[name] = definition end
sandbox.string, sandbox.table, sandbox.math, sandbox.utf8, sandbox.coroutine = open, open, open, open, open
sandbox.os = { fields = names { "clock", "time", "date", "difftime", "setlocale" } }
sandbox.io = {
  fields = names { "write", "read", "lines", "stdin", "stdout", "stderr", "type", "input", "output", "open" },
}
sandbox.debug = {
  fields = names {
    "traceback", "getinfo", "getmetatable", "setmetatable", "getupvalue", "setupvalue", "upvalueid", "upvaluejoin",
  },
}
sandbox.package = {
  fields = {
    path = { read_only = false }, cpath = { read_only = false }, config = {},
    loaded = open, preload = open, searchers = open, searchpath = {},
  },
}

return {
  stds = {
    stackplay = { read_globals = api },
    stackplay_sandbox = { read_globals = sandbox },
  },
  std = "lua54+stackplay",
}
