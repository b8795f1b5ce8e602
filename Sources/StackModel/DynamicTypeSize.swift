/// The twelve Dynamic Type sizes, smallest first (``TextStyle`` gives each text style's metrics at
/// each). Large is the default.
public enum DynamicTypeSize: String, Sendable, CaseIterable, Comparable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// The headline text style's size in points at this Dynamic Type size (``TextStyle``'s table,
    /// from the Human Interface Guidelines).
    public var headlineSize: Double { TextStyle.headline.metrics(at: self).size }

    /// The headline size at the default size, Large: the denominator of every scale.
    public static let defaultHeadlineSize: Double = 17

    /// `@ScaledMetric(relativeTo: .headline)` of 1 at this size: `headlineSize / 17` (W12).
    ///
    /// Not rounded to the pixel grid: the seed multiplies `peek` by this scale, and the issue's
    /// reference value for AX5 is exactly `64 × 53 / 17`, so stackplay keeps the exact ratio.
    public var headlineScale: Double { headlineSize / Self.defaultHeadlineSize }

    /// The names scripts use: `"large"`, `"xxxLarge"`, `"AX5"`, and the long forms
    /// `"accessibility5"`.
    public init?(name: String) {
        if let size = DynamicTypeSize(rawValue: name) {
            self = size
            return
        }
        let lowered = name.lowercased()
        if let size = DynamicTypeSize.allCases.first(where: {
            $0.rawValue.lowercased() == lowered || $0.shortName.lowercased() == lowered
        }) {
            self = size
            return
        }
        return nil
    }

    /// The short spelling: `AX1` … `AX5` for the accessibility sizes, the raw name otherwise.
    public var shortName: String {
        switch self {
        case .accessibility1: "AX1"
        case .accessibility2: "AX2"
        case .accessibility3: "AX3"
        case .accessibility4: "AX4"
        case .accessibility5: "AX5"
        default: rawValue
        }
    }

    public static func < (lhs: DynamicTypeSize, rhs: DynamicTypeSize) -> Bool {
        lhs.headlineSize < rhs.headlineSize
    }
}
