/// The screen's layout direction (G1). In a right-to-left layout "leading" is the right edge.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"

    /// A direction by its name in any case (`"RTL"` is `rtl`), as Dynamic Type sizes and Reduce
    /// Motion's flags are read: a screen setting's name is compared one way everywhere.
    public init?(name: String) { self.init(rawValue: name.lowercased()) }
}
