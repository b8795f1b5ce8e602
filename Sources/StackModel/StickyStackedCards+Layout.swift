/// Where every card of a `StickyStackedCards` is on screen at a moment, and what a touch lands on.
extension StickyStackedCards {
    /// The scroll view's visible rectangle on the screen.
    func viewportFrame(in settings: ScreenSettings) -> Rect {
        Rect(
            x: Placement.left(x: origin.x, width: width, in: settings), y: origin.y, width: width,
            height: viewportHeight)
    }

    /// Every card's snapshot, in the cards' order (S1 to S5).
    ///
    /// A card's top in the scroll view is its content top minus the offset; `pinOffset` pushes it
    /// down to its pin line (S1, S2) and `scale` shrinks it, anchored at its top, with step 0.05,
    /// or 0 under Reduce Motion (S3, S4). Later cards are over earlier ones: z is the index (S5).
    /// A card shows, and takes touches, while its frame meets the scroll view's visible rectangle.
    public func cardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        frames.cards(in: settings) { makeCardSnapshots(in: settings) }
    }

    private func makeCardSnapshots(in settings: ScreenSettings) -> [CardSnapshot] {
        let step = settings.reduceMotion && !Mutant.s4ReduceMotionIgnored.isActive ? 0 : Self.shrinkStep
        let viewport = viewportFrame(in: settings)
        return zip(cards, contentTops).enumerated().map { index, pair in
            let (card, contentTop) = pair
            let cardTop = contentTop - scrollOffset
            let pin = StickyStackedCardsMath.pinOffset(
                cardTop: cardTop,
                pinY: StickyStackedCardsMath.pinY(index: index, top: top, peek: peek, maxPeeking: maxPeeking))
            let scale = StickyStackedCardsMath.scale(
                pinOffset: pin, cardHeight: card.height, spacing: spacing, step: step)
            let frame = Rect(
                x: viewport.minX + insetHorizontal, y: origin.y + cardTop + pin,
                width: max(width - 2 * insetHorizontal, 0), height: card.height
            )
            .scaled(by: scale, anchorX: 0.5, anchorY: 0)
            let isOnScreen = frame.intersection(viewport) != nil
            return CardSnapshot(
                id: card.id, frame: frame, scale: scale, opacity: 1,
                z: Double(Mutant.s5ZReversed.isActive ? -index : index), isVisible: isOnScreen,
                isHittable: isOnScreen)
        }
    }

    public func snapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        frames.snapshot(in: settings) { makeSnapshot(in: settings) }
    }

    private func makeSnapshot(in settings: ScreenSettings) -> ComponentSnapshot {
        ComponentSnapshot(
            kind: kind, name: name, frame: viewportFrame(in: settings), cards: cardSnapshots(in: settings),
            state: [
                ("scroll_offset", .number(scrollOffset)),
                ("max_offset", .number(maxOffset)),
                ("content_height", .number(contentHeight)),
                ("count", .number(Double(cards.count))),
                ("ids", .strings(cards.map(\.id))),
            ])
    }

    public var cardCount: Int { cards.count }

    public var cardTextBytes: Int { cards.reduce(0) { $0 + $1.id.utf8.count + $1.label.utf8.count } }

    /// The front-most card under `point` (S5), else the scroll view itself. Nothing outside the
    /// scroll view's visible rectangle takes a touch: a `UIScrollView` tests its own bounds before
    /// its subviews, so the part of a card scrolled out of sight is not hittable.
    public func hitTest(_ point: Point, in settings: ScreenSettings) -> ComponentTarget? {
        hitTester(in: settings)(point)
    }

    public func hitTester(in settings: ScreenSettings) -> (Point) -> ComponentTarget? {
        let viewport = viewportFrame(in: settings)
        let cards = TopmostCards(cardSnapshots(in: settings))
        return { point in
            guard viewport.contains(point) || Mutant.s6HitOutside.isActive else { return nil }
            if let card = cards.card(at: point) { return .card(card.id) }
            return "scroll"
        }
    }

    public func point(of target: ComponentTarget, in settings: ScreenSettings) throws -> Point {
        if target == "scroll" { return viewportFrame(in: settings).center }
        let id = target.bareName
        guard cards.contains(where: { $0.id.isSameBytes(id) }) else {
            throw unknownCardError(id, in: name, cards: cards)
        }
        let viewport = viewportFrame(in: settings)
        // Only what shows in the scroll view can be touched: the frames cut to it.
        let shown = cardSnapshots(in: settings).map { card in
            var card = card
            card.frame = card.frame.intersection(viewport) ?? card.frame
            return card
        }
        guard shown.first(where: { $0.id.isSameBytes(id) })?.isHittable == true else {
            throw StackModelError("card '\(id)' of \(name) is scrolled out of sight")
        }
        return visibleCenter(of: id, among: shown)
    }
}
