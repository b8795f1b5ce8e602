/// The mutants of what every component shares: the springs (G2, and the seeds' four), Reduce
/// Motion, the tap and drag limits (G5) and hit testing (G4).
extension Mutant {
    public static let g2ReduceMotionIgnored = Mutant(
        101, "G2.reduce-motion-ignored", "G2", .gate, "ScreenSettings.swift",
        "g2ReduceMotionIgnored", "springs run even with Reduce Motion on")
    public static let n7ExpandDurationUp = Mutant(
        102, "N7.expand-duration+", "N7", .number, "Spring.swift",
        "n7ExpandDurationUp", "the open/close spring lasts 0.6 s, not 0.45 s")
    public static let n7ExpandDurationDown = Mutant(
        103, "N7.expand-duration-", "N7", .number, "Spring.swift",
        "n7ExpandDurationDown", "the open/close spring lasts 0.3 s, not 0.45 s")
    public static let n7ExpandBounceUp = Mutant(
        104, "N7.expand-bounce+", "N7", .number, "Spring.swift",
        "n7ExpandBounceUp", "the open/close spring bounces 0.4, not 0.2")
    public static let n7ExpandBounceDown = Mutant(
        105, "N7.expand-bounce-", "N7", .number, "Spring.swift",
        "n7ExpandBounceDown", "the open/close spring does not bounce (0, not 0.2)")
    public static let n13SpringBackDurationUp = Mutant(
        106, "N13.spring-back-duration+", "N13", .number, "Spring.swift",
        "n13SpringBackDurationUp", "the spring back lasts 0.5 s, not 0.35 s")
    public static let n13SpringBackDurationDown = Mutant(
        107, "N13.spring-back-duration-", "N13", .number, "Spring.swift",
        "n13SpringBackDurationDown", "the spring back lasts 0.2 s, not 0.35 s")
    public static let n13SpringBackBounceUp = Mutant(
        108, "N13.spring-back-bounce+", "N13", .number, "Spring.swift",
        "n13SpringBackBounceUp", "the spring back bounces 0.45, not 0.25")
    public static let n13SpringBackBounceDown = Mutant(
        109, "N13.spring-back-bounce-", "N13", .number, "Spring.swift",
        "n13SpringBackBounceDown", "the spring back does not bounce (0, not 0.25)")
    public static let n14CountDurationUp = Mutant(
        110, "N14.count-duration+", "N14", .number, "Spring.swift",
        "n14CountDurationUp", "the count-change spring lasts 0.6 s, not 0.4 s")
    public static let n14CountDurationDown = Mutant(
        111, "N14.count-duration-", "N14", .number, "Spring.swift",
        "n14CountDurationDown", "the count-change spring lasts 0.25 s, not 0.4 s")
    public static let n14CountBounceUp = Mutant(
        112, "N14.count-bounce+", "N14", .number, "Spring.swift",
        "n14CountBounceUp", "the count-change spring bounces 0.35, not 0.15")
    public static let n14CountBounceDown = Mutant(
        113, "N14.count-bounce-", "N14", .number, "Spring.swift",
        "n14CountBounceDown", "the count-change spring does not bounce (0, not 0.15)")
    public static let w6SelectionDurationUp = Mutant(
        114, "W6.selection-duration+", "W6", .number, "Spring.swift",
        "w6SelectionDurationUp", "the wallet's selection spring lasts 0.7 s, not 0.5 s")
    public static let w6SelectionDurationDown = Mutant(
        115, "W6.selection-duration-", "W6", .number, "Spring.swift",
        "w6SelectionDurationDown", "the wallet's selection spring lasts 0.3 s, not 0.5 s")
    public static let w6SelectionBounceUp = Mutant(
        116, "W6.selection-bounce+", "W6", .number, "Spring.swift",
        "w6SelectionBounceUp", "the wallet's selection spring bounces 0.4, not 0.2")
    public static let w6SelectionBounceDown = Mutant(
        117, "W6.selection-bounce-", "W6", .number, "Spring.swift",
        "w6SelectionBounceDown", "the wallet's selection spring does not bounce (0, not 0.2)")
    public static let g5TapDistanceUp = Mutant(
        118, "G5.tap-distance+", "G5", .number, "Touch.swift",
        "g5TapDistanceUp", "a tap survives 70 pt of straying, not 45 pt")
    public static let g5TapDistanceDown = Mutant(
        119, "G5.tap-distance-", "G5", .number, "Touch.swift",
        "g5TapDistanceDown", "a tap fails past 20 pt of straying, not 45 pt")
    public static let g5TapDurationUp = Mutant(
        120, "G5.tap-duration+", "G5", .number, "Touch.swift",
        "g5TapDurationUp", "a tap may last 1.5 s, not 0.75 s")
    public static let g5TapDurationDown = Mutant(
        121, "G5.tap-duration-", "G5", .number, "Touch.swift",
        "g5TapDurationDown", "a tap fails past 0.4 s, not 0.75 s")
    public static let g5TapStrict = Mutant(
        122, "G5.tap-strict", "G5", .comparison, "Touch.swift",
        "g5TapStrict", "a tap must stray strictly less than its limit (< for <=)")
    public static let g5DragStrict = Mutant(
        123, "G5.drag-strict", "G5", .comparison, "Touch.swift",
        "g5DragStrict", "a drag starts only strictly past its minimum distance (> for >=)")
    public static let g4HitHidden = Mutant(
        124, "G4.hit-hidden", "G4", .gate, "CardTargets.swift",
        "g4HitHidden", "touches land on cards that are not hittable (hidden, transparent)")

    /// The mutants every component shares.
    public static let shared: [Mutant] = [
        .g2ReduceMotionIgnored, .n7ExpandDurationUp, .n7ExpandDurationDown, .n7ExpandBounceUp,
        .n7ExpandBounceDown, .n13SpringBackDurationUp, .n13SpringBackDurationDown, .n13SpringBackBounceUp,
        .n13SpringBackBounceDown, .n14CountDurationUp, .n14CountDurationDown, .n14CountBounceUp,
        .n14CountBounceDown, .w6SelectionDurationUp, .w6SelectionDurationDown, .w6SelectionBounceUp,
        .w6SelectionBounceDown, .g5TapDistanceUp, .g5TapDistanceDown, .g5TapDurationUp, .g5TapDurationDown,
        .g5TapStrict, .g5DragStrict, .g4HitHidden,
    ]
}
