/// Actionability (issue 24, as Playwright checks an element before it acts): where a finger goes
/// down to touch a card, or why none can.
///
/// The part of a card a touch reaches is its frame, cut to the screen, less every place where
/// the screen's own hit testing (G4: components over components, z over z, parts, hit testing
/// off, opacity 0) names something else. Every hit region is a rectangle, so the frames' edges
/// cut the card into cells that each land on one thing; the aim is the centre of the largest
/// rectangle (by area) of cells that land on the card. Among rectangles of equal area the top-most
/// wins, then the one whose centre is nearest the card's vertical centre line, then the left-most.
/// A rectangle as wide as the card aims at the card's `midX`, so a card that nothing covers is
/// touched at the centre of its frame, and a card of a pile at the middle of its tallest
/// uncovered band, as before.
extension ScriptView {
    /// The screen point where a finger goes down to touch card `id` of `component`; with `force`,
    /// the centre of its frame whether or not a touch there reaches it. Throws when no part of it
    /// can be touched, naming why (zero size, opacity 0, off screen, hit testing off, covered).
    public func aim(atCard id: String, of component: any Component, force: Bool) throws -> Point {
        let settings = screen.settings
        guard let card = component.cardSnapshots(in: settings).first(where: { $0.id.isSameBytes(id) }) else {
            throw unknownCardError(id, in: component.name, cards: [])
        }
        if force { return Point(x: card.frame.midX, y: (card.frame.minY + card.frame.maxY) / 2) }
        let screenRect = Rect(x: 0, y: 0, width: settings.size.width, height: settings.size.height)
        guard let index = screen.components.firstIndex(where: { $0 === component }) else {
            throw StackModelError("\(component.name) is not on the screen")
        }
        if let region = reachableRegion(of: card, component: index, screenRect: screenRect) {
            return region
        }
        throw StackModelError(
            "card '\(id)' of \(component.kind.rawValue) '\(component.name)' cannot be touched: "
                + unreachableReason(card, component: index, screenRect: screenRect))
    }

    /// The aim inside `card`'s reachable part, or nil when it has none.
    private func reachableRegion(of card: CardSnapshot, component index: Int, screenRect: Rect) -> Point? {
        guard card.frame.width > 0, card.frame.height > 0, let shown = card.frame.intersection(screenRect)
        else { return nil }
        var xs: Set<Double> = [shown.minX, shown.maxX]
        var ys: Set<Double> = [shown.minY, shown.maxY]
        for component in screen.components {
            for rect in component.hitRegions(in: screen.settings) {
                for x in [rect.minX, rect.maxX] where x > shown.minX && x < shown.maxX { xs.insert(x) }
                for y in [rect.minY, rect.maxY] where y > shown.minY && y < shown.maxY { ys.insert(y) }
            }
        }
        let columns = xs.sorted()
        let rows = ys.sorted()
        let hit = screen.hitTester()
        let target = ComponentTarget.card(card.id)
        // reaches[r][c]: a touch in cell (r, c) lands on the card.
        let reaches = rows.indices.dropLast().map { r in
            columns.indices.dropLast().map { c in
                let centre = Point(x: (columns[c] + columns[c + 1]) / 2, y: (rows[r] + rows[r + 1]) / 2)
                guard let landed = hit(centre) else { return false }
                return landed.componentIndex == index && landed.part == target
            }
        }
        var best: (area: Double, top: Int, bottom: Int, left: Int, right: Int)?
        func better(_ area: Double, _ top: Int, _ left: Int, _ right: Int) -> Bool {
            guard let best else { return true }
            if area != best.area { return area > best.area }
            if rows[top] != rows[best.top] { return rows[top] < rows[best.top] }
            let distance = abs((columns[left] + columns[right]) / 2 - card.frame.midX)
            let bestDistance = abs((columns[best.left] + columns[best.right]) / 2 - card.frame.midX)
            if distance != bestDistance { return distance < bestDistance }
            return columns[left] < columns[best.left]
        }
        // Every run of columns, then every run of rows in which all those cells reach the card.
        for left in 0..<(columns.count - 1) {
            var open = [Bool](repeating: true, count: rows.count - 1)
            for right in (left + 1)..<columns.count {
                for r in open.indices where !reaches[r][right - 1] { open[r] = false }
                var r = 0
                while r < open.count {
                    guard open[r] else {
                        r += 1
                        continue
                    }
                    var end = r
                    while end < open.count && open[end] { end += 1 }
                    let area = (columns[right] - columns[left]) * (rows[end] - rows[r])
                    if area > 0, better(area, r, left, right) {
                        best = (area, r, end, left, right)
                    }
                    r = end
                }
            }
        }
        guard let best else { return nil }
        let spansCard = columns[best.left] <= card.frame.minX && columns[best.right] >= card.frame.maxX
        let x = spansCard ? card.frame.midX : (columns[best.left] + columns[best.right]) / 2
        return Point(x: x, y: (rows[best.top] + rows[best.bottom]) / 2)
    }

    /// Why no touch reaches `card`: the first of zero size, opacity 0, off screen, hit testing
    /// off, or what a touch at the centre of its part on screen lands on instead.
    private func unreachableReason(_ card: CardSnapshot, component index: Int, screenRect: Rect) -> String {
        let frame = card.frame
        if !(frame.width > 0 && frame.height > 0) {
            return "it has zero size (\(formatNumber(frame.width)) × \(formatNumber(frame.height)) pt)"
        }
        if card.opacity <= 0 { return "it is drawn at opacity 0, which takes no touches" }
        guard let shown = frame.intersection(screenRect) else {
            let at = mirror.rect(frame)
            return "it is off screen (at x = \(formatNumber(at.x)), y = \(formatNumber(at.y)), "
                + "the screen is \(formatNumber(screenRect.width)) × \(formatNumber(screenRect.height)))"
        }
        func name(_ landed: Hit) -> String {
            let other = screen.components[landed.componentIndex]
            var what: String
            switch landed.part {
            case .card(let id): what = "card '\(id)'"
            case .part(let name): what = landed.componentIndex == index ? "its '\(name)'" : "'\(name)'"
            }
            if landed.componentIndex != index { what += " of \(other.kind.rawValue) '\(other.name)'" }
            return what
        }
        let centre = shown.center
        let at = reading(centre)
        let place = "at (\(formatNumber(at.x)), \(formatNumber(at.y)))"
        let landed = screen.hitTest(centre)
        if !card.isHittable {
            return
                "hit testing is off for it now (a touch \(place) lands on \(landed.map(name) ?? "nothing"))"
        }
        guard let landed else { return "a touch \(place) lands on nothing" }
        return "\(name(landed)) covers it \(place)"
    }
}

extension Component {
    /// The rectangles whose edges can change what a touch lands on: the frames of a snapshot.
    public func hitRegions(in settings: ScreenSettings) -> [Rect] {
        let snapshot = snapshot(in: settings)
        return [snapshot.frame] + snapshot.cards.map(\.frame) + snapshot.parts.map(\.frame)
            + extraHitRegions(in: settings)
    }
}
