import Testing

@testable import StackModel

/// G9 and N18: text styles at the twelve Dynamic Type sizes, and the notification header that
/// follows them.
@Suite("Text styles and the header")
struct TextStyleTests {
    typealias F = NotificationFixture

    @Test("G9 the default size is the HIG's Large row: title3 20/25, subheadline 15/20, headline 17/22")
    func largeRow() {
        #expect(TextStyle.title3.metrics(at: .large) == .init(size: 20, lineHeight: 25))
        #expect(TextStyle.subheadline.metrics(at: .large) == .init(size: 15, lineHeight: 20))
        #expect(TextStyle.headline.metrics(at: .large) == .init(size: 17, lineHeight: 22))
        #expect(TextStyle.caption1.metrics(at: .large) == .init(size: 12, lineHeight: 16))
        #expect(TextStyle.largeTitle.metrics(at: .large) == .init(size: 34, lineHeight: 41))
    }

    @Test("G9 W12 the headline sizes are the wallet's @ScaledMetric sizes")
    func headlineAgreesWithScaledMetric() {
        let sizes = DynamicTypeSize.allCases.map { TextStyle.headline.metrics(at: $0).size }
        #expect(sizes == [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53])
        #expect(DynamicTypeSize.allCases.map(\.headlineSize) == sizes)
        #expect(DynamicTypeSize.accessibility5.headlineScale == 53.0 / 17)
    }

    @Test("G9 every style grows, never shrinks, from xSmall to AX5, and a line is taller than its text")
    func monotonic() {
        for style in TextStyle.allCases {
            let metrics = DynamicTypeSize.allCases.map { style.metrics(at: $0) }
            #expect(zip(metrics, metrics.dropFirst()).allSatisfy { $0.size <= $1.size }, "\(style)")
            #expect(
                zip(metrics, metrics.dropFirst()).allSatisfy { $0.lineHeight <= $1.lineHeight }, "\(style)")
            #expect(metrics.allSatisfy { $0.lineHeight > $0.size }, "\(style)")
        }
    }

    @Test("N18 the header is 44 at the default size and up to AX2, then the title's line")
    func headerHeights() {
        let heights = DynamicTypeSize.allCases.map { NotificationStack.headerHeight(at: $0) }
        #expect(heights == [44, 44, 44, 44, 44, 44, 44, 44, 44, 51, 58, 65])
        #expect(NotificationStack.showLessHeight(at: .large) == 44)
        #expect(NotificationStack.showLessHeight(at: .accessibility5) == 58)
    }

    @Test("N18 N8 at AX5 the header is 65 high and every card below it moves down 21")
    func headerAtAX5() throws {
        let f = try F(expanded: true)
        let large = f.snapshot
        #expect(try #require(large.part("header")).frame.height == 44)
        f.screen.setDynamicTypeSize(.accessibility5)
        let ax5 = f.snapshot
        let header = try #require(ax5.part("header"))
        #expect(header.frame == Rect(x: 16, y: 100, width: 358, height: 65))
        let showLess = try #require(ax5.part("show_less"))
        #expect(showLess.frame.height == 58)
        #expect(showLess.frame.midY == header.frame.midY)
        #expect(showLess.frame.maxX == 374)
        #expect(isClose(showLess.frame.width, 72 * 49 / 15))
        for (a, b) in zip(large.cards, ax5.cards) {
            #expect(b.frame.y == a.frame.y + 21, "\(a.id)")
        }
        #expect(ax5.frame.height == large.frame.height + 21)
        // The title's VoiceOver frame follows the header.
        let title = try #require(
            f.stack.accessibilityElements(in: f.screen.settings).first { $0.id == "title" })
        #expect(title.frame.height == 65)
    }

    @Test("N18 a stack put on an AX4 screen lays its header out for AX4")
    func headerOnAnAX4Screen() throws {
        let screen = try Screen(settings: ScreenSettings(dynamicTypeSize: .accessibility4))
        let stack = try NotificationStack(
            cards: makeCards(3, height: 70), isExpanded: true, origin: Point(x: 16, y: 0), width: 358)
        try screen.add(stack)
        let snapshot = screen.snapshot().components[0]
        #expect(snapshot.part("header")?.frame.height == 58)
        #expect(snapshot.cards[0].frame.y == 58 + 10)
    }

    @Test("N18 the header's height changes with the text size while it fades in")
    func headerWhileOpening() throws {
        let f = try F()
        f.stack.setExpanded(true, in: f.screen.settings)
        f.screen.setDynamicTypeSize(.accessibility3)
        try f.screen.settle()
        #expect(f.snapshot.part("header")?.frame.height == 51)
        #expect(f.card("messages").frame.y == 100 + 51 + 10)
    }
}
