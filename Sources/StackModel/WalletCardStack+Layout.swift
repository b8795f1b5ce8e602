/// Where everything of a `WalletCardStack` is on screen at a moment, and what a touch there lands
/// on.
extension WalletCardStack {
    /// The stack's left edge on screen: `origin.x` from the leading edge (`Placement`).
    func left(in settings: ScreenSettings) -> Double {
        Placement.left(x: origin.x, width: width, in: settings)
    }

    /// The rectangle the stack is given (W1): its width, the height it is given.
    func stackFrame(in settings: ScreenSettings) -> Rect {
        Rect(x: left(in: settings), y: origin.y, width: width, height: height)
    }

    /// The mask (W8): cut at the stack's bottom edge, `shadowRoom` of room above and to the sides.
    func maskFrame(in settings: ScreenSettings) -> Rect {
        Rect(
            x: left(in: settings) - Self.shadowRoom, y: origin.y - Self.shadowRoom,
            width: width + 2 * Self.shadowRoom,
            height: height + Self.shadowRoom)
    }

    /// The detail area (W5): `cardHeight + spacing` below the stack's top, the full width, as high
    /// as `max(height - cardHeight - pileHeight - 2 × spacing, 0)`; the details are clipped to it.
    func detailFrame(in settings: ScreenSettings) -> Rect {
        Rect(
            x: left(in: settings), y: origin.y + cardHeight + Self.spacing, width: width,
            height: max(height - cardHeight - pileHeight - 2 * Self.spacing, 0))
    }

    /// Every card's snapshot, in the cards' order (W1 to W3, W6 to W8).
    ///
    /// `isVisible` is false for a card whose frame lies wholly outside the mask (W8): the part that
    /// shows of any card is `frame.intersection(maskFrame())`. As in SwiftUI, `.mask` does not
    /// change hit testing (SEMANTICS.md), so a masked card in the pile stays hittable.
    public func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        frames.cards(in: settings) { makeCardSnapshots(in: settings) }
    }

    private func makeCardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        let now = settings.now
        let tops = tops(selected: selectedIndex, in: settings)
        let mask = maskFrame(in: settings)
        let left = left(in: settings)
        return cards.enumerated().map { index, card in
            let scale = pressScale[ByteKey(card.id)]?.value(at: now) ?? 1
            let offset = tops[index] + (travel[ByteKey(card.id)]?.value(at: now) ?? 0)
            // `scaleEffect` keeps its default anchor, the centre (W7).
            let frame = Rect(x: left, y: origin.y + offset, width: width, height: cardHeight)
                .scaled(by: scale, anchorX: 0.5, anchorY: 0.5)
            let hasArea = frame.width > 0 && frame.height > 0
            return CardSnapshot(
                id: card.id, frame: frame, scale: scale, opacity: 1,
                z: Double(Mutant.w3ZReversed.isActive ? cards.count - index : index + 1),
                isVisible: hasArea && frame.intersection(mask) != nil, isHittable: hasArea)
        }
    }

    /// The details while they show or fade (W5); they take touches only while a card is open.
    func detailSnapshot(in settings: ScreenSettings) -> PartSnapshot? {
        let now = settings.now
        let isShown = selectedIndex != nil
        guard isShown || detailOpacity.isAnimating(at: now) else { return nil }
        return PartSnapshot(
            name: "detail", frame: detailFrame(in: settings),
            opacity: clampUnit(detailOpacity.value(at: now)),
            isHittable: isShown && detailFrame(in: settings).height > 0)
    }

    public func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        frames.snapshot(in: settings) { makeSnapshot(in: settings) }
    }

    private func makeSnapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: stackFrame(in: settings), cards: cardSnapshots(in: settings),
            parts: detailSnapshot(in: settings).map { [$0] } ?? [],
            state: [
                ("selection", selection.map { .string($0) } ?? .none),
                ("selected_index", selectedIndex.map { .number(Double($0)) } ?? .none),
                ("count", .number(Double(cards.count))),
                ("ids", .strings(cards.map(\.id))),
                ("step", .number(step(in: settings))),
                ("peek", .number(scaledPeek(in: settings))),
                ("height", .number(height)),
            ])
    }

    public var cardCount: Int { cards.count }

    public var cardTextBytes: Int { cards.reduce(0) { $0 + $1.id.utf8.count + $1.label.utf8.count } }

    /// Cards first, top-most by z (later over earlier, W3), then the details under them. The rest
    /// of the stack's rectangle has no content shape, so touches there pass through.
    public func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        hitTester(in: settings)(point)
    }

    public func hitTester(in settings: ScreenSettings) -> (Point) -> ComponentTarget? {
        let cards = TopmostCards(cardSnapshots(in: settings))
        let detail = detailSnapshot(in: settings)
        return { point in
            if let card = cards.card(at: point) { return .card(card.id) }
            if let detail, detail.isHittable, detail.frame.contains(point) { return "detail" }
            return nil
        }
    }

    public func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point {
        if target == "detail" {
            guard let detail = detailSnapshot(in: settings), detail.isHittable else {
                throw StackModelError("\(name) shows details only while a card is open")
            }
            return detail.frame.center
        }
        let id = target.bareName
        guard cards.contains(where: { $0.id.isSameBytes(id) }) else {
            throw unknownCardError(id, in: name, cards: cards)
        }
        return visibleCenter(of: id, among: cardSnapshots(in: settings))
    }
}
