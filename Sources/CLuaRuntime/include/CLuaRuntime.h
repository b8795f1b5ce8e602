// The C side of stackplay's Lua boundary: what Swift calls, declared; the bodies are in runtime.c,
// budget.c, trampolines.c, watchdog.c and seed.c.
//
// Lua raises errors with longjmp, which must never cross a Swift frame. So everything that may
// raise on purpose lives here: the trampolines that turn a Swift function's -2 sentinel into
// lua_error (trampolines.c), the counting allocator behind the memory budget (runtime.c), the
// count hook behind the CPU budget (budget.c), and the message handler. Only LuaRuntime (Swift)
// imports this module; the C layers above it (CLuaSandbox, CLuaSnapshot) include this header,
// never its private ones, and it names none of them: an arena registers itself as a state's block
// source (below), and the watchdog's "on stuck" hook is whatever LuaRuntime registers.
#ifndef STACKPLAY_CLUA_RUNTIME_H
#define STACKPLAY_CLUA_RUNTIME_H

#include <lua.h>
#include <stddef.h>

/// What a Swift function returns to say "my error message is on top of the stack: raise it".
#define STACKPLAY_RAISE (-2)

// MARK: States and their budgets

enum { STACKPLAY_STOP_NONE = 0, STACKPLAY_STOP_CPU = 1, STACKPLAY_STOP_MEMORY = 2 };

/// Calls the Swift closure `box` for the Lua function running on `L`. Returns the number of
/// results, or STACKPLAY_RAISE with the error message pushed.
typedef int (*stackplay_dispatch_fn)(lua_State *L, void *box);

/// A new state whose allocator counts into a fresh guard, reachable through the extra space.
/// Exempt from the budgets until stackplay_pcall runs a chunk.
lua_State *stackplay_newstate(size_t limit, double cpu_budget, stackplay_dispatch_fn dispatch, void (*release)(void *));

/// Closes the state. Finalizers the script left behind still run under a fresh CPU budget.
void stackplay_close(lua_State *L);

/// Pushes the `__gc` for object metatables (the host's variant in a host's state).
void stackplay_push_release_gc(lua_State *L);

/// Pushes a full userdata holding `object` (already retained) with the metatable stored in the
/// registry under the light key `metatable` (lua_rawsetp). Returns 0 if there is no such metatable.
int stackplay_push_object(lua_State *L, void *object, const void *metatable);

/// The object slot of the userdata at `i` if its metatable is the one under `metatable`, else NULL.
/// `*dead` tells a released object (slot NULL) from a wrong type.
void **stackplay_object_slot(lua_State *L, int i, const void *metatable);

/// Pushes a Lua function calling the Swift closure `box`, which the caller keeps alive for the
/// whole process (never in a host's state: it has no guard).
void stackplay_push_static_function(lua_State *L, void *box);

/// The Lua thread of the innermost Swift call running on this OS thread (NULL when none), and in
/// `serial` how many Swift calls have begun on this OS thread: it differs between two calls.
lua_State *stackplay_running_call(unsigned long long *serial);

/// A method's fast path returns this when it leaves the call to the method's ordinary closure
/// (an argument of another shape, any error): it must not have changed anything before.
#define STACKPLAY_FALLBACK (-3)

/// A hot method's fast path: a context-free Swift function given the object of `self` (already
/// checked against the class's metatable, alive, unretained). It reads its arguments with
/// accessors that do not raise, pushes its results and returns their count, or returns
/// STACKPLAY_FALLBACK having changed nothing.
typedef int (*stackplay_fast_fn)(lua_State *L, void *object);

/// Replaces the method closure on top (stackplay_trampoline's or stackplay_static_trampoline's,
/// never a host's) with one that tries `fast` first for objects whose metatable is the table at
/// the absolute index `metatable`.
void stackplay_push_fast_method(lua_State *L, stackplay_fast_fn fast, int metatable);

/// Marks `L`, a state stackplay did not create, as a host's state (once; later calls keep the first).
void stackplay_host_install(lua_State *L, stackplay_dispatch_fn dispatch, void (*release)(void *));

/// Pushes a Lua function that calls the Swift closure `box` (retained; released by its `__gc`).
void stackplay_push_swift_function(lua_State *L, void *box);

/// Pushes `message` prefixed with the calling Lua function's "chunkname:line: ", as luaL_error does.
void stackplay_push_error(lua_State *L, const char *message, size_t size);

/// Calls the function below `nargs` arguments under a message handler, with the budgets
/// enforced and the CPU deadline set from now. Returns the lua_pcall status; on error the
/// message (with traceback) is on top.
int stackplay_pcall(lua_State *L, int nargs, int nresults);

/// Loads `path` as a text chunk named "@path". Returns the status; the chunk or message on top.
/// A message that does not name the file ("C stack overflow" from the parser, "not enough
/// memory") gets "path: " in front, so every load error says which script it is about. (Lua
/// shortens a long path to "...tail" in its own messages, so the test is for the file's name.)
int stackplay_loadfile(lua_State *L, const char *path);

int stackplay_loadstring(lua_State *L, const char *code, size_t size, const char *name);

/// Bytecode that stackplay itself compiled in this process (the prelude), loaded without parsing.
/// Scripts can never load binary chunks: their `load` is text only.
int stackplay_loadbytecode(lua_State *L, const char *code, size_t size, const char *name);

/// The linked Lua library's own identification (`lua_ident`: `$LuaVersion: Lua 5.4.4  Copyright ...`),
/// which names the exact release the running library is, where `LUA_VERSION_NUM` says only 504.
const char *stackplay_lua_ident(void);

/// A growable byte buffer for lua_dump.
typedef struct stackplay_buffer { char *data; size_t size; size_t capacity; } stackplay_buffer;

/// Dumps the function on top of the stack into `b` (the caller frees `b->data`); 0 on success.
int stackplay_dump(lua_State *L, stackplay_buffer *b);

/// Opens the sandbox's standard libraries: base, string, table, math, utf8, coroutine and os (the
/// caller trims os). Runs while the guard is exempt, so these `m` calls cannot raise.
void stackplay_open_libraries(lua_State *L);

/// Sets the budget texts the stop messages end with.
void stackplay_set_budget_texts(lua_State *L, const char *cpu, const char *memory);

const char *stackplay_stop(lua_State *L);

int stackplay_stopped(lua_State *L);

size_t stackplay_memory_used(lua_State *L);

size_t stackplay_memory_charged(lua_State *L);

/// Marks the state stopped for memory (Swift was about to make more than the budget allows): the
/// trampoline raises the memory stop once the Swift call returns.
void stackplay_memory_exhausted(lua_State *L);

/// The bytes the memory budget still allows (Lua's and Swift's together) inside a chunk; "unlimited" without
/// a budget or outside a chunk (stackplay reading results): PTRDIFF_MAX, Int.max in Swift.
size_t stackplay_memory_room(lua_State *L);

/// Installs the Swift meter (retained; released at close) that estimates the bytes the state's
/// Swift objects hold. The trampoline calls `measure(meter)` after Swift calls.
void stackplay_set_meter(lua_State *L, size_t (*measure)(void *), void *meter);

/// Adds `bytes` of Swift memory (a screen or cards just made) to the charge now, and asks for a
/// full measure after the running Swift call. Past the budget, the trampoline raises the memory
/// stop once the Swift frames have returned.
void stackplay_charge(lua_State *L, size_t bytes);

/// Where a process whose Lua thread is stuck in C or Swift code past its CPU budget says so
/// before it ends: `fd` >= 0 is a worker's answer pipe (a WorkerPool frame with bit 62 of the
/// length set, then the message); -1 (the default) writes "stackplay: message" to stderr.
void stackplay_watchdog_answer_to(int fd);

/// Notes what the test running in `L` has printed: `length` bytes at `bytes` (readable until the
/// next note or the state's close) and `dropped` bytes more not kept. A worker stopped inside C or
/// Swift sends them after its message (the frame's text, a NUL, `dropped` in decimal, a NUL, the
/// bytes), so that a test stopped there keeps its output.
void stackplay_note_output(lua_State *L, const char *bytes, size_t length, size_t dropped);

/// The exit status of a process stopped that way with no answer pipe (1 by default).
void stackplay_watchdog_exit_status(int status);

/// What a process stuck that way with no answer pipe calls before it says so on stderr and ends
/// (NULL, the default: nothing). LuaRuntime registers CProcess's stackplay_restart_now while the
/// runner loads a lone file, so that the run starts over in a worker; the hook runs in the
/// watchdog's signal handler and must be async-signal-safe. It returns when it cannot help.
void stackplay_watchdog_on_stuck(void (*hook)(void));

/// In a SIGINT or SIGTERM handler: the chunk the handling thread runs stops at its next Lua
/// instruction, as at its CPU budget (async-signal-safe; C code it is in runs on to its end).
void stackplay_watchdog_interrupt(void);
/// After stackplay_push_object pushed a userdata holding `object`: stackplay_charge(L, 0), and the
/// state's block source (a snapshot arena) hears of the retain.
void stackplay_pushed_object(lua_State *L, void *object);

/// Releases the object in `slot` now (a class's release method) and marks the slot dead. A state's
/// block source may keep it instead (a snapshot arena keeps a retain that belongs to a snapshot).
void stackplay_release_held(lua_State *L, void **slot);

// MARK: For the C layers above (CLuaSnapshot, CLuaSandbox)

/// Where a state's blocks come from when not from the runtime's own small-block pool: an
/// allocator registered by the layer that owns it (CLuaSnapshot's arena), which the runtime calls
/// through these pointers and never names. Each function gets the `context` registered with it.
typedef struct stackplay_block_source {
    /// Lua's realloc inside the source (lua_Alloc's contract: `osize` is the block's old size);
    /// NULL when it has no room. The runtime keeps the budget's count around it.
    void *(*realloc)(void *context, void *ptr, size_t osize, size_t nsize);
    /// A userdata of the state now holds a retain of `object`.
    void (*retained)(void *context, void *object);
    /// A userdata let go of `object`: the source calls `release(object)` now unless it keeps it.
    void (*release)(void *context, void *object, void (*release)(void *));
    /// Before lua_close: the source makes every `__gc` of the closing state release once.
    void (*closing)(void *context, lua_State *L);
    /// After lua_close: the source frees `context`.
    void (*close)(void *context);
} stackplay_block_source;

/// stackplay_newstate with every block from `source` (kept, with `context`, for the state's life).
/// NULL when out of memory; `context` is then still the caller's to close.
lua_State *stackplay_newstate_from(const stackplay_block_source *source, void *context, size_t limit,
                                   double cpu_budget, stackplay_dispatch_fn dispatch, void (*release)(void *));

/// The context of `L`'s block source if that source is `source`, else NULL (a pool state's).
/// Never for a host's state (it has no guard).
void *stackplay_block_context(lua_State *L, const stackplay_block_source *source);

/// The guard of `L` (its budgets, counters and stop texts) as bytes, for a snapshot to save and
/// copy back: its pointer fields must not change between the two.
void *stackplay_guard_bytes(lua_State *L, size_t *size);

/// How many stackplay_pcall calls are running on `L`.
int stackplay_guard_depth(lua_State *L);

/// Gives the coroutine `co` of `L` the CPU budget's count hook (a coroutine runs its own hooks),
/// unless `L` is not a state stackplay made, has no CPU budget, or `co` already has a hook.
void stackplay_hook_coroutine(lua_State *L, lua_State *co);

/// Whether the string hash of `L`'s state has stackplay's fixed seed (seed.c): 1, or 0 when this
/// Lua's private layout did not allow setting it (every run's hash then differs).
int stackplay_hash_seed_fixed(lua_State *L);

#endif
