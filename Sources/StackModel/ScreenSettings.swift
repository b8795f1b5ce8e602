/// What every component reads from the screen at a moment (G1): its size, layout direction,
/// Reduce Motion, Dynamic Type size, and the clock's current time.
public struct ScreenSettings: Hashable, Sendable {
    public var size: Size
    public var layoutDirection: LayoutDirection
    public var reduceMotion: Bool
    public var dynamicTypeSize: DynamicTypeSize
    /// The virtual clock's time in seconds; it moves only when told (G1).
    public var now: Double

    public init(
        size: Size = Size(width: 390, height: 844), layoutDirection: LayoutDirection = .leftToRight,
        reduceMotion: Bool = false, dynamicTypeSize: DynamicTypeSize = .large, now: Double = 0
    ) {
        self.size = size
        self.layoutDirection = layoutDirection
        self.reduceMotion = reduceMotion
        self.dynamicTypeSize = dynamicTypeSize
        self.now = now
    }

    public var isRightToLeft: Bool { layoutDirection == .rightToLeft }

    /// The animation a seed asks for, or nil under Reduce Motion: the seeds pass
    /// `reduceMotion ? nil : .spring(...)` (G2).
    public func animation(_ spring: Spring) -> Animation? {
        reduceMotion && !Mutant.g2ReduceMotionIgnored.isActive ? nil : .spring(spring)
    }
}
