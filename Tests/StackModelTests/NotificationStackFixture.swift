@testable import StackModel

/// The demo's four notifications, 70 pt high each (a 42-pt icon and 14 pt of padding above and
/// below), on a 390 × 844 screen, the stack at x 16, y 100, 358 wide.
struct NotificationFixture {
    static let ids = ["messages", "calendar", "mail", "fitness"]
    static let origin = Point(x: 16, y: 100)
    static let width = 358.0

    let screen: Screen
    let stack: NotificationStack

    init(
        count: Int = 4, heights: [Double]? = nil, expanded: Bool = false, dismissible: Bool = true,
        direction: LayoutDirection = .leftToRight, reduceMotion: Bool = false
    ) throws {
        screen = try Screen(settings: ScreenSettings(layoutDirection: direction, reduceMotion: reduceMotion))
        let cardHeights = heights ?? Array(repeating: 70, count: count)
        let cards = cardHeights.enumerated().map { index, height in
            CardSpec(id: index < Self.ids.count ? Self.ids[index] : "card\(index)", height: height)
        }
        stack = try NotificationStack(
            cards: cards, isExpanded: expanded, isDismissible: dismissible, origin: Self.origin,
            width: Self.width)
        try screen.add(stack)
    }

    var snapshot: ComponentSnapshot { screen.snapshot().components[0] }
    func card(_ id: String) -> CardSnapshot { snapshot.card(id)! }
    var ids: [String] { stack.cards.map(\.id) }
    var progress: Double { stack.progress.value(at: screen.now) }

    /// Drags the card `id` by `dx` from the centre of the part of it that shows.
    func swipe(_ id: String, by dx: Double, steps: Int = 10) throws {
        let start = try stack.point(of: .card(id), in: screen.settings)
        try screen.drag(from: start, by: Point(x: dx, y: 0), steps: steps)
    }
}
