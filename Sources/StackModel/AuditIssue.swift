/// The kinds of check `Screen.audit` makes, modelled on XCUITest's
/// `XCUIAccessibilityAuditType` (`hitRegion`, `elementDetection`, ...). Each rule is documented on
/// its case; README "Accessibility audit" lists them with the seed lines they come from.
public enum AuditType: String, CaseIterable, Hashable, Sendable, Comparable {
    /// An element a touch acts on (a button, a swipeable card) of which no 44 × 44 pt square is
    /// reachable on screen: too small, or covered by what is over it (HIG; SEMANTICS.md).
    case hitRegion = "hit_region"
    /// A card a touch reaches that VoiceOver cannot find (no element, or a hidden one); a control
    /// whose activation point is off screen or lands on something else when tapped.
    case elementDetection = "element_detection"
    /// An empty label, a label that is the raw id, two elements of a component with the same
    /// label, a button without a hint where its component's other buttons have one.
    case sufficientDescription = "sufficient_description"
    /// At the screen's text size, a card or part that fits the screen and its component at Large
    /// but no longer does.
    case dynamicType = "dynamic_type"
    /// A control without the Button trait; the selected card without the Selected trait.
    case trait
    /// A named action that changes nothing when performed now.
    case action
    /// Not applicable headlessly: stackplay draws no colours.
    case contrast
    /// Not applicable headlessly: stackplay lays out no text.
    case textClipped = "text_clipped"

    /// The types stackplay can check: all but `contrast` and `text_clipped`.
    public static let applicable: [AuditType] = allCases.filter(\.isApplicable)

    public var isApplicable: Bool { self != .contrast && self != .textClipped }

    /// Why a type cannot be audited here, for the error that refuses it.
    public var notApplicableReason: String? {
        switch self {
        case .contrast: "'contrast' cannot be audited headlessly: stackplay draws no colours"
        case .textClipped: "'text_clipped' cannot be audited headlessly: stackplay lays out no text"
        default: nil
        }
    }

    public static func < (a: AuditType, b: AuditType) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One accessibility problem on a screen at a moment.
public struct AuditIssue: Hashable, Sendable {
    public var type: AuditType
    /// Which rule of the type found it (`too_small`, `raw_id_label`): what an allow-list may name.
    public var rule: String
    /// The component's name and kind.
    public var component: String
    public var kind: ComponentKind
    /// The element's id (`card:savings`, `show_less`) or a part's name.
    public var element: String
    /// Where it is on screen: the element's frame.
    public var frame: Rect
    /// One line: `card:savings of wallet: 350 × 14 pt reachable, under 44 × 44 pt`.
    public var compact: String
    /// What the rule checks, what it found, and what to do.
    public var detail: String
    /// The screen's time.
    public var time: Double

    public init(
        type: AuditType, rule: String, component: String, kind: ComponentKind, element: String, frame: Rect,
        compact: String, detail: String, time: Double
    ) {
        self.type = type
        self.rule = rule
        self.component = component
        self.kind = kind
        self.element = element
        self.frame = frame
        self.compact = compact
        self.detail = detail
        self.time = time
    }

    /// `hit_region card:savings of wallet (x 20 y 540 w 350 h 14): ...`: how reports list it.
    public var line: String {
        "\(type.rawValue) \(element) of \(kind.rawValue) '\(component)' at t = \(formatNumber(time)) s "
            + "(x \(formatNumber(frame.x)) y \(formatNumber(frame.y)) w \(formatNumber(frame.width)) "
            + "h \(formatNumber(frame.height))): \(compact)"
    }
}

/// A known issue an audit does not report: every field given must match; `element` may end in
/// `*` to match ids that start with the rest (`card:*`).
public struct AuditAllowance: Hashable, Sendable {
    public var type: AuditType
    public var element: String?
    public var component: String?
    public var kind: String?
    public var rule: String?
    /// Why it is allowed (a seed line); reports do not read it.
    public var reason: String?

    public init(
        type: AuditType, element: String? = nil, component: String? = nil, kind: String? = nil,
        rule: String? = nil, reason: String? = nil
    ) {
        self.type = type
        self.element = element
        self.component = component
        self.kind = kind
        self.rule = rule
        self.reason = reason
    }

    public func matches(_ issue: AuditIssue) -> Bool {
        guard issue.type == type else { return false }
        if let component, !component.isSameBytes(issue.component) { return false }
        if let kind, kind != issue.kind.rawValue { return false }
        if let rule, rule != issue.rule { return false }
        if let element {
            if element.hasSuffix("*") {
                if !issue.element.utf8.starts(with: element.utf8.dropLast()) { return false }
            } else if !element.isSameBytes(issue.element) {
                return false
            }
        }
        return true
    }
}

extension AuditAllowance {
    /// The findings in the seed components themselves, which a user of stackplay cannot change:
    /// `--audit` lists them as known issues and does not fail a test on them (`--audit=strict`
    /// does). docs/audit.md ("Findings on the seeds") gives each one's seed line.
    public static let seedFindings = [
        AuditAllowance(
            type: .elementDetection, element: "card:*", kind: "wallet_card_stack", rule: "hidden_hittable",
            reason: "seed 004: .accessibilityHidden(selected != nil && index != selected)"),
        AuditAllowance(
            type: .action, element: "card:*", kind: "notification_stack", rule: "does_nothing",
            reason: "seed 000: .accessibilityAction(named: \"Clear\") { if isSwipeable { onDismiss() } }"),
    ]
}

/// What an audit checks: the types, the known issues it leaves out (`allow`), and the issues it
/// reports as known without failing (`known`: `--audit`'s seed findings).
public struct AuditOptions: Hashable, Sendable {
    public var types: [AuditType]
    public var allow: [AuditAllowance]
    /// Issues that are listed as known and fail nothing (``AuditAllowance/seedFindings`` under
    /// `--audit`, none under `--audit=strict` or in `screen:audit()`).
    public var known: [AuditAllowance]

    /// Every applicable type, nothing allowed, nothing known.
    public init(
        types: [AuditType] = AuditType.applicable, allow: [AuditAllowance] = [], known: [AuditAllowance] = []
    ) {
        self.types = types.filter(\.isApplicable)
        self.allow = allow
        self.known = known
    }

    public func checks(_ type: AuditType) -> Bool { types.contains(type) }

    public func isAllowed(_ issue: AuditIssue) -> Bool { allow.contains { $0.matches(issue) } }

    public func isKnown(_ issue: AuditIssue) -> Bool { known.contains { $0.matches(issue) } }
}
