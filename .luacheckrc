-- luacheck for stackplay's own scenarios and specs: `luacheck scripts spec` (`make lint-lua`).
-- The standards are the ones stackplay ships (lint/luacheckrc.lua, installed next to the Lua
-- module); `require` here looks next to this file first.
local shipped = require "lint.luacheckrc"
stds.stackplay = shipped.stds.stackplay
stds.stackplay_sandbox = shipped.stds.stackplay_sandbox

max_line_length = 120
-- Scenario scripts run in the runner's sandbox: luacheck flags what they could not reach there.
std = "stackplay_sandbox"
-- busted specs load stackplay as a library (`require "stackplay"`) in plain Lua 5.4.
files["spec"] = { std = "lua54+busted" }
files["lint"] = { std = "lua54" }
-- stackplay's own Lua: the sandbox rebuilds the globals a script sees (pairs, print, load, os, the
-- string and math functions it makes deterministic) and the prelude defines the runner's globals
-- in the script's environment (_ENV), so those writes are the point; everything else is checked.
files["Sources/Bindings/Lua"] = {
  std = "lua54",
  globals = { "_ENV", "_G", "string", "math", "os", "table", "stackplay" },
}
