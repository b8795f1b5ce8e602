import LuaRuntime
import StackModel

/// Model values as Lua tables: what observations return and what failure dumps print.
enum LuaSnapshot {
    /// `{ x =, y =, width =, height = }`.
    static func rect(_ rect: Rect) -> LuaValue {
        .record([
            ("x", .number(rect.x)), ("y", .number(rect.y)), ("width", .number(rect.width)),
            ("height", .number(rect.height)),
        ])
    }

    /// `{ x =, y = }`.
    static func point(_ point: Point) -> LuaValue {
        .record([("x", .number(point.x)), ("y", .number(point.y))])
    }

    /// A card: `{ id, x, y, width, height, scale, opacity, z, visible, hittable }`.
    static func card(_ card: CardSnapshot) -> LuaValue { self.card(card, integerID: nil) }

    /// A card's frame; `integerID` is its id when the script gave it as an integer.
    static func card(_ card: CardSnapshot, integerID: Int?) -> LuaValue {
        .fields(CardField.keys) { t in
            if let integerID { t.integer(CardField.id, integerID) } else { t.string(CardField.id, card.id) }
            t.number(CardField.x, card.frame.x)
            t.number(CardField.y, card.frame.y)
            t.number(CardField.width, card.frame.width)
            t.number(CardField.height, card.frame.height)
            t.number(CardField.scale, card.scale)
            t.number(CardField.opacity, card.opacity)
            t.number(CardField.z, card.z)
            t.boolean(CardField.visible, card.isVisible)
            t.boolean(CardField.hittable, card.isHittable)
        }
    }

    /// The fields of a card's table (`stack:card(id)`), by their Lua names (a case's name is
    /// its key, APISurfaceTests checks: spelled out, not reflected, which costs a process's
    /// start-up 1.8 million instructions).
    enum CardField: Int, CaseIterable {
        case id, x, y, width, height, scale, opacity, z, visible, hittable
        static let keys = LuaKeys([
            "id", "x", "y", "width", "height", "scale", "opacity", "z", "visible", "hittable",
        ])
    }

    /// A part (header, detail area): its frame, opacity and whether it takes touches.
    static func part(_ part: PartSnapshot) -> LuaValue {
        .table([
            "name": .string(part.name), "x": .number(part.frame.x), "y": .number(part.frame.y),
            "width": .number(part.frame.width), "height": .number(part.frame.height),
            "opacity": .number(part.opacity), "hittable": .boolean(part.isHittable),
        ])
    }

    static func state(_ value: StateValue) -> LuaValue {
        switch value {
        case .none: .nil
        case .bool(let flag): .boolean(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .strings(let texts): .array(texts.map { .string($0) })
        }
    }

    /// A component's state: `{ expanded = true, ids = {...}, ... }`.
    static func state(of snapshot: ComponentSnapshot) -> LuaValue {
        var table: [String: LuaValue] = [:]
        for entry in snapshot.state { table[entry.name] = state(entry.value) }
        return .table(table)
    }

    /// A whole component: kind, name, frame, cards, parts, state.
    static func component(_ snapshot: ComponentSnapshot) -> LuaValue {
        var parts: [String: LuaValue] = [:]
        for part in snapshot.parts { parts[part.name] = self.part(part) }
        return .table([
            "kind": .string(snapshot.kind.rawValue), "name": .string(snapshot.name),
            "frame": rect(snapshot.frame),
            "cards": .array(snapshot.cards.map(card)), "leaving": .array(snapshot.leaving.map(card)),
            "parts": .table(parts), "state": state(of: snapshot),
        ])
    }

    /// What a touch landed on: `{ component =, target =, card = }` (`card` for a card only, an
    /// integer when the script gave that card's id as one; `target` keeps the text, `card:2`).
    static func hit(_ hit: Hit?, on screen: Screen) -> LuaValue {
        guard let hit else { return .nil }
        var table: [String: LuaValue] = [
            "component": .string(hit.componentName), "target": .string(hit.target),
        ]
        if let card = hit.part.cardID {
            let integer = screen.integerCardIDs[hit.componentName]?.contains(card) == true ? Int(card) : nil
            table["card"] = integer.map { .integer($0) } ?? .string(card)
        }
        return .table(table)
    }

    /// One accessibility element.
    static func element(_ element: AccessibilityElement, component: String) -> LuaValue {
        .table([
            "component": .string(component), "id": .string(element.id), "label": .string(element.label),
            "value": .string(element.value), "hint": .string(element.hint),
            "traits": .array(element.traits.map { .string($0.rawValue) }),
            "hidden": .boolean(element.isHidden),
            "actions": .array(element.actions.map { .string($0) }), "frame": rect(element.frame),
            "activation_point": point(element.activationPoint),
            "sort_priority": .number(element.sortPriority),
        ])
    }

    static func settings(_ settings: ScreenSettings) -> LuaValue {
        .table([
            "width": .number(settings.size.width), "height": .number(settings.size.height),
            "layout_direction": .string(settings.layoutDirection.rawValue),
            "reduce_motion": .boolean(settings.reduceMotion),
            "dynamic_type": .string(settings.dynamicTypeSize.shortName), "now": .number(settings.now),
        ])
    }

    /// How many cards of a component a failure report lists; the others are counted.
    static let dumpedCards = 50

    /// The screen as text for a failure report: settings, then each component's state and the
    /// first ``dumpedCards`` cards.
    static func dump(_ screen: Screen) -> String {
        let frame = screen.snapshot()
        let s = frame.settings
        var lines = [
            "screen at t = \(formatNumber(s.now)) s: \(formatNumber(s.size.width)) × \(formatNumber(s.size.height)), "
                + "\(s.layoutDirection.rawValue), reduce motion \(s.reduceMotion ? "on" : "off"), "
                + "dynamic type \(s.dynamicTypeSize.shortName)"
                + (screen.isMirrored
                    ? ", mirrored (the script's world is \(ScriptView(screen).settings.layoutDirection.rawValue);"
                        + " frames as the screen shows them)" : "")
        ]
        for component in frame.components {
            lines.append("  \(component.kind.rawValue) '\(component.name)' frame \(text(component.frame))")
            let state = component.state.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
            lines.append("    state: " + cut(state, at: dumpedStateCharacters))
            for card in component.cards.prefix(dumpedCards) {
                lines.append(
                    "    card \(card.id): \(text(card.frame)) scale \(formatNumber(card.scale)) "
                        + "opacity \(formatNumber(card.opacity)) z \(formatNumber(card.z))"
                        + (card.isVisible ? "" : " hidden") + (card.isHittable ? "" : " not-hittable"))
            }
            if component.cards.count > dumpedCards {
                lines.append("    ... and \(component.cards.count - dumpedCards) more cards")
            }
            // G8: the cards on their way out, fading.
            for card in component.leaving.prefix(dumpedCards) {
                lines.append(
                    "    leaving \(card.id): \(text(card.frame)) opacity \(formatNumber(card.opacity))")
            }
            for part in component.parts {
                lines.append(
                    "    \(part.name): \(text(part.frame)) opacity \(formatNumber(part.opacity))"
                        + (part.isHittable ? "" : " not-hittable"))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The longest state line a failure report shows (10^5 ids would be megabytes).
    static let dumpedStateCharacters = 2_000

    /// `text` cut after `limit` characters, saying how many were left out.
    static func cut(_ text: String, at limit: Int) -> String {
        guard text.count > limit else { return text }
        return text.prefix(limit) + " ... (\(text.count - limit) more characters)"
    }

    static func text(_ rect: Rect) -> String {
        "x \(formatNumber(rect.x)) y \(formatNumber(rect.y)) w \(formatNumber(rect.width)) h \(formatNumber(rect.height))"
    }
}
