import LuaRuntime
import StackModel

/// An option of a component's factory (`screen:notification_stack { expanded = true }`): its
/// name, its LuaLS type, and what the definitions say of it (its default).
struct LuaComponentOption: Sendable {
    var name: String
    var type: String
    /// `"default false"`, `"cards can be swiped away (default false)"`.
    var doc: String
    /// Every kind has it (`stackplay.component_options`), documented once.
    var isShared: Bool

    init(_ name: String, _ type: String, _ doc: String = "", isShared: Bool = false) {
        self.name = name
        self.type = type
        self.doc = doc
        self.isShared = isShared
    }

    /// An option whose definition ends in its default, as the model declares it: `"default 10"`,
    /// `"cards can be swiped away (default false)"`.
    init(_ name: String, _ type: String, _ doc: String = "", default value: some LuaDefaultText) {
        let text = "default \(value.luaDefaultText)"
        self.init(name, type, doc.isEmpty ? text : "\(doc) (\(text))")
    }

    static let items = LuaComponentOption("items", "stackplay.item[]", "the cards, in order", isShared: true)
    static let name = LuaComponentOption(
        "name", "string", "the component's name on the screen", isShared: true)
    static let x = LuaComponentOption(
        "x", "number", "pt from the leading edge: the left in ltr, the right in rtl", isShared: true)
    static let y = LuaComponentOption("y", "number", "top edge in pt", isShared: true)
    static let width = LuaComponentOption("width", "number", "pt, >= 0", isShared: true)
    static let cardHeight = LuaComponentOption(
        "card_height", "number", "each card's height unless its item says, >= 0", isShared: true)
}

/// A default as the definitions write it: `10`, `false`, `"Notifications"`.
protocol LuaDefaultText {
    var luaDefaultText: String { get }
}

extension Double: LuaDefaultText {
    var luaDefaultText: String { formatNumber(self) }
}

extension Int: LuaDefaultText {
    var luaDefaultText: String { String(self) }
}

extension Bool: LuaDefaultText {
    var luaDefaultText: String { String(self) }
}

extension String: LuaDefaultText {
    var luaDefaultText: String { "\"\(self)\"" }
}
