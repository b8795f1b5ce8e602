/// Where each WalletCardStack card goes: the seed's math (seed 004), and its fixed numbers.
///
/// Lengths are points, measured down from the top of the stack.
public enum WalletCardStackMath {
    /// The distance between the tops of two cards in the pile while one is open (W2).
    public static let pileStep = Mutant.number(14.0, (.w2PileStepUp, 20), (.w2PileStepDown, 8))

    /// The gap between the open card and its details, and between the details and the pile (W5).
    public static let spacing = Mutant.number(16.0, (.w5GapUp, 24), (.w5GapDown, 8))

    /// The room left above and to the sides of the stack for the cards' shadows (W8).
    public static let shadowRoom = Mutant.number(40.0, (.w8ShadowRoomUp, 60), (.w8ShadowRoomDown, 20))

    /// The scale of a card while it is pressed (W7).
    public static let pressedScale = Mutant.number(0.98, (.w7PressUp, 1.0), (.w7PressDown, 0.95))

    /// The distance between the tops of two cards in the stack (W1): `peek`, or less when the
    /// stack would not fit in `height`.
    ///
    /// `peek` is already multiplied by the Dynamic Type scale (W12). 0 for fewer than 2 cards,
    /// when any input is NaN or infinite, or when `height` leaves no room below one card; a
    /// negative `peek` counts as 0.
    public static func step(count: Int, peek: Double, cardHeight: Double, height: Double) -> Double {
        guard count > 1, peek.isFinite, cardHeight.isFinite, height.isFinite else { return 0 }
        let room = max(height - cardHeight, 0)
        return Mutant.w1StepUnclamped.isActive ? max(peek, 0) : min(max(peek, 0), room / Double(count - 1))
    }

    /// The top of each card (W2).
    ///
    /// With none selected they sit one below another, `step` apart. With one selected it goes to
    /// the top (0) and the others, in order, gather in a pile from `height - pileHeight` down,
    /// `min(pileStep, pileHeight / others)` apart, each clamped to 0 or more for the gap only (a
    /// negative `pileHeight` moves the pile below `height`). A `selected` outside `0..<count`
    /// counts as none (W11). NaN is not cleaned up: `min(pileStep, NaN)` is `pileStep`, but the
    /// pile's tops are NaN anyway, and `0 × step` makes the first top NaN for a NaN or infinite step.
    public static func tops(
        count: Int, selected: Int?, step: Double, height: Double, pileHeight: Double,
        pileStep: Double = WalletCardStackMath.pileStep
    ) -> [Double] {
        guard count > 0 else { return [] }
        guard let selected, (0..<count).contains(selected) else {
            return (0..<count).map { Double($0) * step }
        }

        let others = count - 1
        let gap = others > 0 ? min(max(pileStep, 0), max(pileHeight, 0) / Double(others)) : 0
        var place = 0
        return (0..<count).map { index in
            guard index != selected else { return 0 }
            defer { place += 1 }
            return height - pileHeight + Double(place) * gap
        }
    }
}
