import LuaRuntime
import StackModel

/// Lua: the methods every component has (`stack:tap()`, `stack:drag("mail", { x = -120 })`,
/// `stack:ids()`, ...).
enum ComponentMethods {
    /// The hot methods' fast paths (``FastMethod``), for the kinds that keep the common method
    /// (``LuaComponentKinds``) and unless `--audit` wraps the methods.
    static var fast: [String: FastMethod] { ["card": card, "count": count] }

    /// `component:card(id)` for an id given as a string that names a card; anything else falls
    /// back to the method's closure in ``common(_:)``, which words the error.
    private static let card: FastMethod = { state, object in
        guard let lua = state else { return LuaStack.fallback }
        let stack = LuaStack(lua)
        guard stack.isString(2), let id = stack.string(2),
            let h = Unmanaged<AnyObject>.fromOpaque(object!).takeUnretainedValue() as? CardReading,
            let card = h.luaCard(id: id)
        else { return LuaStack.fallback }
        do { try stack.push(card) } catch { return LuaStack.fallback }
        return 1
    }

    /// `component:count()`: an invariant's commonest question, answered without boxing its
    /// arguments and result.
    private static let count: FastMethod = { state, object in
        guard let lua = state,
            let h = Unmanaged<AnyObject>.fromOpaque(object!).takeUnretainedValue() as? CardReading
        else { return LuaStack.fallback }
        do { try LuaStack(lua).push(.integer(h.luaCount)) } catch { return LuaStack.fallback }
        return 1
    }

    static func common<C: LuaComponent>(_ type: C.Type) -> [String: LuaFunction] {
        func handle(_ a: LuaArguments) throws -> ComponentHandle<C> {
            try a.object(at: 1, as: ComponentHandle<C>.self)
        }
        /// The target named by argument 2 (nil means the component's own tap target).
        func target(_ a: LuaArguments, _ h: ComponentHandle<C>, defaultTarget: ComponentTarget?) throws
            -> ComponentTarget
        {
            if let given = try a.optionalString(at: 2) { return h.resolve(given) }
            if let defaultTarget { return defaultTarget }
            throw a.error(at: 2, "a card id expected, got nil")
        }
        /// The point of `target` (argument 2; nil means the component's own tap target).
        func point(_ a: LuaArguments, _ h: ComponentHandle<C>, defaultTarget: ComponentTarget?) throws
            -> Point
        {
            let target = try target(a, h, defaultTarget: defaultTarget)
            do { return try h.component.point(of: target, in: h.settings) } catch let error as StackModelError
            {
                throw a.error(at: 2, error.message)
            }
        }
        /// Where a gesture aimed at argument 2 goes down: for a card, the centre of the part of it
        /// a touch reaches (actionability), or its frame's centre with `force`; for a part, its
        /// point. A card no touch reaches raises, naming why.
        func aim(
            _ a: LuaArguments, _ h: ComponentHandle<C>, from at: Point, defaultTarget: ComponentTarget?,
            force: Bool
        ) throws -> Point {
            guard case .card(let id) = try target(a, h, defaultTarget: defaultTarget) else { return at }
            return try a.model { try h.view.aim(atCard: id, of: h.component, force: force) }
        }
        /// Cards as a Lua list, each id as the script gave it.
        func cardList(_ cards: [CardSnapshot], _ h: ComponentHandle<C>) -> LuaValue {
            .array(cards.map { LuaSnapshot.card($0, integerID: h.integerID($0.id)) })
        }
        return [
            "name": { a in [.string(try handle(a).component.name)] },
            "kind": { a in [.string(try handle(a).component.kind.rawValue)] },
            "tap": { a in
                let h = try handle(a)
                let place = try point(a, h, defaultTarget: C.defaultTapTarget)
                let (duration, force) = try a.tapOptions(at: 3, byID: true)
                let at = try aim(a, h, from: place, defaultTarget: C.defaultTapTarget, force: force)
                return [
                    LuaSnapshot.hit(
                        try a.model { try h.screen.tap(at: at, duration: duration) }, on: h.screen)
                ]
            },
            "drag": { a in
                let h = try handle(a)
                let place = try point(a, h, defaultTarget: nil)
                let translation = try a.translation(at: 3)
                let (steps, duration, force) = try a.gestureOptions(at: 4, byID: true)
                let at = try aim(a, h, from: place, defaultTarget: nil, force: force)
                return [
                    LuaSnapshot.hit(
                        try a.model {
                            try h.view.drag(
                                fromScreenPoint: at, by: translation, steps: steps, duration: duration)
                        }, on: h.screen)
                ]
            },
            "point": { a in
                let h = try handle(a)
                let place = try point(a, h, defaultTarget: C.defaultTapTarget)
                // Where `tap` aims; for a card no touch reaches (`tap` raises), the middle of what shows.
                let aimed =
                    (try? aim(a, h, from: place, defaultTarget: C.defaultTapTarget, force: false)) ?? place
                let at = h.view.reading(aimed)
                return [.number(at.x), .number(at.y)]
            },
            "ids": { a in
                let h = try handle(a)
                return [.array(h.cards.map { h.luaID($0.id) })]
            },
            "count": { a in [.integer(try handle(a).cards.count)] },
            "state": { a in [LuaSnapshot.state(of: try handle(a).snapshot)] },
            "card": { a in
                let h = try handle(a)
                let id = try a.string(at: 2)
                guard let card = h.luaCard(id: id) else {
                    throw a.error(at: 2, unknownCard(id, among: h.cards.map(\.id)))
                }
                return [card]
            },
            "cards": { a in
                let h = try handle(a)
                return [cardList(h.view.cards(of: h.component), h)]
            },
            // G8: the cards on their way out, with their transition's opacity; none of `cards()`.
            "leaving": { a in
                let h = try handle(a)
                return [cardList(h.view.leaving(of: h.component), h)]
            },
            "frame": { a in
                let h = try handle(a)
                return [LuaSnapshot.rect(h.view.frame(of: h.component))]
            },
            "part": { a in
                let h = try handle(a)
                let given = try a.string(at: 2)
                let name = h.resolve(given).name
                // A part this kind has can be absent (nil: the header of a closed stack); a name
                // no part of this kind has is a typo.
                guard C.partNames.contains(name) else {
                    throw a.error(at: 2, unknownPart(given, of: C.componentKind, parts: C.partNames))
                }
                return [h.view.part(name, of: h.component).map(LuaSnapshot.part) ?? .nil]
            },
            "accessibility": { a in
                let h = try handle(a)
                let name = h.component.name
                let elements = h.view.accessibilityElements(of: h.component)
                return [.array(elements.map { LuaSnapshot.element($0, component: name) })]
            },
            "action": { a in
                let h = try handle(a)
                let action = try a.string(at: 2)
                let element = try elementName(a, h, at: 3)
                // Checked here so that a typo names its argument; `"stack"` stands for the
                // container (the wallet's Escape), which the component checks itself.
                let elements = h.component.accessibilityElements(in: h.settings)
                if let target = elements.first(where: { $0.id.isSameBytes(element) }) {
                    // "activate" is every element's; the others are the element's named actions.
                    if action != "activate", !target.actions.contains(action) {
                        let names = ["activate"] + target.actions
                        var detail = "'\(element)' has no action '\(action)'"
                        if let near = nearestName(to: action, in: names) {
                            detail += " (did you mean '\(near)'?)"
                        } else {
                            detail += " (it has: \(names.joined(separator: ", ")))"
                        }
                        throw a.error(at: 2, detail)
                    }
                } else if element != "stack" {
                    let given = try a.optionalString(at: 3) ?? element
                    throw a.error(at: 3, unknownElement(given, of: h.component.name, among: elements))
                }
                return [
                    .boolean(
                        try a.model { try h.screen.performAction(action, on: element, of: h.component.name) })
                ]
            },
            "activate": { a in
                let h = try handle(a)
                let element = try elementName(a, h, at: 2)
                return [
                    .boolean(
                        try a.model(argument: 2) {
                            try h.screen.performAction("activate", on: element, of: h.component.name)
                        })
                ]
            },
            "escape": { a in
                let h = try handle(a)
                return [.boolean(try a.model { try h.screen.escape(h.component.name) })]
            },
        ]
    }

    /// `notification_stack has no part 'details' (did you mean 'header'?)`, or the list of parts.
    static func unknownPart(_ given: String, of kind: ComponentKind, parts: [String]) -> String {
        let names = parts.map { $0 == "show_less" ? "Show less" : $0 }
        var detail = "\(kind.rawValue) has no part '\(given)'"
        if let near = nearestName(to: given, in: names + parts) {
            detail += " (did you mean '\(near)'?)"
        } else {
            detail += names.isEmpty ? " (it has none)" : " (parts: \(names.joined(separator: ", ")))"
        }
        return detail
    }

    /// `no card 'calender' (did you mean 'calendar'?)`, or the list of cards when none is near.
    static func unknownCard(_ id: String, among ids: [String]) -> String {
        if let near = nearestName(to: id, in: ids) { return "no card '\(id)' (did you mean '\(near)'?)" }
        return "no card '\(id)' (cards: \(ids.joined(separator: ", ")))"
    }

    /// The message for an element a component does not have, with the nearest one.
    static func unknownElement(_ given: String, of component: String, among elements: [AccessibilityElement])
        -> String
    {
        let names = elements.map { ComponentTarget($0.id).bareName }
        var detail = "\(component) has no accessibility element '\(given)'"
        if let near = nearestName(to: given, in: names) {
            detail += " (did you mean '\(near)'?)"
        } else {
            detail += " (it has: \(names.joined(separator: ", ")))"
        }
        return detail
    }

    /// An accessibility element by card id, `"card:<id>"` or name (`"stack"`, `"Show less"`).
    static func elementName<C>(_ a: LuaArguments, _ h: ComponentHandle<C>, at position: Int) throws -> String
    {
        guard let given = try a.optionalString(at: position) else { return "stack" }
        return h.resolve(given).name
    }
}
