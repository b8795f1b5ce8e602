/// Where a component's `x` puts it (G1): SwiftUI places a view by its leading edge, so `x` is the
/// distance from the screen's leading edge to the component's, the left edge in a left-to-right
/// layout and the right edge in a right-to-left one. A component placed off centre in one
/// direction is its mirror image in the other, and one placed in the middle stays where it is.
public enum Placement {
    /// The component's left edge on screen for a leading inset `x` and a width `width`: `x` left to
    /// right, `screen width − x − width` right to left. It follows the screen's size and direction
    /// as they change.
    public static func left(x: Double, width: Double, in settings: ScreenSettings) -> Double {
        settings.isRightToLeft ? settings.size.width - x - width : x
    }
}
