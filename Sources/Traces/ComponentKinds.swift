import StackModel

/// The component kinds a trace can hold: what builds a header's components, reads owner changes,
/// and names the kinds in messages. `standard` has the three seeds, the one list of them
/// (`Bindings.LuaComponentKinds.standard` reads it); a kind from another module is one
/// `adding(_:)` away.
public struct ComponentKinds: Sendable {
    /// In registration order: messages list the kinds in it.
    public private(set) var types: [any TraceableComponent.Type]

    public init(_ types: [any TraceableComponent.Type]) {
        self.types = []
        for type in types { register(type) }
    }

    /// The three seeds.
    public static let standard = ComponentKinds([
        NotificationStack.self, WalletCardStack.self, StickyStackedCards.self,
    ])

    /// Adds `type`, or replaces the kind of the same name.
    public mutating func register(_ type: any TraceableComponent.Type) {
        if let index = types.firstIndex(where: { $0.componentKind == type.componentKind }) {
            types[index] = type
        } else {
            types.append(type)
        }
    }

    public func adding(_ type: any TraceableComponent.Type) -> ComponentKinds {
        var kinds = self
        kinds.register(type)
        return kinds
    }

    public var kinds: [ComponentKind] { types.map { $0.componentKind } }

    public func type(of kind: ComponentKind) -> (any TraceableComponent.Type)? {
        types.first { $0.componentKind == kind }
    }

    /// Every kind's owner changes, then the changes a new screen size makes (`set_width`), each
    /// name once, in the order the kinds declare them: every change a trace can hold.
    public var ownerChanges: [OwnerChange.Schema] {
        var seen = Set<String>()
        return (types.flatMap { $0.ownerChanges } + types.flatMap { $0.containerChanges })
            .filter { seen.insert($0.name).inserted }
    }
}
