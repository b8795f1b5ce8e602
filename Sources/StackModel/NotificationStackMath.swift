/// Where each NotificationStack card sits and how large it is drawn: the seed's math (seed 000).
///
/// All lengths are points, measured down from the top of the stack. `progress` is 0 when the
/// stack is closed and 1 when it is open (N1); values outside 0...1 are clamped, but NaN is not:
/// Swift's `min`/`max` pass a NaN first argument through, so a NaN progress makes every top, the
/// height and every scale NaN, as the seed's code does.
public enum NotificationStackMath {
    /// How many cards show their edge under the first one while the stack is closed (N2, N4).
    public static let visibleBehind = Mutant.number(2, (.n4BehindUp, 3), (.n4BehindDown, 1))

    /// How much smaller each depth behind the first card is drawn while closed (N3): 0.94, 0.88.
    public static let shrinkPerDepth = Mutant.number(0.06, (.n3ScaleStepUp, 0.1), (.n3ScaleStepDown, 0.03))

    /// The top of every card, in points from the top of the stack (N2).
    ///
    /// Closed, each card behind the first lines its bottom edge up `peek` under the one before
    /// it, for at most `visibleBehind` cards; open, they follow one another `spacing` apart.
    /// Lining up bottoms means a card taller than the first tops above it, at a negative top,
    /// while closed: the seed's documented limitation (N16). `spacing` and `peek` are not clamped.
    public static func tops(heights: [Double], spacing: Double, peek: Double, progress: Double) -> [Double] {
        guard let front = heights.first else { return [] }
        let progress = min(max(progress, 0), 1)
        var expanded: Double = 0

        return heights.enumerated().map { index, height in
            let collapsed = front + peek * Double(min(index, visibleBehind)) - height
            let top = collapsed + (expanded - collapsed) * progress
            expanded += height + spacing
            return top
        }
    }

    /// The height of the stack in points (N2): 0 with no cards.
    ///
    /// Closed, it is the first card plus `peek` for each card that shows behind it; a card taller
    /// than the first is not in it (N16).
    public static func height(heights: [Double], spacing: Double, peek: Double, progress: Double) -> Double {
        guard let front = heights.first else { return 0 }
        let progress = min(max(progress, 0), 1)
        let collapsed = front + peek * Double(min(heights.count - 1, visibleBehind))
        let expanded = heights.reduce(0, +) + spacing * Double(heights.count - 1)
        return collapsed + (expanded - collapsed) * progress
    }

    /// The scale a card is drawn at, anchored at its bottom edge (N3).
    ///
    /// `depth` is the card's index: 0 for the first, which is never smaller; depths past
    /// `visibleBehind` are drawn like the last visible one, negative ones like the first.
    public static func scale(depth: Int, progress: Double) -> Double {
        1 - shrinkPerDepth * Double(min(max(depth, 0), visibleBehind)) * (1 - min(max(progress, 0), 1))
    }
}
