-- The stackplay sandbox: runs first in every Lua state, before the API and the prelude.
--
-- It trims the standard libraries to what scripts may reach. Making everything they can reach
-- deterministic (the same script gives the same values on every run and every machine) is C:
-- Sources/CLuaRuntime/sandbox.c has already replaced `next`, `pairs`, `tostring`, `print`,
-- `string.format`, `string.dump`, `table.sort`, `load`, `warn`, `setmetatable`, `xpcall`,
-- `math.randomseed` and `os` (`time`, `date` and `clock` only) when this chunk runs; see there.
-- Its argument is a table of Swift functions: `locate` (require's file lookup).
local internal = ...
local locate = internal.locate

local loadfile, error, type, format = loadfile, error, type, string.format

-- Loading code -------------------------------------------------------------------------------

_G.dofile, _G.loadfile = nil, nil

local loaded = {}
_G.require = function(name)
  if type(name) ~= "string" then
    error(format("bad argument #1 to 'require' (string expected, got %s)",
      name == nil and "no value" or type(name)), 2)
  end
  local value = loaded[name]
  if value ~= nil then return value end
  local path, message = locate(name)
  if not path then error(message, 2) end
  local chunk, problem = loadfile(path, "t")
  if not chunk then error(problem, 0) end
  value = chunk(name, path)
  if value == nil then value = true end
  loaded[name] = value
  return value
end
