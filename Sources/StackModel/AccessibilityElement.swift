/// What VoiceOver knows of one element (G6): its words, traits, whether it is hidden, the named
/// actions it offers, where a double tap lands, and its place in the reading order.
public struct AccessibilityElement: Hashable, Sendable {
    /// Stable within its component: `"card:calendar"`, `"stack"`, `"show_less"`, `"title"`.
    public var id: String
    public var label: String
    public var value: String = ""
    public var hint: String = ""
    public var traits: [AccessibilityTrait] = []
    public var isHidden: Bool = false
    /// Named custom actions ("Clear"); `escape` when the element handles the Escape gesture.
    public var actions: [String] = []
    public var frame: Rect
    /// Where VoiceOver's double tap lands, in screen points.
    public var activationPoint: Point
    public var sortPriority: Double = 0

    public init(
        id: String, label: String, value: String = "", hint: String = "", traits: [AccessibilityTrait] = [],
        isHidden: Bool = false, actions: [String] = [], frame: Rect, activationPoint: Point? = nil,
        sortPriority: Double = 0
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.isHidden = isHidden
        self.actions = actions
        self.frame = frame
        self.activationPoint = activationPoint ?? frame.center
        self.sortPriority = sortPriority
    }
}

/// The traits the seeds set.
public enum AccessibilityTrait: String, Hashable, Sendable {
    case button
    case selected
    case header
    case staticText = "static_text"
}

extension Array where Element == AccessibilityElement {
    /// VoiceOver's order within one container: hidden elements dropped, higher sort priority
    /// first, then top to bottom (the order given breaks ties, which keeps it stable).
    public func inVoiceOverOrder() -> [AccessibilityElement] {
        enumerated()
            .filter { !$0.element.isHidden }
            .sorted { a, b in
                if a.element.sortPriority != b.element.sortPriority {
                    return a.element.sortPriority > b.element.sortPriority
                }
                return a.offset < b.offset
            }
            .map(\.element)
    }

    /// What a script reads (issue 24 item 5): the elements in VoiceOver's order, then those hidden
    /// from VoiceOver (`isHidden`) in layout order, so that hiding shows as `hidden = true` and
    /// not only by absence. Whatever acts or counts what VoiceOver reads skips the hidden ones.
    public func inScriptOrder() -> [AccessibilityElement] {
        inVoiceOverOrder() + filter(\.isHidden)
    }
}
