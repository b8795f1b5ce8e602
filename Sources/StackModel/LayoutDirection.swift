/// The screen's layout direction (G1). In a right-to-left layout "leading" is the right edge.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}
