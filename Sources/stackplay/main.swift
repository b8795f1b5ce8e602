import Bindings

print("stackplay (\(BindingsInfo.luaVersion))")
