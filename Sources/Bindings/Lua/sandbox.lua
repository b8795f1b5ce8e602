-- The stackplay sandbox: runs first in every Lua state, before the API and the prelude.
--
-- It trims the standard libraries to what scripts may reach. Making everything they can reach
-- deterministic (the same script gives the same values on every run and every machine) is C:
-- Sources/CLuaSandbox/sandbox.c has already replaced `next`, `pairs`, `tostring`, `print`,
-- `string.format`, `string.dump`, `table.sort`, `load`, `warn`, `setmetatable`, `xpcall`,
-- `math.randomseed` and `os` (`time`, `date` and `clock` only) when this chunk runs; see there.
-- Its argument is a table of Swift functions: `search` (package.searchpath's file lookup, confined
-- to the scripts' folder), `cycle` (whether a module is already loading) and `write` (a string to
-- the test's output, as `print` writes).
local internal = ...
local search, cycle, write = internal.search, internal.cycle, internal.write

local loadfile, error, type, format, select, rawget = loadfile, error, type, string.format, select, rawget
local mathtype, setmetatable, maxinteger = math.type, setmetatable, math.maxinteger

local getinfo = debug.getinfo

--- `bad argument #n to 'fn' (string expected, got ...)` unless `value` is a string (or a number,
--- which becomes one), raised at the caller of the library function as stock's luaL_checkstring
--- does, naming it as stock does: as it was called (`write`), else by its global name
--- (`io.write`, under pcall). The library function is `depth` frames above (1: the caller).
local function checkstring(value, n, global, present, depth)
  if type(value) == "number" then return format(mathtype(value) == "integer" and "%d" or "%.14g", value) end
  if type(value) ~= "string" then
    depth = depth or 1
    local info = getinfo(depth + 1, "n")
    error(format("bad argument #%d to '%s' (string expected, got %s)", n, info and info.name or global,
      (value == nil and not present) and "no value" or type(value)), depth + 2)
  end
  return value
end

-- Loading code: `require` and `package` as the manual's §6.3 says, for Lua files under the
-- scripts' folder (`./` is that folder); no C modules (no `cpath` searchers, no `loadlib`) ------

_G.dofile, _G.loadfile = nil, nil

local package = {
  config = "/\n;\n?\n!\n-\n",
  path = "./?.lua;./?/init.lua",
  cpath = "",
  preload = {},
}
local loaded = {
  _G = _G, package = package, coroutine = coroutine, table = table, os = os, string = string,
  math = math, utf8 = utf8, debug = debug,
}
package.loaded = loaded
local preload = package.preload

function package.searchpath(name, path, sep, rep)
  -- (stock's C checks the path first)
  path = checkstring(path, 2, "package.searchpath")
  name = checkstring(name, 1, "package.searchpath")
  sep = sep == nil and "." or checkstring(sep, 3, "package.searchpath")
  rep = rep == nil and "/" or checkstring(rep, 4, "package.searchpath")
  return search(name, path, sep, rep)
end

local function preload_searcher(name)
  local loader = preload[name]
  if loader == nil then return format("no field package.preload['%s']", name) end
  return loader, ":preload:"
end

local function lua_searcher(name)
  local path = package.path
  if type(path) == "number" then path = checkstring(path) end
  if type(path) ~= "string" then error("'package.path' must be a string", 0) end
  local file, tried = search(name, path, ".", "/")
  if not file then return tried end
  local chain = cycle(name, file)
  if chain then error(chain, 0) end
  local chunk, problem = loadfile(file, "t")
  if not chunk then
    error(format("error loading module '%s' from file '%s':\n\t%s", name, file, problem), 0)
  end
  return chunk, file
end

package.searchers = { preload_searcher, lua_searcher }

_G.package = package
_G.require = function(name)
  name = checkstring(name, 1, "require")
  local value = loaded[name]
  if value then return value end
  local searchers = package.searchers
  if type(searchers) ~= "table" then error("'package.searchers' must be a table", 2) end
  local tried, loader, data = "", nil, nil
  for i = 1, maxinteger do
    local searcher = rawget(searchers, i)
    if searcher == nil then error(format("module '%s' not found:%s", name, tried), 2) end
    loader, data = searcher(name)
    if type(loader) == "function" then break end
    if type(loader) == "string" or type(loader) == "number" then tried = tried .. "\n\t" .. loader end
  end
  value = loader(name, data)
  if value ~= nil then loaded[name] = value end
  if loaded[name] == nil then loaded[name] = true end
  return loaded[name], data
end

-- Output: `io` writes to the test's output, as `print` does (stderr too); it opens no files and
-- reads nothing (stdin is at its end) -------------------------------------------------------------

local file_methods = {}
local file_meta = { __name = "FILE*", __index = file_methods }
local stdin = setmetatable({}, file_meta)
local stdout = setmetatable({}, file_meta)
local stderr = setmetatable({}, file_meta)
local names = { [stdin] = "file (stdin)", [stdout] = "file (stdout)", [stderr] = "file (stderr)" }
file_meta.__tostring = function(f) return names[f] end

local function write_all(f, fn, ...)
  for i = 1, select("#", ...) do
    write(checkstring((select(i, ...)), i, fn, true, 2))
  end
  return f
end

local function checkfile(f, fn)
  if names[f] == nil then
    error(format("bad argument #1 to '%s' (FILE* expected, got %s)", fn, f == nil and "no value" or type(f)), 3)
  end
end

function file_methods.write(f, ...)
  checkfile(f, "write")
  local file = write_all(f, "write", ...)
  return file
end
function file_methods.flush(f) checkfile(f, "flush"); return true end
function file_methods.setvbuf(f) checkfile(f, "setvbuf"); return true end
function file_methods.close(f) checkfile(f, "close"); return nil, "cannot close standard file" end
-- a test has no input: stdin is at its end
function file_methods.read(f) checkfile(f, "read"); return nil end
function file_methods.lines(f)
  checkfile(f, "lines")
  return function() return nil end
end

_G.io = {
  stdout = stdout,
  stderr = stderr,
  stdin = stdin,
  write = function(...)
    local file = write_all(stdout, "io.write", ...)
    return file
  end,
  read = function() return nil end,
  input = function(f)
    if f ~= nil and f ~= stdin then error("stackplay scripts read no files", 2) end
    return stdin
  end,
  lines = function(name)
    if name ~= nil then error(checkstring(name, 1, "io.lines") .. ": stackplay scripts open no files", 2) end
    return function() return nil end
  end,
  type = function(f) return names[f] and "file" or nil end,
  output = function(f)
    if f ~= nil and f ~= stdout then error("stackplay scripts write only to the test's output", 2) end
    return stdout
  end,
  open = function(name)
    name = checkstring(name, 1, "io.open")
    return nil, name .. ": stackplay scripts open no files (require loads modules)", 1
  end,
}
loaded.io = _G.io

-- The locale: always "C" (`os.setlocale` answers as stock does on a machine with no other locale)

local categories = { all = true, collate = true, ctype = true, monetary = true, numeric = true, time = true }
os.setlocale = function(locale, category)
  if locale ~= nil then locale = checkstring(locale, 1, "setlocale") end
  if category ~= nil then
    category = checkstring(category, 2, "setlocale")
    if not categories[category] then
      local info = getinfo(1, "n")
      error(format("bad argument #2 to '%s' (invalid option '%s')", info and info.name or "os.setlocale", category), 2)
    end
  end
  if locale == nil or locale == "" or locale == "C" or locale == "POSIX" then return "C" end
  return nil
end
