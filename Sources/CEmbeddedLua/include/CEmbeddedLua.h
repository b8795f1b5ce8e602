// stackplay's own Lua chunks (Sources/Bindings/Lua/*.lua), compiled when `make lua` last ran
// (tools/embed-bytecode.lua writes chunks.c): Bindings' EmbeddedChunk loads them without parsing.
#ifndef STACKPLAY_EMBEDDED_LUA_H
#define STACKPLAY_EMBEDDED_LUA_H

/// One compiled chunk: its bytes as `string.dump` writes them (debug information kept), and
/// their count.
typedef struct {
    const unsigned char *bytes;
    unsigned long size;
} stackplay_embedded_chunk;

/// The Lua release that compiled these chunks (`"5.4.4"`): only that release loads them.
extern const char *const stackplay_embedded_release;

/// `Sources/Bindings/Lua/sandbox.lua`, compiled as `=stackplay/sandbox.lua`.
extern const stackplay_embedded_chunk stackplay_embedded_sandbox;

/// `Sources/Bindings/Lua/values.lua`, compiled as `=stackplay/values.lua`.
extern const stackplay_embedded_chunk stackplay_embedded_values;

/// `Sources/Bindings/Lua/prelude.lua`, compiled as `=stackplay/prelude.lua`.
extern const stackplay_embedded_chunk stackplay_embedded_prelude;

/// `Sources/Bindings/Lua/explore.lua`, compiled as `=stackplay/explore.lua`.
extern const stackplay_embedded_chunk stackplay_embedded_explore;

#endif
