import LuaRuntime
import StackModel
import Traces

/// The component kinds scripts can make: the screen's factories, the classes of their handles,
/// the names `stackplay check` knows, and (through `traces`) what replays build. `standard` is
/// `Traces.ComponentKinds.standard`, the one list of the seeds; `adding(_:)` puts one more kind
/// into all of these at once.
public struct LuaComponentKinds: Sendable {
    private(set) var types: [any LuaComponent.Type]
    /// Each kind's methods boxed once (``MethodTable``), in the order of `types`.
    private(set) var methodTables: [MethodTable]

    init(_ types: [any LuaComponent.Type]) {
        self.types = []
        self.methodTables = []
        for type in types { register(type) }
    }

    /// The seeds, in the order of ``ComponentKinds/standard``. Every seed is a ``LuaComponent``
    /// (`typesFileHasEveryRegisteredKind` checks that none is left out).
    public static let standard = LuaComponentKinds(
        ComponentKinds.standard.types.compactMap { $0 as? any LuaComponent.Type })

    /// Adds `type`, or replaces the kind of the same name.
    mutating func register(_ type: any LuaComponent.Type) {
        // A kind that replaces a common method gets no fast path for it.
        let table = MethodTable(
            className: "stackplay.\(type.luaName)", methods: type.methods(),
            fast: ComponentMethods.fast.filter { type.kindMethods()[$0.key] == nil })
        if let index = types.firstIndex(where: { $0.componentKind == type.componentKind }) {
            types[index] = type
            methodTables[index] = table
        } else {
            types.append(type)
            methodTables.append(table)
        }
    }

    func adding(_ type: any LuaComponent.Type) -> LuaComponentKinds {
        var kinds = self
        kinds.register(type)
        return kinds
    }

    /// The same kinds, for reading and replaying traces.
    public var traces: ComponentKinds { ComponentKinds(types) }

    /// A Lua handle for `component`, by its kind.
    func handle(_ component: any Component, on screen: Screen) -> LuaValue? {
        types.first { $0.componentKind == component.kind }?.handle(component, on: screen)
    }
}
