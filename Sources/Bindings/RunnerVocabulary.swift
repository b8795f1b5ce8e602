import LuaRuntime

// The few words of LuaRuntime the runner (StackplayRunner) speaks, named here so that it imports
// Bindings and never LuaRuntime (issue 42: dependencies point one way). Each is a value or a
// process-wide switch; none holds or reaches a lua_State. What runs Lua for the runner is
// Bindings' own code: ScriptTests (a file's tests), StatePolicy (where a test's state comes from)
// and ScriptRunner+Files (a config file's value, a compile-only check).

/// A script's budget: seconds of CPU time and bytes of memory (`--cpu-budget`, `--memory-budget`).
public typealias ScriptBudget = LuaBudget

/// A value a script returned, as Swift reads it: what `.stackplay.lua` returns.
public typealias ScriptValue = LuaValue

/// A Lua error or a budget stop as a value: its kind, its message and its traceback.
public typealias ScriptFailure = LuaFailure

/// The stackplay release and the Lua version it embeds, named once (`--version`, the reports).
public typealias ReleaseVersions = StackplayVersion

/// The CPU-time watchdog's process-wide side: where a stop inside C or Swift code is said (a
/// worker's answer pipe, or stderr and an exit status), and the restart of a run that loaded a
/// lone file in its own process.
public typealias ScriptWatchdog = Watchdog

/// Script file names that are not UTF-8, as text (`\xHH` for each byte that is not): discovery
/// names a file so, and the loader turns the name back into its bytes.
public typealias ScriptFileName = EscapedName
