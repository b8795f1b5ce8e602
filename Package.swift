// swift-tools-version:6.0
// stackplay: a scriptable event-replay engine for card-stack interfaces.
// Dependencies point one way: stackplay -> StackplayRunner -> {Codegen -> Exploration, Workers -> TestResults,
// Bindings -> {CEmbeddedLua, LuaRuntime, Exploration -> Traces -> TestResults -> StackModel}}, and below
// LuaRuntime the C in layers: {CLuaSandbox, CLuaSnapshot} -> CLuaRuntime -> {CLua, CSystemCalls}, CProcess
// alone (docs/development.md's target map; tools/check-layers keeps each target's private headers its own).
// StackplayRunner never imports LuaRuntime: it speaks Bindings' words (RunnerVocabulary.swift).
import PackageDescription

// The project's own C: every warning clang's -Wall -Wextra names is an error, and `assert`s hold in
// debug builds only (NDEBUG in release: the checks of the Lua manual's preconditions and of the
// arena's invariants cost nothing in the binary users run). Unsafe flags are allowed in a root
// package only: StackModel, the product other packages depend on, has no C target.
let cChecks: [CSetting] = [
    .unsafeFlags(["-Wall", "-Wextra", "-Werror"]),
    .define("NDEBUG", .when(configuration: .release)),
]

let package = Package(
    name: "stackplay",
    products: [
        .executable(name: "stackplay", targets: ["stackplay"]),
        .executable(name: "stackplay-studio", targets: ["stackplay-studio"]),
        .library(name: "StackModel", targets: ["StackModel"]),
        // The Lua C module (`require "stackplay"`): `make lua-module` builds it as stackplay.so.
        .library(name: "stackplay-lua", type: .dynamic, targets: ["StackplayLua", "CStackplayLua"]),
    ],
    targets: [
        // Lua 5.4 from Debian's liblua5.4-dev, its macros re-declared in shim.h.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // The C side of the Lua boundary: protected calls and the message handler, the counting
        // allocator with its small-block pool (runtime.c), the trampolines (trampolines.c), the
        // budgets' hook (budget.c), the CPU-time watchdog, the fixed hash seed; declared in
        // include/CLuaRuntime.h. It names no layer above it: an arena registers itself as a state's
        // block source, and the watchdog's "on stuck" hook is whatever LuaRuntime registers.
        .target(name: "CLuaRuntime", dependencies: ["CLua", "CSystemCalls"], cSettings: cChecks),
        // The sandbox's deterministic library (sandbox*.c, include/sandbox.h): next/pairs (reading
        // Lua's table layout in sandbox_scan.c, off with STACKPLAY_PLAIN_NEXT or -DSTACKPLAY_NO_LAYOUT),
        // object numbers, sort, os.*, load, what stays of `debug`, math.random's seed and state.
        .target(
            name: "CLuaSandbox", dependencies: ["CLua", "CLuaRuntime", "CSystemCalls"], cSettings: cChecks),
        // Snapshot-restored states (arena*.c, include/arena.h): the fixed-address arena, its allocator
        // and ledgers, the tracking of written pages, the invariant checks (arena_check.c: debug builds).
        .target(
            name: "CLuaSnapshot", dependencies: ["CLua", "CLuaRuntime", "CSystemCalls"], cSettings: cChecks),
        // Starting the process over (restart.c, include/restart.h): the crash handlers and the exec,
        // no Lua. LuaRuntime registers stackplay_restart_now as the watchdog's "on stuck" hook.
        .target(name: "CProcess", cSettings: cChecks),
        // The libc calls a signal can interrupt, behind one EINTR rule (Syscalls.swift), and where
        // a forked worker starts (over CSystemCalls' cores.c: CPU sets are C macros).
        .target(name: "CSystemCalls", cSettings: cChecks),
        .target(name: "SystemCalls", dependencies: ["CSystemCalls"]),
        // Pure Swift, the words every layer shares: did-you-mean suggestions, numbers as people
        // write them. StackModel re-exports it.
        .target(name: "Wording"),
        // Pure Swift: geometry, springs, clock, touches and the three components. No Lua here.
        // No unsafe flags, so that packages can depend on it (Tests/DependentPackage builds one);
        // the hot stored properties skip exclusivity checks with `@exclusivity(unchecked)`.
        .target(name: "StackModel", dependencies: ["Wording"]),
        // Pure Swift: what a test is and how it went (TestCase, TestResult, ScreenVariant), Codable so
        // that the worker's wire and the `--json` report are one model. No Lua here.
        .target(name: "TestResults", dependencies: ["StackModel"]),
        // Pure Swift: traces of a screen's inputs and frames (JSON Lines), replay, SVG pictures.
        // Its viewer page (Viewer/*.css, *.js) is compiled in through EmbeddedViewer.swift (`make viewer`).
        .target(
            name: "Traces", dependencies: ["StackModel", "TestResults", "SystemCalls"], exclude: ["Viewer"]),
        // Pure Swift: `stackplay explore`'s engine: generated actions, invariants, shrinking, and
        // the shrunk run written out as a Lua scenario. No Lua here (Bindings runs the files).
        .target(name: "Exploration", dependencies: ["StackModel", "Traces"]),
        // Pure Swift: `stackplay codegen` and the studio's recorder: a trace written back as the Lua
        // scenario a person would write, each call checked against the trace's own model. No Lua here.
        .target(name: "Codegen", dependencies: ["StackModel", "Traces", "Exploration"]),
        // The only Swift that touches a lua_State (over the C layers above): states, the stack,
        // values, errors, budgets, compiled chunks, snapshots. Knows nothing of the models.
        .target(
            name: "LuaRuntime",
            dependencies: [
                "CLua", "CLuaRuntime", "CLuaSandbox", "CLuaSnapshot", "CProcess", "Wording", "SystemCalls",
            ]),
        // Bindings' own Lua (Sources/Bindings/Lua/*.lua) compiled to bytecode, as C data (chunks.c,
        // which `make lua` writes): workers load it without parsing. Data only: no Lua calls here.
        .target(name: "CEmbeddedLua", cSettings: cChecks),
        // The Lua API over StackModel, through LuaRuntime's typed helpers.
        // Its own Lua (Lua/*.lua) is compiled in through EmbeddedLua.swift and CEmbeddedLua, which
        // `make lua` writes.
        .target(
            name: "Bindings",
            dependencies: [
                "LuaRuntime", "StackModel", "TestResults", "Traces", "Exploration", "CEmbeddedLua",
            ],
            exclude: ["Lua"]),
        // The worker processes: the pool (forked workers, their pipes and doorbell, the job order)
        // and the wire its requests and answers are written in. No Lua here: what a worker runs and
        // what the run reports reach it as closures (WorkerPool.Hooks).
        .target(name: "Workers", dependencies: ["SystemCalls", "StackModel", "TestResults"]),
        // The runner: options and config, discovery, selection and shards, the test runner's core,
        // reporters, `check`, traces/golden/artifact outputs. Unit-tested in StackplayRunnerTests.
        // It runs Lua only through Bindings (no LuaRuntime here).
        .target(
            name: "StackplayRunner",
            dependencies: [
                "Bindings", "Workers", "SystemCalls", "StackModel", "TestResults", "Traces", "Exploration",
                "Wording", "Codegen",
            ]),
        // The thin executable: hands the arguments to StackplayRunner and exits with its code.
        .executableTarget(name: "stackplay", dependencies: ["StackplayRunner"]),
        // CivetWeb, the embeddable HTTP and WebSocket server, from Debian (a shared library only,
        // no pkg-config file): `stackplay studio`'s server.
        .systemLibrary(name: "CCivetweb", providers: [.apt(["libcivetweb-dev"])]),
        // `stackplay studio`: the page's server (the live screen, the tests' runs, Record). Its page
        // (Page/*.html, *.css, *.js) is compiled in through EmbeddedPage.swift (`make viewer`).
        .target(
            name: "Studio",
            dependencies: ["CCivetweb", "StackModel", "Traces", "TestResults", "Codegen", "StackplayRunner"],
            exclude: ["Page"]),
        // Its own dynamically linked executable, which `stackplay studio` starts: the static
        // `stackplay` (make release) links no HTTP server and starts no faster or slower for it.
        .executableTarget(name: "stackplay-studio", dependencies: ["Studio"]),
        // The Lua C module: luaopen_stackplay in C (it raises), the module itself in Swift.
        .target(name: "CStackplayLua", dependencies: ["CLua"], cSettings: cChecks),
        .target(name: "StackplayLua", dependencies: ["Bindings"]),
        // `make bench`: events per second, release build.
        .executableTarget(
            name: "stackplay-bench",
            dependencies: [
                "StackplayRunner", "Bindings", "LuaRuntime", "StackModel", "CBenchBaseline", "Exploration",
            ]),
        // The bench's floor: a fresh Lua state in plain C.
        .target(name: "CBenchBaseline", dependencies: ["CLua", "CSystemCalls"], cSettings: cChecks),
        .testTarget(name: "StackModelTests", dependencies: ["StackModel"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "StackModel", "TestResults"]),
        .testTarget(name: "ExplorationTests", dependencies: ["Exploration", "StackModel", "Traces"]),
        .testTarget(name: "CodegenTests", dependencies: ["Codegen", "StackModel", "Traces"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(
            name: "LuaRuntimeTests", dependencies: ["LuaRuntime", "CLua", "CLuaSnapshot", "CProcess"]),
        .testTarget(
            name: "BindingsTests",
            dependencies: [
                "Bindings", "StackplayRunner", "LuaRuntime", "StackModel", "CLuaRuntime", "CLuaSandbox",
                "TestResults",
            ]),
        // The pool, its job order and its wire; Bindings for the Lua watchdog's stop bit it reads.
        .testTarget(
            name: "WorkersTests", dependencies: ["Workers", "TestResults", "StackModel", "Bindings"]),
        .testTarget(
            name: "StackplayRunnerTests",
            dependencies: ["StackplayRunner", "Workers", "Bindings", "TestResults", "Traces"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio", "StackModel", "Traces"]),
        // End-to-end: runs the built `stackplay` binary (the dependency makes sure it is built).
        .testTarget(
            name: "StackplayTests", dependencies: ["stackplay", "stackplay-studio"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
