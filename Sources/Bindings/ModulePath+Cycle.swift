import LuaRuntime

/// A module that requires itself, directly or through others, would load for ever (each load
/// runs the chunk again before it can be marked loaded): `require` refuses it and names the
/// chain, `module 'a' requires itself (a -> b -> a)`.
extension ModulePath {
    /// The chain from the first running load of `path` to this one, or nil when `path` is not
    /// loading. `running` are the main chunks on the Lua stack, outermost first (`@path`).
    static func cycle(loading name: String, at path: String, root: String?, running: [String]) -> String? {
        guard let start = running.firstIndex(of: "@" + path) else { return nil }
        let names = running[start...].map { moduleName(ofChunk: $0, root: root) }
        return "module '\(name)' requires itself (\((names + [name]).joined(separator: " -> ")))"
    }

    /// `@root/helpers/swipe.lua` (or `@./helpers/swipe.lua` under `.`) → `helpers.swipe`.
    static func moduleName(ofChunk chunk: String, root: String?) -> String {
        var path = Substring(chunk.hasPrefix("@") ? String(chunk.dropFirst()) : chunk)
        if let root {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(prefix) { path = path.dropFirst(prefix.count) }
        }
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        if path.hasSuffix("/init.lua") {
            path = path.dropLast(9)
        } else if path.hasSuffix(".lua") {
            path = path.dropLast(4)
        }
        return path.split(separator: "/").joined(separator: ".")
    }
}
