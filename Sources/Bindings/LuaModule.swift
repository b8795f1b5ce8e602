import LuaRuntime
import StackModel
import Traces

/// Something that adds functions, values and classes to every fresh script state.
///
/// The runner installs ``StackplayModules/standard`` after the sandbox; a module usually fills
/// the global `stackplay` table with ``LuaState/setField(_:in:_:)``, and defines classes with
/// ``LuaState/defineClass(_:name:methods:releaseMethod:)``.
public protocol LuaModule: Sendable {
    /// Adds this module to `lua`. A thrown error fails the script before it runs.
    func install(in lua: LuaState) throws
}

/// The `stackplay` table scripts start with: `stackplay.version`.
public struct CoreModule: LuaModule {
    public init() {}

    public func install(in lua: LuaState) throws {
        try lua.setField("version", in: "stackplay", .string(StackplayVersion.string))
    }
}

/// The modules every script gets. Add the card-stack API here.
public enum StackplayModules {
    /// Lua: the global `stackplay` table and what hangs off it.
    public static var standard: [any LuaModule] { standard(screen: ScreenDefaults()) }

    /// The modules with the project's default screen size (`.stackplay.lua`'s `screen`).
    /// With `recordsTraces`, every screen is recorded and the runner collects the traces.
    public static func standard(
        screen: ScreenDefaults, recordsTraces: Bool = false, updatesGolden: Bool = false,
        golden: GoldenPolicy = GoldenPolicy(), audit: AuditOptions? = nil
    )
        -> [any LuaModule]
    {
        [
            CoreModule(),
            StackModelModule(
                defaults: screen, recordsTraces: recordsTraces, updatesGolden: updatesGolden, golden: golden,
                audit: audit),
            PreludeModule(),
        ]
    }
}
