import LuaRuntime
import StackModel

/// A component as Lua holds it: the model and the screen it is on, since every gesture goes
/// through the screen (its clock, its hit testing, its event log).
final class ComponentHandle<C: Component>: CardReading {
    let screen: Screen
    let component: C
    /// The ids a script gave as integers (`items = { 1, 2, 3 }`): the model keeps every id as a
    /// string (traces too), and Lua gets these back as integers (`selection()` is 2, not "2").
    /// (unchecked exclusivity: read at every `card(id)`, and no access to it is ever held open)
    @exclusivity(unchecked) var integerIDs: Set<String> = []

    init(screen: Screen, component: C, integerIDs: Set<String> = []) {
        self.screen = screen
        self.component = component
        self.integerIDs = integerIDs
    }

    /// A card id as Lua gets it: an integer when the script gave it as one, else a string.
    func luaID(_ id: String) -> LuaValue {
        if integerIDs.contains(id), let number = Int(id) { return .integer(number) }
        return .string(id)
    }

    /// The integer a card id was given as, if it was.
    func integerID(_ id: String) -> Int? { !integerIDs.isEmpty && integerIDs.contains(id) ? Int(id) : nil }

    /// `component:card(id)`'s table (its frame in the script's world), or nil when no card has
    /// that id.
    override var luaCount: Int { cards.count }

    override func luaCard(id: String) -> LuaValue? {
        guard let card = view.card(id, of: component) else { return nil }
        return LuaSnapshot.card(card, integerID: integerID(card.id))
    }

    /// The screen as the script sees it: what every input and reading of the script's world
    /// goes through (``ScriptView``).
    var view: ScriptView { ScriptView(screen) }

    var settings: ScreenSettings { screen.settings }
    var snapshot: ComponentSnapshot { component.snapshot(in: screen.settings) }
    var cards: [CardSnapshot] { component.cardSnapshots(in: screen.settings) }

    /// What a script calls `target`, as the model names it: a card id is that card, a control's
    /// title becomes its part's name (`"Show less"` → `"show_less"`).
    func resolve(_ target: String) -> ComponentTarget {
        if snapshot.card(target) != nil { return .card(target) }
        return .part(target.lowercased().replacingSpaces())
    }
}

/// What the fast paths of `component:card(id)` and `component:count()` need of a handle of any
/// kind (``ComponentMethods/fast``): a class, not a protocol,
/// so that the fast path finds it with a class cast, not a conformance lookup at every call.
class CardReading {
    /// ``ComponentHandle/luaCard(id:)``.
    func luaCard(id: String) -> LuaValue? { nil }
    /// How many cards `component:count()` says.
    var luaCount: Int { 0 }
}

extension String {
    /// `"Show less"` → `"show_less"`.
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}
