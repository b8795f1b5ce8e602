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
    /// The edges of every frame on screen: component, card, part and element frames.
    private let rects: [Rect]

    /// One component as the rules read it.
    struct Subject {
        let index: Int
        let component: any Component
        let snapshot: ComponentSnapshot
        let elements: [AccessibilityElement]
        let targets: [TouchTarget]

        func element(_ id: String) -> AccessibilityElement? { elements.first { $0.id == id } }
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
        self.rects = rects.filter { $0.width > 0 && $0.height > 0 }
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
        var xs = [region.minX, region.maxX]
        var ys = [region.minY, region.maxY]
        for rect in rects {
            for x in [rect.minX, rect.maxX] where x > region.minX && x < region.maxX { xs.append(x) }
            for y in [rect.minY, rect.maxY] where y > region.minY && y < region.maxY { ys.append(y) }
        }
        xs = Array(Set(xs)).sorted()
        ys = Array(Set(ys)).sorted()
        var cells: [[Bool]] = []
        cells.reserveCapacity(ys.count - 1)
        for row in 0..<(ys.count - 1) {
            var line: [Bool] = []
            line.reserveCapacity(xs.count - 1)
            for column in 0..<(xs.count - 1) {
                let centre = Point(x: (xs[column] + xs[column + 1]) / 2, y: (ys[row] + ys[row + 1]) / 2)
                let hit = screen.hitTest(centre)
                line.append(hit?.componentIndex == index && hit?.target == target)
            }
            cells.append(line)
        }
        return Reach(xs: xs, ys: ys, cells: cells)
    }

    /// `350 × 14 pt`.
    static func size(_ rect: Rect) -> String {
        "\(formatNumber(rect.width)) × \(formatNumber(rect.height)) pt"
    }

    /// What a touch at `point` lands on, in words.
    func describeHit(at point: Point) -> String {
        guard let hit = screen.hitTest(point) else { return "nothing" }
        return "\(hit.target) of '\(hit.componentName)'"
    }
}
