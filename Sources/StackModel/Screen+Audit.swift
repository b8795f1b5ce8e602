/// The accessibility audit (`screen:audit()`): XCUITest's `performAccessibilityAudit` checks,
/// made on the model of the moment, with every component walked through `Component` alone.
extension Screen {
    /// The smallest touch target (HIG, SEMANTICS.md): 44 × 44 pt.
    public static let minimumTarget = 44.0

    /// The issues of the screen as it is now, component after component, in the order of
    /// `AuditType`, leaving out those `options` allows. Reads only: nothing on the screen changes.
    public func audit(_ options: AuditOptions = AuditOptions()) -> [AuditIssue] {
        let auditor = Auditor(screen: self)
        var issues: [AuditIssue] = []
        for index in components.indices {
            let subject = auditor.subject(index)
            for type in AuditType.applicable where options.checks(type) {
                issues += auditor.issues(of: type, in: subject).filter { !options.isAllowed($0) }
            }
        }
        return issues
    }
}

/// One audit of one screen: the frame of the moment and the edges of everything on it, which cut
/// an element into cells that each hit-test one way (`Screen.hitTest` at a cell's centre).
struct Auditor {
    let screen: Screen
    let settings: ScreenSettings
    let bounds: Rect
    let frame: FrameSnapshot
    /// The edges of every frame on screen (component, card, part and element frames), each axis
    /// sorted and without repeats, so that a region finds the edges inside it by binary search.
    private let xEdges: [Double]
    private let yEdges: [Double]
    /// `screen.hitTest`, each component laid out once for the whole audit (it only reads).
    let hitTest: (Point) -> Hit?
    /// What a touch lands on in every cell the edges cut the screen into, hit-tested once for all
    /// targets (nil when that grid would be far larger than the edges, or the screen animates:
    /// then each region is cut).
    private let grid: HitGrid?

    /// One component as the rules read it.
    struct Subject {
        let index: Int
        let component: any Component
        let snapshot: ComponentSnapshot
        let elements: [AccessibilityElement]
        let targets: [TouchTarget]
        /// The first element of each id, for ``element(_:)`` in constant time.
        let firstOfID: [ByteKey: Int]

        init(
            index: Int, component: any Component, snapshot: ComponentSnapshot,
            elements: [AccessibilityElement],
            targets: [TouchTarget]
        ) {
            (self.index, self.component, self.snapshot, self.elements, self.targets) =
                (index, component, snapshot, elements, targets)
            var firstOfID: [ByteKey: Int] = [:]
            for (offset, element) in elements.enumerated() where firstOfID[ByteKey(element.id)] == nil {
                firstOfID[ByteKey(element.id)] = offset
            }
            self.firstOfID = firstOfID
        }

        func element(_ id: String) -> AccessibilityElement? { firstOfID[ByteKey(id)].map { elements[$0] } }
        var shown: [AccessibilityElement] { elements.filter { !$0.isHidden } }
    }

    init(screen: Screen) {
        self.screen = screen
        settings = screen.settings
        bounds = Rect(x: 0, y: 0, width: screen.settings.size.width, height: screen.settings.size.height)
        frame = screen.snapshot()
        var rects: [Rect] = []
        for (component, snapshot) in zip(screen.components, frame.components) {
            rects.append(snapshot.frame)
            rects += snapshot.cards.map(\.frame)
            rects += snapshot.parts.map(\.frame)
            rects += component.accessibilityElements(in: screen.settings).map(\.frame)
        }
        let kept = rects.filter { $0.width > 0 && $0.height > 0 }
        xEdges = Array(Set(kept.flatMap { [$0.minX, $0.maxX] }.filter { !$0.isNaN })).sorted()
        yEdges = Array(Set(kept.flatMap { [$0.minY, $0.maxY] }.filter { !$0.isNaN })).sorted()
        hitTest = screen.hitTester()
        // only at rest: the rules that read reachable cells judge the screen at rest (``isAtRest``),
        // and an audit after every input event of a drag would hit-test the whole grid for none
        grid =
            screen.pendingAnimationEnd == nil
            ? HitGrid(xEdges: xEdges, yEdges: yEdges, hitTest: hitTest) : nil
    }

    func subject(_ index: Int) -> Subject {
        let component = screen.components[index]
        return Subject(
            index: index, component: component, snapshot: frame.components[index],
            elements: component.accessibilityElements(in: settings),
            targets: component.touchTargets(in: settings))
    }

    /// Whether nothing on the screen animates. `hit_region` and `element_detection` hit-test
    /// frames, and `dynamic_type` compares them with the layout at Large: a frame in flight is
    /// momentary (a device's audit waits for idle too), and a card's travel was measured at the
    /// size on screen, so those three judge the screen at rest, the audit after `settle()`; the
    /// other types judge every step.
    var isAtRest: Bool { screen.pendingAnimationEnd == nil }

    func issues(of type: AuditType, in subject: Subject) -> [AuditIssue] {
        switch type {
        case .hitRegion: isAtRest ? hitRegion(subject) : []
        case .elementDetection: isAtRest ? elementDetection(subject) : []
        case .sufficientDescription: sufficientDescription(subject)
        case .dynamicType: isAtRest ? dynamicType(subject) : []
        case .trait: trait(subject)
        case .action: action(subject)
        case .contrast, .textClipped: []
        }
    }

    func issue(
        _ type: AuditType, _ rule: String, _ subject: Subject, element: String, frame: Rect,
        _ compact: String,
        _ detail: String
    ) -> AuditIssue {
        AuditIssue(
            type: type, rule: rule, component: subject.component.name, kind: subject.component.kind,
            element: element, frame: frame, compact: compact, detail: detail, time: settings.now)
    }

    // MARK: Reachable cells

    /// The part of `region` where a touch lands on `target` of component `index`: the cells the
    /// edges on screen cut it into, each hit-tested at its centre.
    struct Reach {
        let xs: [Double]
        let ys: [Double]
        /// `cells[row][column]`.
        let cells: [[Bool]]

        var isEmpty: Bool { !cells.contains { $0.contains(true) } }

        /// The bounding box of the reachable cells, or nil.
        var bounds: Rect? {
            var minX = Double.infinity
            var minY = Double.infinity
            var maxX = -Double.infinity
            var maxY = -Double.infinity
            for (row, line) in cells.enumerated() {
                for (column, reached) in line.enumerated() where reached {
                    minX = min(minX, xs[column])
                    maxX = max(maxX, xs[column + 1])
                    minY = min(minY, ys[row])
                    maxY = max(maxY, ys[row + 1])
                }
            }
            guard minX < maxX else { return nil }
            return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }

        /// Whether a `side` × `side` square fits in the reachable cells. A square that fits can be
        /// slid left and up until its edges meet cell edges, so those corners are the only ones to try.
        func fits(side: Double) -> Bool {
            let epsilon = 1e-9
            guard let lastX = xs.last, let lastY = ys.last else { return false }
            for (left, x0) in xs.enumerated() where x0 + side <= lastX + epsilon {
                for (top, y0) in ys.enumerated() where y0 + side <= lastY + epsilon {
                    var all = true
                    var row = top
                    rows: while row < cells.count, ys[row] < y0 + side - epsilon {
                        var column = left
                        while column < cells[row].count, xs[column] < x0 + side - epsilon {
                            if !cells[row][column] {
                                all = false
                                break rows
                            }
                            column += 1
                        }
                        row += 1
                    }
                    if all { return true }
                }
            }
            return false
        }
    }

    /// ``reach(_:index:target:)`` as the shared grid answers it: only the rows and columns
    /// between the first and the last cell where a touch lands on `target`, which are the only
    /// ones a reachable square or the reachable bounds can use. Each cell of the region is the
    /// part of one grid cell inside it (every edge inside the region is a grid edge), and takes
    /// that cell's answer; so every target costs the cells it is hit in, not its region's area.
    func reach(_ region: Rect, index: Int, target: String) -> Reach {
        guard let grid, !region.minX.isNaN, !region.maxX.isNaN, !region.minY.isNaN, !region.maxY.isNaN,
            region.minX < region.maxX, region.minY < region.maxY
        else { return cutReach(region, index: index, target: target) }
        let group = grid.group(index, target)
        var (top, bottom, left, right) = (Int.max, Int.min, Int.max, Int.min)
        for cell in grid.cells(of: group) {
            let (row, column) = (cell / grid.columns, cell % grid.columns)
            guard yEdges[row + 1] > region.minY, yEdges[row] < region.maxY, xEdges[column + 1] > region.minX,
                xEdges[column] < region.maxX
            else { continue }
            (top, bottom) = (min(top, row), max(bottom, row))
            (left, right) = (min(left, column), max(right, column))
        }
        guard top <= bottom else { return Reach(xs: [], ys: [], cells: []) }
        let xs =
            [max(xEdges[left], region.minX)] + xEdges[(left + 1)..<(right + 1)]
            + [min(xEdges[right + 1], region.maxX)]
        let ys =
            [max(yEdges[top], region.minY)] + yEdges[(top + 1)..<(bottom + 1)]
            + [min(yEdges[bottom + 1], region.maxY)]
        let cells = (top...bottom).map { row in (left...right).map { grid.group(at: row, $0) == group } }
        return Reach(xs: xs, ys: ys, cells: cells)
    }

    /// The part of `region` where a touch lands on `target`, the region cut on its own and each
    /// cell hit-tested (the reference ``reach(_:index:target:)`` agrees with, and what it does
    /// when the screen's grid would be too large).
    func cutReach(_ region: Rect, index: Int, target: String) -> Reach {
        let xs = Self.cuts(region.minX, region.maxX, by: xEdges)
        let ys = Self.cuts(region.minY, region.maxY, by: yEdges)
        var cells: [[Bool]] = []
        cells.reserveCapacity(ys.count - 1)
        for row in 0..<(ys.count - 1) {
            var line: [Bool] = []
            line.reserveCapacity(xs.count - 1)
            for column in 0..<(xs.count - 1) {
                let centre = Point(x: (xs[column] + xs[column + 1]) / 2, y: (ys[row] + ys[row + 1]) / 2)
                let hit = hitTest(centre)
                line.append(hit?.componentIndex == index && hit?.target.isSameBytes(target) == true)
            }
            cells.append(line)
        }
        return Reach(xs: xs, ys: ys, cells: cells)
    }

    /// `low`, the edges strictly between `low` and `high` (`edges` is sorted, without repeats or
    /// NaN), and `high`, in order without repeats: where the screen's frames cut a region's side.
    static func cuts(_ low: Double, _ high: Double, by edges: [Double]) -> [Double] {
        func firstAbove(_ value: Double) -> Int {
            var (start, end) = (0, edges.count)
            while start < end {
                let middle = (start + end) / 2
                if edges[middle] <= value { start = middle + 1 } else { end = middle }
            }
            return start
        }
        guard !low.isNaN, !high.isNaN else { return Array(Set([low, high])).sorted() }
        var cuts = [low]
        let start = firstAbove(low)
        var index = start
        while index < edges.count, edges[index] < high {
            cuts.append(edges[index])
            index += 1
        }
        if high != low { cuts.append(high) }
        return cuts
    }

    /// `350 × 14 pt`.
    static func size(_ rect: Rect) -> String {
        "\(formatNumber(rect.width)) × \(formatNumber(rect.height)) pt"
    }

    /// What a touch at `point` lands on, in words.
    func describeHit(at point: Point) -> String {
        guard let hit = hitTest(point) else { return "nothing" }
        return "\(hit.target) of '\(hit.componentName)'"
    }
}

/// The screen cut by every edge on it into cells, each hit-tested once at its centre: the cells
/// of each (component, target) pair a touch lands on, grouped, so that the audit reads a target's
/// cells without hit-testing again. Built only when there are at most a fixed multiple of the
/// edges' number of cells (columns of cards: a few x edges, many y edges), so it is linear in
/// the cards; otherwise the audit cuts each region on its own.
struct HitGrid {
    let columns: Int
    /// The group of each cell, row after row; -1 where a touch lands on nothing.
    private let groups: [Int32]
    /// The cells of each group, in order.
    private let members: [[Int]]
    private let index: [Key: Int32]

    private struct Key: Hashable {
        let component: Int
        let target: ByteKey
    }

    /// The largest grid: this many cells an edge, and at least 2^16.
    static let cellsPerEdge = 64

    init?(xEdges: [Double], yEdges: [Double], hitTest: (Point) -> Hit?) {
        guard xEdges.count >= 2, yEdges.count >= 2, xEdges.allSatisfy(\.isFinite),
            yEdges.allSatisfy(\.isFinite)
        else { return nil }
        let (columns, rows) = (xEdges.count - 1, yEdges.count - 1)
        let (limit, overflow) = columns.multipliedReportingOverflow(by: rows)
        guard !overflow, limit <= max(1 << 16, Self.cellsPerEdge * (xEdges.count + yEdges.count)) else {
            return nil
        }
        self.columns = columns
        var groups = [Int32](repeating: -1, count: rows * columns)
        var members: [[Int]] = []
        var index: [Key: Int32] = [:]
        for row in 0..<rows {
            for column in 0..<columns {
                let centre = Point(
                    x: (xEdges[column] + xEdges[column + 1]) / 2, y: (yEdges[row] + yEdges[row + 1]) / 2)
                guard let hit = hitTest(centre) else { continue }
                let key = Key(component: hit.componentIndex, target: ByteKey(hit.target))
                let group: Int32
                if let known = index[key] {
                    group = known
                } else {
                    group = Int32(members.count)
                    index[key] = group
                    members.append([])
                }
                groups[row * columns + column] = group
                members[Int(group)].append(row * columns + column)
            }
        }
        (self.groups, self.members, self.index) = (groups, members, index)
    }

    /// The group of component `component`'s `target`, or -1 when no cell lands on it.
    func group(_ component: Int, _ target: String) -> Int32 {
        index[Key(component: component, target: ByteKey(target))] ?? -1
    }

    func group(at row: Int, _ column: Int) -> Int32 { groups[row * columns + column] }

    /// The cells (row × columns + column) of `group`.
    func cells(of group: Int32) -> [Int] { group < 0 ? [] : members[Int(group)] }
}
