/// The mutants of `NotificationStack` (seed 000): its numbers moved both ways, its comparisons
/// made strict or loose, its clamps removed, its gates opened, its mirroring and z-order turned
/// round, and what VoiceOver hears changed.
extension Mutant {
    public static let n1OpenStrict = Mutant(
        201, "N1.open-strict", "N1", .comparison, "NotificationStack.swift", "n1OpenStrict",
        "a stack of 2 cards counts as open (count <= 2 for count < 2)")
    public static let n2PeekUp = Mutant(
        202, "N2.peek+", "N2", .number, "NotificationStack+Kind.swift", "n2PeekUp",
        "the default peek is 16 pt, not 10")
    public static let n2PeekDown = Mutant(
        203, "N2.peek-", "N2", .number, "NotificationStack+Kind.swift", "n2PeekDown",
        "the default peek is 4 pt, not 10")
    public static let n2SpacingUp = Mutant(
        204, "N2.spacing+", "N2", .number, "NotificationStack+Kind.swift", "n2SpacingUp",
        "the default spacing is 16 pt, not 10")
    public static let n2SpacingDown = Mutant(
        205, "N2.spacing-", "N2", .number, "NotificationStack+Kind.swift", "n2SpacingDown",
        "the default spacing is 4 pt, not 10")
    public static let n3ScaleStepUp = Mutant(
        206, "N3.scale-step+", "N3", .number, "NotificationStackMath.swift", "n3ScaleStepUp",
        "closed cards shrink 0.1 per depth, not 0.06")
    public static let n3ScaleStepDown = Mutant(
        207, "N3.scale-step-", "N3", .number, "NotificationStackMath.swift", "n3ScaleStepDown",
        "closed cards shrink 0.03 per depth, not 0.06")
    public static let n4BehindUp = Mutant(
        208, "N4.behind+", "N4", .number, "NotificationStackMath.swift", "n4BehindUp",
        "3 cards show behind the first while closed, not 2")
    public static let n4BehindDown = Mutant(
        209, "N4.behind-", "N4", .number, "NotificationStackMath.swift", "n4BehindDown",
        "1 card shows behind the first while closed, not 2")
    public static let n4ShownStrict = Mutant(
        210, "N4.shown-strict", "N4", .comparison, "NotificationStack.swift", "n4ShownStrict",
        "closed, the last card behind is hidden (index < 2 for index <= 2)")
    public static let n4HitTransparent = Mutant(
        211, "N4.hit-transparent", "N4", .gate, "NotificationStack+Layout.swift", "n4HitTransparent",
        "a card drawn at opacity 0 takes touches")
    public static let n5ZReversed = Mutant(
        212, "N5.z-reversed", "N5", .direction, "NotificationStack+Layout.swift", "n5ZReversed",
        "the z-order is reversed: the last card is on top")
    public static let n6TapIgnored = Mutant(
        213, "N6.tap-ignored", "N6", .gate, "NotificationStack+Gestures.swift", "n6TapIgnored",
        "a tap on the closed stack does not open it")
    public static let n8HeaderUp = Mutant(
        214, "N8.header+", "N8", .number, "NotificationStack.swift", "n8HeaderUp",
        "the header and 'Show less' are 60 pt high, not 44")
    public static let n8HeaderDown = Mutant(
        215, "N8.header-", "N8", .number, "NotificationStack.swift", "n8HeaderDown",
        "the header and 'Show less' are 30 pt high, not 44")
    public static let n8HeaderStrict = Mutant(
        216, "N8.header-strict", "N8", .comparison, "NotificationStack.swift", "n8HeaderStrict",
        "the header shows with one card (count >= 1 for count > 1)")
    public static let n9SwipeWhileClosed = Mutant(
        217, "N9.swipe-while-closed", "N9", .gate, "NotificationStack.swift", "n9SwipeWhileClosed",
        "cards can be swiped while the stack is closed")
    public static let n9SwipeWithoutDismiss = Mutant(
        218, "N9.swipe-without-ondismiss", "N9", .gate, "NotificationStack.swift", "n9SwipeWithoutDismiss",
        "cards can be swiped when the owner set no onDismiss")
    public static let n10DistanceUp = Mutant(
        219, "N10.min-distance+", "N10", .number, "NotificationStack.swift", "n10DistanceUp",
        "the swipe starts after 30 pt, not 20")
    public static let n10DistanceDown = Mutant(
        220, "N10.min-distance-", "N10", .number, "NotificationStack.swift", "n10DistanceDown",
        "the swipe starts after 10 pt, not 20")
    public static let n10LeadingUnclamped = Mutant(
        221, "N10.leading-clamp", "N10", .clamp, "NotificationStack+Gestures.swift", "n10LeadingUnclamped",
        "min(offset, 0) removed: a card follows a swipe towards the trailing edge")
    public static let n10MirrorMissing = Mutant(
        222, "N10.mirror-missing", "N10", .direction, "NotificationStack+Gestures.swift", "n10MirrorMissing",
        "right-to-left, the swipe's translation is not mirrored: a swipe to the leading edge does nothing")
    public static let n11MirrorTwice = Mutant(
        223, "N11.mirror-twice", "N11", .direction, "NotificationStack+Layout.swift", "n11MirrorTwice",
        "right-to-left, the drawn offset is mirrored again: the card moves towards the trailing edge")
    public static let n12FadeDistanceUp = Mutant(
        224, "N12.fade-distance+", "N12", .number, "NotificationStack.swift", "n12FadeDistanceUp",
        "the fade reaches its floor at 350 pt, not 275")
    public static let n12FadeDistanceDown = Mutant(
        225, "N12.fade-distance-", "N12", .number, "NotificationStack.swift", "n12FadeDistanceDown",
        "the fade reaches its floor at 200 pt, not 275")
    public static let n12FadeCapUp = Mutant(
        226, "N12.fade-cap+", "N12", .number, "NotificationStack.swift", "n12FadeCapUp",
        "a swiped card fades by at most 0.8, not 0.6")
    public static let n12FadeCapDown = Mutant(
        227, "N12.fade-cap-", "N12", .number, "NotificationStack.swift", "n12FadeCapDown",
        "a swiped card fades by at most 0.4, not 0.6")
    public static let n12FadeUnclamped = Mutant(
        228, "N12.fade-clamp", "N12", .clamp, "NotificationStack.swift", "n12FadeUnclamped",
        "min(..., 0.6) removed: a swiped card fades without a floor")
    public static let n13ThresholdUp = Mutant(
        229, "N13.threshold+", "N13", .number, "NotificationStack.swift", "n13ThresholdUp",
        "a card leaves past 140 pt, not 110")
    public static let n13ThresholdDown = Mutant(
        230, "N13.threshold-", "N13", .number, "NotificationStack.swift", "n13ThresholdDown",
        "a card leaves past 80 pt, not 110")
    public static let n13Strict = Mutant(
        231, "N13.strict", "N13", .comparison, "NotificationStack+Gestures.swift", "n13Strict",
        "a card let go at exactly -110 leaves (offset <= -110 for offset < -110)")
    public static let n15HintChanged = Mutant(
        232, "N15.hint", "N15", .accessibility, "NotificationStack.swift", "n15HintChanged",
        "the closed stack's hint is 'Shows all', not 'Shows them all'")
    public static let n15LabelChanged = Mutant(
        233, "N15.label", "N15", .accessibility, "NotificationStack+Accessibility.swift", "n15LabelChanged",
        "the closed stack is labelled by the title, not by its first card")
    public static let n15TraitChanged = Mutant(
        234, "N15.trait", "N15", .accessibility, "NotificationStack+Accessibility.swift", "n15TraitChanged",
        "the closed stack is static text, not a button")
    public static let n15HiddenShown = Mutant(
        235, "N15.hidden", "N15", .accessibility, "NotificationStack+Accessibility.swift", "n15HiddenShown",
        "closed, the cards are not hidden from VoiceOver")
    public static let n15OrderReversed = Mutant(
        236, "N15.order", "N15", .accessibility, "NotificationStack+Accessibility.swift", "n15OrderReversed",
        "VoiceOver reads the elements in reverse order")
    public static let n15ClearUngated = Mutant(
        237, "N15.clear-gate", "N15", .gate, "NotificationStack+Accessibility.swift", "n15ClearUngated",
        "'Clear' dismisses a card that could not be swiped")
    public static let n17RemovalAtOnce = Mutant(
        238, "N17.removal-at-once", "N17", .gate, "LeavingCard.swift", "n17RemovalAtOnce",
        "a removed card vanishes at once instead of fading out with the count spring")
    public static let n17HeightJumps = Mutant(
        239, "N17.height-jumps", "N17", .gate, "NotificationStack.swift", "n17HeightJumps",
        "the stack's height jumps to its new value when the number of cards changes")
    public static let n18HeaderFixed = Mutant(
        240, "N18.header-fixed", "N18", .gate, "NotificationStack+Layout.swift", "n18HeaderFixed",
        "the header stays 44 pt high at every Dynamic Type size")

    /// The mutants of `NotificationStack`.
    public static let notificationStack: [Mutant] = [
        .n1OpenStrict, .n2PeekUp, .n2PeekDown, .n2SpacingUp, .n2SpacingDown, .n3ScaleStepUp, .n3ScaleStepDown,
        .n4BehindUp, .n4BehindDown, .n4ShownStrict, .n4HitTransparent, .n5ZReversed, .n6TapIgnored,
        .n8HeaderUp, .n8HeaderDown, .n8HeaderStrict, .n9SwipeWhileClosed, .n9SwipeWithoutDismiss,
        .n10DistanceUp, .n10DistanceDown, .n10LeadingUnclamped, .n10MirrorMissing, .n11MirrorTwice,
        .n12FadeDistanceUp, .n12FadeDistanceDown, .n12FadeCapUp, .n12FadeCapDown, .n12FadeUnclamped,
        .n13ThresholdUp, .n13ThresholdDown, .n13Strict, .n15HintChanged, .n15LabelChanged, .n15TraitChanged,
        .n15HiddenShown, .n15OrderReversed, .n15ClearUngated, .n17RemovalAtOnce, .n17HeightJumps,
        .n18HeaderFixed,
    ]
}
