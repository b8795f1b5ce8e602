import LuaRuntime
import StackModel
import Traces

/// A component kind as scripts know it: `screen:<kind> { ... }`, its options, its methods, the
/// target of a bare `c:tap()`, its parts, and its LuaLS definitions. Each kind conforms in its
/// own file (`NotificationStack+Lua.swift`) and is listed in a `LuaComponentKinds` registry,
/// which also gives traces (`TraceableComponent`) and `stackplay check` their lists of kinds.
protocol LuaComponent: TraceableComponent {
    /// The options of `screen:<kind> { ... }`, the shared ones (`LuaComponentOption.items`)
    /// included, in the order messages suggest them.
    static var luaOptions: [LuaComponentOption] { get }
    /// Builds the component the options describe, on `screen` (for defaults that follow its
    /// size). Unknown options are refused before.
    static func make(_ options: LuaOptions, on screen: Screen) throws -> Self
    /// The methods only this kind has (`stack:expanded()`); each also has `ComponentMethods.common`.
    static func kindMethods() -> [String: LuaFunction]
    /// What `c:tap()` with no target touches; nil when a target must be given.
    static var defaultTapTarget: ComponentTarget? { get }
    /// The parts `c:part(name)` can show, by the model's names (`"show_less"`).
    static var partNames: [String] { get }
    /// The class and its own methods as `types/stackplay.lua` holds them (a test keeps the two
    /// equal, and every method documented).
    static var luaDefinitions: String { get }
}

extension LuaComponent {
    /// `notification_stack`: the factory's name on a screen and the class's.
    static var luaName: String { componentKind.rawValue }

    static var optionNames: [String] { luaOptions.map(\.name) }

    /// Every method of the kind's handles: the common ones and its own.
    static func methods() -> [String: LuaFunction] {
        ComponentMethods.common(Self.self).merging(kindMethods()) { _, own in own }
    }

    /// Lua: `screen:<kind> { ... }`.
    static func factory(_ a: LuaArguments) throws -> [LuaValue] {
        let screen = try ScreenMethods.screen(a)
        let o = try LuaOptions(a, at: 2, known: optionNames)
        let component = try a.model { try make(o, on: screen) }
        try a.model { try screen.add(component) }
        let ids = integerIDs(o)
        if !ids.isEmpty { screen.integerCardIDs[component.name, default: []].formUnion(ids) }
        return [.object(ComponentHandle(screen: screen, component: component, integerIDs: ids))]
    }

    /// A handle for `component` when it is of this kind.
    static func handle(_ component: any Component, on screen: Screen) -> LuaValue? {
        (component as? Self).map { .object(ComponentHandle(screen: screen, component: $0)) }
    }

    /// The handle class with methods boxed once a process (no `--audit` wrapping).
    static func defineClass(in lua: LuaState, table: MethodTable) throws {
        try lua.defineClass(ComponentHandle<Self>.self, table: table)
    }

    static func defineClass(in lua: LuaState) throws {
        try lua.defineClass(
            ComponentHandle<Self>.self, name: "stackplay.\(luaName)", methods: lua.session.auditing(methods())
        )
    }

    /// The LuaLS class of `screen:<kind> { ... }`'s options: the kind's own, after the shared ones.
    static var optionsDefinition: String {
        var lines = ["---@class stackplay.\(luaName)_options: stackplay.component_options"]
        for option in luaOptions where !option.isShared {
            lines.append(
                "---@field \(option.name)? \(option.type)" + (option.doc.isEmpty ? "" : " \(option.doc)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The LuaLS definition of the factory on a screen.
    static var factoryDefinition: String {
        "---@param options stackplay.\(luaName)_options\n---@return stackplay.\(luaName)\n"
            + "function screen:\(luaName)(options) end\n"
    }

    /// The kind's own methods that `luaDefinitions` does not document.
    static var undocumentedMethods: [String] {
        kindMethods().keys.filter { !luaDefinitions.contains("function \(luaName):\($0)(") }.sorted()
    }
}
