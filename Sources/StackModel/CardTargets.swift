/// Helpers that every component shares for naming its cards as touch and accessibility targets.

/// The card id in a target: `"card:<id>"` or a bare `"<id>"`.
func cardID(from target: String) -> String {
    target.hasPrefix("card:") ? String(target.dropFirst(5)) : target
}

/// The error for a card id that a component does not hold, listing the ones it does.
func unknownCardError(_ id: String, in component: String, cards: [CardSpec]) -> StackModelError {
    let ids = cards.map(\.id)
    if let near = nearestName(to: id, in: ids) {
        return StackModelError("\(component) has no card '\(id)' (did you mean '\(near)'?)")
    }
    return StackModelError("\(component) has no card '\(id)' (cards: \(ids.joined(separator: ", ")))")
}

/// The front-most hittable card under `point` (G4): the highest z wins; among equal z, the one
/// given later, as SwiftUI draws later siblings over earlier ones.
func topmostCard(at point: Point, among cards: [CardSnapshot]) -> CardSnapshot? {
    cards.enumerated()
        .filter { $0.element.isHittable && $0.element.frame.contains(point) }
        .max { a, b in a.element.z != b.element.z ? a.element.z < b.element.z : a.offset < b.offset }?
        .element
}
