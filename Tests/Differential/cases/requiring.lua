-- require as the manual's 6.3 says. Stock's path has system folders and C searchers; the snippet
-- keeps to what the sandbox has (./?.lua;./?/init.lua, the preload and Lua searchers).
package.path = "./?.lua;./?/init.lua"
package.cpath = ""
for i = #package.searchers, 3, -1 do package.searchers[i] = nil end
print(#package.searchers, type(package.searchpath), package.config == "/\n;\n?\n!\n-\n")
-- a package's init.lua, two results
local pkg, file = require "modules.pkg"
print(pkg.name, pkg.file, file, pkg.helper.twice(21), pkg.helper.args[1], pkg.helper.args[2])
print(select("#", require "modules.pkg"), require "modules.pkg" == pkg)
-- a name with '/' passes through
print(require "modules/sub/mod", loads)
print(require "modules.sub.mod", loads)
print(package.loaded["modules/sub/mod"], package.loaded["modules.sub.mod"])
-- a module that returns nothing is true; one that sets package.loaded keeps its value
print(require "modules.sub.none", shared_flag)
print(require "modules.sub.self")
-- the standard libraries
print(require "string" == string, require "table" == table, require "coroutine" == coroutine,
  require "math" == math, require "utf8" == utf8, require "_G" == _G, require "package" == package)
print(select("#", require "string"))
-- preload
package.preload.virtual = function(...) return { ... } end
local v, data = require "virtual"
print(v[1], v[2], data)
-- everything tried, in order
print(pcall(require, "nothere"))
print(pcall(require, "modules.nothere"))
print(pcall(require, "modules.sub.broken"))
print(pcall(require))
print(pcall(require, {}))
print(package.searchpath("modules.sub.mod", package.path))
print(package.searchpath("modules_sub_mod", "./?.lua", "_", "/"))
print(package.searchpath("x", "./a/?.lua;./b/?.x;?"))
package.path = "./modules/?.lua"
print(require "sub.mod", select(2, require "pkg.helper"))
package.path = 42
print(pcall(require, "zz"))
package.path = "./?.lua"
package.searchers = nil
print(pcall(require, "zz2"))
