/// How a component created without an explicit width or height fills its container, as a
/// SwiftUI view that fills its container is laid out again when the container changes size
/// (issue 24 item 5, docs/behaviours.md G7): each dimension it follows is the screen's minus a
/// margin (a wallet's width is the screen's minus `2 × x`), never below 0.
///
/// When the screen's size changes (`Screen.setSize`), the screen applies the new dimensions as
/// changes of their own (`set_width`, `set_height`) after the `set_size` event, so that a trace
/// records them and a replay feeds them back without knowing the rule.
public struct ContainerFill: Hashable, Sendable {
    /// The screen's width minus this is the component's width; nil: its width is its own.
    public var widthMargin: Double?
    /// The screen's height minus this is the component's height; nil: its height is its own.
    public var heightMargin: Double?

    public init(widthMargin: Double? = nil, heightMargin: Double? = nil) {
        self.widthMargin = widthMargin
        self.heightMargin = heightMargin
    }

    /// Follows nothing: the width and height given.
    public static let none = ContainerFill()

    /// The changes that lay a component `width` wide and `height` high out again for a screen of
    /// `size`: only those that change something.
    func changes(for size: Size, width: Double, height: Double?) -> [OwnerChange] {
        var changes: [OwnerChange] = []
        if let widthMargin {
            let new = max(size.width - widthMargin, 0)
            if new != width { changes.append(.setWidth(new)) }
        }
        if let heightMargin, let height {
            let new = max(size.height - heightMargin, 0)
            if new != height { changes.append(.setHeight(new)) }
        }
        return changes
    }
}

extension OwnerChange {
    /// A component that fills its container was laid out at a new width (``ContainerFill``).
    public static let setWidth = OwnerChangeType<Double>("set_width", field: "width", type: .nonNegative)
}
