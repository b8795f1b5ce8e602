import CLuaRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// The exact Lua release a piece of bytecode needs: Lua 5.4's bytecode header names the version
/// (5.4) and the build's sizes, not the release, yet 5.4.4, 5.4.6 and 5.4.8 compile the same text
/// to different bytes. Embedded bytecode (``LuaEmbeddedChunk``) is loaded only when the release
/// that compiled it is the running library's; any other release runs the chunk's source.
package enum LuaRelease {
    /// The running library's release, such as `"5.4.4"`, read from its `lua_ident` (the library
    /// linked in, not the header compiled against). `STACKPLAY_LUA_RELEASE` stands in for it, so
    /// that tests and `make drift` can take the path another release takes (issue 42); nothing a
    /// script reaches changes, since source and bytecode are the same chunk.
    package static let running: String = {
        if let fake = getenv("STACKPLAY_LUA_RELEASE"), fake.pointee != 0 { return String(cString: fake) }
        return release(inIdent: String(cString: stackplay_lua_ident()))
    }()

    /// The release in a `lua_ident` text: `$LuaVersion: Lua 5.4.4  Copyright ...` → `5.4.4`;
    /// empty when the text names none.
    package static func release(inIdent ident: String) -> String {
        let words = ident.split(separator: " ")
        guard let lua = words.firstIndex(of: "Lua"), lua + 1 < words.endIndex else { return "" }
        return String(words[lua + 1])
    }

    /// Whether bytecode compiled by `release` may be loaded by the running library.
    package static func loads(bytecodeOf release: String) -> Bool {
        !release.isEmpty && release == running
    }
}
