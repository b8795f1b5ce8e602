/// Where everything of a `NotificationStack` is on screen at a moment, and what a touch there
/// lands on.
extension NotificationStack {
    /// The stack's left edge on screen: `origin.x` from the leading edge (`Placement`).
    func left(in settings: ScreenSettings) -> Double {
        Placement.left(x: origin.x, width: width, in: settings)
    }

    /// N8, N18: the "Show less" button's height, `.frame(minHeight: 44)` around one line of
    /// `.subheadline.weight(.semibold)` text at `size` (``TextStyle``).
    public static func showLessHeight(at size: DynamicTypeSize) -> Double {
        max(minimumTarget, TextStyle.subheadline.lineHeight(at: size))
    }

    /// N18: the header's height at `size`, the `HStack` of the title (one line of
    /// `.title3.bold()`) and the button: the taller of the two. 44 at the default size; the
    /// title's line is taller from AX3 on (51, 58, 65 pt).
    public static func headerHeight(at size: DynamicTypeSize) -> Double {
        Mutant.n18HeaderFixed.isActive
            ? minimumTarget : max(showLessHeight(at: size), TextStyle.title3.lineHeight(at: size))
    }

    /// The header's frame (N8, N18): the stack's top, the full width, the header's height.
    func headerFrame(in settings: ScreenSettings) -> Rect {
        Rect(
            x: left(in: settings), y: origin.y, width: width,
            height: Self.headerHeight(at: settings.dynamicTypeSize))
    }

    /// The "Show less" button sits at the trailing edge (the right one in a left-to-right layout),
    /// centred in the header's height (the `HStack`'s default alignment); its text's width grows
    /// with the subheadline's point size (N18).
    func showLessFrame(in settings: ScreenSettings) -> Rect {
        let size = settings.dynamicTypeSize
        let scale =
            TextStyle.subheadline.metrics(at: size).size / TextStyle.subheadline.metrics(at: .large).size
        let buttonWidth = min(Self.showLessWidth * scale, width)
        let x = settings.isRightToLeft ? left(in: settings) : left(in: settings) + width - buttonWidth
        let height = Self.showLessHeight(at: size)
        let y = origin.y + (Self.headerHeight(at: size) - height) / 2
        return Rect(x: x, y: y, width: buttonWidth, height: height)
    }

    /// The layout's rectangle: the `contentShape(.rect)` that takes the tap (N6).
    func layoutFrame(in settings: ScreenSettings) -> Rect {
        let now = settings.now
        let height =
            NotificationStackMath.height(
                heights: heights, spacing: spacing, peek: peek, progress: progress.value(at: now))
            + heightShift.value(at: now)
        return Rect(
            x: left(in: settings), y: origin.y + cardsTop.value(at: now), width: width, height: height)
    }

    /// Every card's snapshot, in the cards' order (N2 to N5, N10 to N12).
    public func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        frames.cards(in: settings) { makeCardSnapshots(in: settings) }
    }

    private func makeCardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        let now = settings.now
        let tops = NotificationStackMath.tops(
            heights: heights, spacing: spacing, peek: peek, progress: progress.value(at: now))
        let top = origin.y + cardsTop.value(at: now)
        let open = isOpen
        let mirror = settings.isRightToLeft && !Mutant.n11MirrorTwice.isActive ? -1.0 : 1.0
        let left = left(in: settings)
        var result: [CardSnapshot] = []
        result.reserveCapacity(cards.count)
        for (index, card) in cards.enumerated() {
            let row = rows[index]
            let scale = row.scale.value(at: now)
            // The row's offset is inside the scale effect, which is anchored at the bottom (N3).
            var frame = Rect(
                x: left, y: top + tops[index] + row.shift.value(at: now), width: width,
                height: card.height
            )
            .scaled(by: scale, anchorX: 0.5, anchorY: 1)
            frame.x += mirror * row.offset.value(at: now) * scale
            let opacity = clampUnit(row.opacity.value(at: now)) * clampUnit(row.fade.value(at: now))
            let hasArea = frame.width > 0 && frame.height > 0
            // SwiftUI does not hit-test a view drawn at opacity 0 (a card fading in behind the
            // pile, or swiped out past the fade distance): found by `stackplay explore`.
            result.append(
                CardSnapshot(
                    id: card.id, frame: frame, scale: scale, opacity: opacity,
                    z: Double(Mutant.n5ZReversed.isActive ? index + 1 : cards.count - index),
                    isVisible: opacity > 0 && hasArea,
                    isHittable: open && hasArea && (opacity > 0 || Mutant.n4HitTransparent.isActive)))
        }
        return result
    }

    public func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        frames.snapshot(in: settings) { makeSnapshot(in: settings) }
    }

    private func makeSnapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        let now = settings.now
        let layout = layoutFrame(in: settings)
        var parts: [PartSnapshot] = []
        let headerShown = clampUnit(headerOpacity.value(at: now))
        if showsHeader || headerShown > 0 {
            parts.append(
                PartSnapshot(
                    name: "header", frame: headerFrame(in: settings), opacity: headerShown,
                    isHittable: showsHeader))
            parts.append(
                PartSnapshot(
                    name: "show_less", frame: showLessFrame(in: settings), opacity: headerShown,
                    isHittable: showsHeader))
        }
        return ComponentSnapshot(
            kind: kind, name: name,
            frame: Rect(x: left(in: settings), y: origin.y, width: width, height: layout.maxY - origin.y),
            cards: cardSnapshots(in: settings), leaving: leavingSnapshots(in: settings), parts: parts,
            state: [
                ("expanded", .bool(isExpanded)),
                ("open", .bool(isOpen)),
                ("progress", .number(progress.value(at: now))),
                ("count", .number(Double(cards.count))),
                ("ids", .strings(ids)),
                ("dismissible", .bool(isDismissible)),
                ("swipeable", .bool(isSwipeable)),
                ("dismissed", .strings(dismissed)),
            ])
    }

    public var cardCount: Int { cards.count }

    public var cardTextBytes: Int { cards.reduce(0) { $0 + $1.id.utf8.count + $1.label.utf8.count } }

    public func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        hitTester(in: settings)(point)
    }

    public func hitTester(in settings: ScreenSettings) -> (Point) -> ComponentTarget? {
        let header =
            showsHeader ? (frame: headerFrame(in: settings), showLess: showLessFrame(in: settings)) : nil
        // The first card is on top (N5): z falls with the index.
        let cards = isOpen ? TopmostCards(cardSnapshots(in: settings)) : nil
        let layout = layoutFrame(in: settings)
        return { point in
            if let header, header.frame.contains(point) {
                return header.showLess.contains(point) ? "show_less" : "header"
            }
            if let card = cards?.card(at: point) { return .card(card.id) }
            return layout.contains(point) ? "stack" : nil
        }
    }

    /// The layout's rectangle and the header's, which a closed stack's snapshot may not show.
    public func extraHitRegions(in settings: ScreenSettings) -> [Rect] {
        [layoutFrame(in: settings), headerFrame(in: settings), showLessFrame(in: settings)]
    }

    public func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point {
        switch target {
        case "stack": return layoutFrame(in: settings).center
        case "show_less":
            guard showsHeader else {
                throw StackModelError("'Show less' shows only while the stack is expanded")
            }
            return showLessFrame(in: settings).center
        case "header":
            guard showsHeader else {
                throw StackModelError("the header shows only while the stack is expanded")
            }
            return headerFrame(in: settings).center
        default:
            let id = target.bareName
            guard cards.contains(where: { $0.id.isSameBytes(id) }) else { throw unknownCard(id) }
            return visibleCenter(of: id, among: cardSnapshots(in: settings))
        }
    }

    func unknownCard(_ id: String) -> StackModelError { unknownCardError(id, in: name, cards: cards) }
}

/// A value clamped to 0...1, as opacity is drawn.
func clampUnit(_ value: Double) -> Double { min(max(value, 0), 1) }

/// The centre of the tallest band of `id`'s frame that no card drawn over it covers: where a
/// finger lands to touch that card and not another.
func visibleCenter(of id: String, among cards: [CardSnapshot]) -> Point {
    guard let card = cards.first(where: { $0.id.isSameBytes(id) }) else { return .zero }
    var bands = [(card.frame.minY, card.frame.maxY)]
    for other in cards where other.z > card.z && other.isHittable {
        guard other.frame.minX <= card.frame.midX, other.frame.maxX > card.frame.midX else { continue }
        bands = bands.flatMap { band -> [(Double, Double)] in
            var pieces: [(Double, Double)] = []
            if other.frame.minY > band.0 { pieces.append((band.0, min(band.1, other.frame.minY))) }
            if other.frame.maxY < band.1 { pieces.append((max(band.0, other.frame.maxY), band.1)) }
            return pieces.filter { $0.1 > $0.0 }
        }
    }
    guard let best = bands.max(by: { ($0.1 - $0.0) < ($1.1 - $1.0) }) else { return card.frame.center }
    return Point(x: card.frame.midX, y: (best.0 + best.1) / 2)
}
