/// The mutants of `WalletCardStack` (seed 004): its numbers moved both ways, its clamp removed,
/// its gates (W4, W9, W11) broken, its z-order reversed, and what VoiceOver hears changed.
extension Mutant {
    public static let w1PeekUp = Mutant(
        401, "W1.peek+", "W1", .number, "WalletCardStack+Kind.swift", "w1PeekUp",
        "the default peek is 80 pt, not 64")
    public static let w1PeekDown = Mutant(
        402, "W1.peek-", "W1", .number, "WalletCardStack+Kind.swift", "w1PeekDown",
        "the default peek is 48 pt, not 64")
    public static let w1StepUnclamped = Mutant(
        403, "W1.step-clamp", "W1", .clamp, "WalletCardStackMath.swift", "w1StepUnclamped",
        "the step is not shrunk to fit the height the stack is given")
    public static let w2PileStepUp = Mutant(
        404, "W2.pile-step+", "W2", .number, "WalletCardStackMath.swift", "w2PileStepUp",
        "the pile's step is 20 pt, not 14")
    public static let w2PileStepDown = Mutant(
        405, "W2.pile-step-", "W2", .number, "WalletCardStackMath.swift", "w2PileStepDown",
        "the pile's step is 8 pt, not 14")
    public static let w2PileHeightUp = Mutant(
        406, "W2.pile-height+", "W2", .number, "WalletCardStack+Kind.swift", "w2PileHeightUp",
        "the default pile height is 90 pt, not 76")
    public static let w2PileHeightDown = Mutant(
        407, "W2.pile-height-", "W2", .number, "WalletCardStack+Kind.swift", "w2PileHeightDown",
        "the default pile height is 60 pt, not 76")
    public static let w3CardHeightUp = Mutant(
        408, "W3.card-height+", "W3", .number, "WalletCardStack+Kind.swift", "w3CardHeightUp",
        "the default card height is 220 pt, not 200")
    public static let w3CardHeightDown = Mutant(
        409, "W3.card-height-", "W3", .number, "WalletCardStack+Kind.swift", "w3CardHeightDown",
        "the default card height is 180 pt, not 200")
    public static let w3ZReversed = Mutant(
        410, "W3.z-reversed", "W3", .direction, "WalletCardStack+Layout.swift", "w3ZReversed",
        "the z-order is reversed: earlier cards are drawn over later ones")
    public static let w4TapSelects = Mutant(
        411, "W4.tap-selects", "W4", .gate, "WalletCardStack+Gestures.swift", "w4TapSelects",
        "a tap while a card is selected selects the tapped card instead of clearing")
    public static let w5GapUp = Mutant(
        412, "W5.gap+", "W5", .number, "WalletCardStackMath.swift", "w5GapUp",
        "the detail gap is 24 pt, not 16")
    public static let w5GapDown = Mutant(
        413, "W5.gap-", "W5", .number, "WalletCardStackMath.swift", "w5GapDown",
        "the detail gap is 8 pt, not 16")
    public static let w7PressUp = Mutant(
        414, "W7.press+", "W7", .number, "WalletCardStackMath.swift", "w7PressUp",
        "a pressed card is not scaled (1, not 0.98)")
    public static let w7PressDown = Mutant(
        415, "W7.press-", "W7", .number, "WalletCardStackMath.swift", "w7PressDown",
        "a pressed card is drawn at 0.95, not 0.98")
    public static let w7PressDurationUp = Mutant(
        416, "W7.press-duration+", "W7", .number, "WalletCardStack.swift", "w7PressDurationUp",
        "the press eases out over 0.3 s, not 0.15")
    public static let w7PressDurationDown = Mutant(
        417, "W7.press-duration-", "W7", .number, "WalletCardStack.swift", "w7PressDurationDown",
        "the press eases out over 0.05 s, not 0.15")
    public static let w8ShadowRoomUp = Mutant(
        418, "W8.shadow-room+", "W8", .number, "WalletCardStackMath.swift", "w8ShadowRoomUp",
        "the mask leaves 60 pt for shadows, not 40")
    public static let w8ShadowRoomDown = Mutant(
        419, "W8.shadow-room-", "W8", .number, "WalletCardStackMath.swift", "w8ShadowRoomDown",
        "the mask leaves 20 pt for shadows, not 40")
    public static let w9EscapeIgnored = Mutant(
        420, "W9.escape-ignored", "W9", .gate, "WalletCardStack+Gestures.swift", "w9EscapeIgnored",
        "Escape does not clear the selection")
    public static let w10HintSwapped = Mutant(
        421, "W10.hint", "W10", .accessibility, "WalletCardStack+Accessibility.swift", "w10HintSwapped",
        "the selected and stacked hints are swapped")
    public static let w10TraitMissing = Mutant(
        422, "W10.trait", "W10", .accessibility, "WalletCardStack+Accessibility.swift", "w10TraitMissing",
        "the selected card lacks the Selected trait")
    public static let w10HiddenShown = Mutant(
        423, "W10.hidden", "W10", .accessibility, "WalletCardStack+Accessibility.swift", "w10HiddenShown",
        "with a card selected, the others are not hidden from VoiceOver")
    public static let w10OrderChanged = Mutant(
        424, "W10.order", "W10", .accessibility, "WalletCardStack+Accessibility.swift", "w10OrderChanged",
        "the selected card has sort priority 0, not 1")
    public static let w10ActivationCentred = Mutant(
        425, "W10.activation-point", "W10", .accessibility, "WalletCardStack+Accessibility.swift",
        "w10ActivationCentred", "each card's activation point is its centre, not the middle of what shows")
    public static let w11UnknownCounted = Mutant(
        426, "W11.unknown-counted", "W11", .gate, "WalletCardStack.swift", "w11UnknownCounted",
        "a selection naming no card opens the first card instead of counting as none")

    /// The mutants of `WalletCardStack`.
    public static let walletCardStack: [Mutant] = [
        .w1PeekUp, .w1PeekDown, .w1StepUnclamped, .w2PileStepUp, .w2PileStepDown, .w2PileHeightUp,
        .w2PileHeightDown, .w3CardHeightUp, .w3CardHeightDown, .w3ZReversed, .w4TapSelects, .w5GapUp,
        .w5GapDown,
        .w7PressUp, .w7PressDown, .w7PressDurationUp, .w7PressDurationDown, .w8ShadowRoomUp,
        .w8ShadowRoomDown,
        .w9EscapeIgnored, .w10HintSwapped, .w10TraitMissing, .w10HiddenShown, .w10OrderChanged,
        .w10ActivationCentred, .w11UnknownCounted,
    ]
}
