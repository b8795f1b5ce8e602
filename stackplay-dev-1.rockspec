-- stackplay as a LuaRocks package, built from this checkout: `luarocks --lua-version=5.4 make`
-- (offline: the build is `make lua-module`, a Swift build with no outside packages). Needs the
-- Swift 6 toolchain and liblua5.4-dev on the machine.
rockspec_format = "3.0"
package = "stackplay"
version = "dev-1"
source = {
  url = "git+file://.",
}
description = {
  summary = "Scriptable event replay for card-stack interfaces, as a Lua 5.4 module.",
  detailed = [[
    Headless models of NotificationStack, StickyStackedCards and WalletCardStack, driven from
    Lua: `local stackplay = require "stackplay"`, then stackplay.screen { ... }, components,
    gestures, time and observations. Runs in the host's Lua state without the stackplay runner's
    sandbox and budgets.
  ]],
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
build = {
  type = "make",
  build_target = "lua-module",
  install_target = "install-lua-module",
  install_variables = {
    LUA_LIBDIR = "$(LIBDIR)",
    LUA_SHAREDIR = "$(LUADIR)",
    PREFIX = "$(PREFIX)",
  },
}
