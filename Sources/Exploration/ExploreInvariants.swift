import StackModel
import Traces

/// What broke: the invariant's name (the failure's "way": shrinking keeps it) and what it said.
public struct ExploreFailure: Hashable, Sendable, CustomStringConvertible {
    public var invariant: String
    public var message: String

    public init(invariant: String, message: String) {
        self.invariant = invariant
        self.message = message
    }

    public var description: String { "'\(invariant)': \(message)" }
}

/// The invariants every correct model keeps, checked after every step unless an exploration
/// turns them off (`builtins = { replay = false }`, or `builtins = false` for all).
public enum BuiltinInvariant: String, CaseIterable, Sendable {
    /// Every number of every frame (cards, parts, the component's frame and state) is finite.
    case finite
    /// Every card's and part's opacity is in 0…1.
    case opacity
    /// No component holds two cards with one id.
    case uniqueIDs = "unique_ids"
    /// `settle` ends: every animation rests within `Screen.defaultSettleLimit` (each run also
    /// ends with a `settle`).
    case settles
    /// A card a touch can land on is drawn: opacity above 0 and an area (a card cut away by a
    /// wallet's `.mask` stays hittable, as the seed's `.mask` does not change hit testing).
    case hittableVisible = "hittable_visible"
    /// Every visible card is named in the accessibility tree: its own element has a label (hidden
    /// on purpose or not: the wallet hides its pile while a card is selected, W10), or a labelled
    /// group element lies over it (the closed notification pile is one element, `stack`). Checked when
    /// the component is at rest: the tree follows the state at once, the cards follow it later.
    case accessibility
    /// The run's trace (`TraceRecorder`) replays (`TraceReplayer`) to the same frames, exactly.
    case replay
    /// The same steps through the Lua API (as the written scenario takes them) end in the same
    /// frame as through the Swift API.
    case luaAPI = "lua_api"
    /// The same steps on a mirrored screen (``Screen/isMirrored``: points and translations
    /// mirrored in, the other layout direction, frames mirrored back) give the same frames, to
    /// a billionth of a point (`stackplay --mirror`'s check, on every step of a sampled run).
    case mirror

    /// The name reports and `builtins = { ... }` use.
    public var name: String { rawValue }

    /// The frame-level invariants a run checks after every step, read once from the set (whose
    /// lookups hash the names: five a component a step cost more than some checks).
    struct FrameChecks {
        var finite, opacity, uniqueIDs, hittableVisible, accessibility: Bool

        init(_ enabled: Set<BuiltinInvariant>) {
            (finite, opacity, uniqueIDs) =
                (enabled.contains(.finite), enabled.contains(.opacity), enabled.contains(.uniqueIDs))
            (hittableVisible, accessibility) = (
                enabled.contains(.hittableVisible), enabled.contains(.accessibility)
            )
        }

        var isEmpty: Bool { !(finite || opacity || uniqueIDs || hittableVisible || accessibility) }
    }

    /// Checks the frame-level invariants in `enabled` on `screen` now.
    static func check(_ screen: Screen, _ enabled: FrameChecks) -> ExploreFailure? {
        let settings = screen.settings
        for component in screen.components {
            let snapshot = component.snapshot(in: settings)
            // Made only for a message: a string a step would cost more than every check here.
            var name: String { "\(component.kind.rawValue) '\(component.name)'" }
            if enabled.finite, let field = firstNonFinite(snapshot) {
                return ExploreFailure(invariant: "finite", message: "\(name): \(field) is not finite")
            }
            if enabled.opacity {
                for card in snapshot.cards where !(0...1).contains(card.opacity) {
                    return ExploreFailure(
                        invariant: "opacity",
                        message: "\(name): card '\(card.id)' has opacity \(formatNumber(card.opacity))")
                }
                for part in snapshot.parts where !(0...1).contains(part.opacity) {
                    return ExploreFailure(
                        invariant: "opacity",
                        message: "\(name): part '\(part.name)' has opacity \(formatNumber(part.opacity))")
                }
            }
            if enabled.uniqueIDs, let twice = firstRepeatedID(snapshot.cards) {
                return ExploreFailure(invariant: "unique_ids", message: "\(name): card id '\(twice)' twice")
            }
            if enabled.hittableVisible {
                // Drawn at all: opacity and area. A card cut away by a `.mask` stays hittable
                // (the wallet's pile below the bottom edge, W-seed behaviour: `.mask` does not
                // change hit testing), so `isVisible`'s mask test is not asked for.
                for card in snapshot.cards
                where card.isHittable && !(card.opacity > 0 && card.frame.width > 0 && card.frame.height > 0)
                {
                    return ExploreFailure(
                        invariant: "hittable_visible",
                        message:
                            "\(name): card '\(card.id)' is hittable but not drawn (opacity \(formatNumber(card.opacity)))"
                    )
                }
            }
            // Checked at rest: VoiceOver's tree follows the state at once while the cards still
            // move there (SwiftUI does not animate the accessibility tree).
            if enabled.accessibility, (component.animationEndTime ?? 0) <= settings.now,
                snapshot.cards.contains(where: \.isVisible)
            {
                // The labelled elements, and whether each is a group's (not hidden, not a card's):
                // read once for all the cards.
                var labelled: [(id: String, frame: Rect, group: Bool)] = []
                for element in component.accessibilityElements(in: settings) where !element.label.isEmpty {
                    labelled.append(
                        (element.id, element.frame, !element.isHidden && !isCardElement(element.id)))
                }
                for card in snapshot.cards where card.isVisible {
                    // Its own element, or a labelled group over it (the closed pile is one
                    // element, "stack", that reads the top card and the count). An element of its
                    // own hidden on purpose (`.accessibilityHidden`: the wallet's pile while a
                    // card is selected, W10) still names it.
                    let named = labelled.contains { element in
                        isElement(element.id, of: card.id)
                            || (element.group && overlaps(element.frame, card.frame))
                    }
                    guard named else {
                        return ExploreFailure(
                            invariant: "accessibility",
                            message:
                                "\(name): visible card '\(card.id)' has no accessibility element with a label"
                        )
                    }
                }
            }
        }
        return nil
    }

    /// The first card id an earlier card already has (byte for byte), or nil. A component holds
    /// a few cards: comparing each with those before it costs less than hashing them.
    static func firstRepeatedID(_ cards: [CardSnapshot]) -> String? {
        guard cards.count > 32 else {
            for index in cards.indices.dropFirst()
            where cards[..<index].contains(where: { $0.id.isSameBytes(cards[index].id) }) {
                return cards[index].id
            }
            return nil
        }
        var seen = Set<ByteKey>()
        return cards.first { !seen.insert(ByteKey($0.id)).inserted }?.id
    }

    /// Whether element id `id` is a card's (``ComponentTarget/init(_:)`` reads it as one), without
    /// making the target: a check at rest reads every element.
    static func isCardElement(_ id: String) -> Bool {
        id.utf8.withContiguousStorageIfAvailable { hasCardPrefix($0) }
            ?? id.utf8.starts(with: ComponentTarget.cardPrefix.utf8)
    }

    /// Whether element id `id` is the bytes of `ComponentTarget.card(cardID).name`, without
    /// making that string for every card and element.
    static func isElement(_ id: String, of cardID: String) -> Bool {
        let prefix = ComponentTarget.cardPrefix.utf8
        guard id.utf8.count == prefix.count + cardID.utf8.count else { return false }
        let fast = id.utf8.withContiguousStorageIfAvailable { bytes in
            cardID.utf8.withContiguousStorageIfAvailable { card in
                hasCardPrefix(bytes) && bytes[prefix.count...].elementsEqual(card)
            }
        }
        return (fast ?? nil)
            ?? (id.utf8.starts(with: prefix) && id.utf8.dropFirst(prefix.count).elementsEqual(cardID.utf8))
    }

    /// Whether `bytes` start with `card:` (``ComponentTarget/cardPrefix``).
    private static func hasCardPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.starts(with: cardPrefixBytes)
    }

    private static let cardPrefixBytes = Array(ComponentTarget.cardPrefix.utf8)

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    /// The first number of `snapshot` that is NaN or infinite, named.
    static func firstNonFinite(_ snapshot: ComponentSnapshot) -> String? {
        func rect(_ r: Rect) -> Bool { r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite }
        if !rect(snapshot.frame) { return "the frame" }
        for card in snapshot.cards
        where !rect(card.frame) || !card.scale.isFinite || !card.opacity.isFinite || !card.z.isFinite {
            return "a number of card '\(card.id)'"
        }
        for part in snapshot.parts where !rect(part.frame) || !part.opacity.isFinite {
            return "a number of part '\(part.name)'"
        }
        for (key, value) in snapshot.state {
            if case .number(let number) = value, !number.isFinite { return "state.\(key)" }
        }
        return nil
    }

    /// Where two frames first differ, named (`component 'w', card 'amex': ...`), or nil.
    static func difference(_ a: FrameSnapshot, _ b: FrameSnapshot) -> String? {
        if a.settings != b.settings { return "the screen's settings: \(a.settings) vs \(b.settings)" }
        guard a.components.count == b.components.count else {
            return "\(a.components.count) components vs \(b.components.count)"
        }
        for (x, y) in zip(a.components, b.components) where x != y {
            let place = "component '\(x.name)'"
            let ids = (x.cards.map(\.id), y.cards.map(\.id))
            if ids.0 != ids.1 { return "\(place): cards \(ids.0) vs \(ids.1)" }
            for (c, d) in zip(x.cards, y.cards) where c != d {
                return "\(place), card '\(c.id)': \(c) vs \(d)"
            }
            if x.parts != y.parts { return "\(place): parts \(x.parts) vs \(y.parts)" }
            if x.frame != y.frame { return "\(place): frame \(x.frame) vs \(y.frame)" }
            let states = (x.state.map { "\($0.name) \($0.value)" }, y.state.map { "\($0.name) \($0.value)" })
            return "\(place): state \(states.0) vs \(states.1)"
        }
        return nil
    }

    /// Replays `trace` (read once for `replay` and `mirror`) and compares every frame exactly.
    static func replay(_ trace: Result<Trace, any Error>) -> ExploreFailure? {
        do {
            let trace = try trace.get()
            let replayer = try TraceReplayer(trace)
            if let mismatch = try replayer.run(tolerance: 0) {
                return ExploreFailure(invariant: "replay", message: "the replay differs: \(mismatch)")
            }
        } catch {
            return ExploreFailure(invariant: "replay", message: "the trace does not replay: \(error)")
        }
        return nil
    }
}
