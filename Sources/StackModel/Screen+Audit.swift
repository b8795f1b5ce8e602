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

    func reach(_ region: Rect, index: Int, target: String) -> Reach {
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
