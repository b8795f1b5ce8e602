/// One finger on the screen: where and when it went down, where it is now, and how far it has
/// strayed from where it went down.
public struct Touch: Hashable, Sendable {
    public let id: Int
    public let startLocation: Point
    public let startTime: Double
    public internal(set) var location: Point
    public internal(set) var time: Double
    /// The farthest the finger has been from `startLocation`.
    public internal(set) var maxDistance: Double = 0

    init(id: Int, location: Point, time: Double) {
        self.id = id
        self.startLocation = location
        self.startTime = time
        self.location = location
        self.time = time
    }

    /// `location − startLocation` in screen points: positive x is to the right in any layout
    /// direction (G5).
    public var translation: Point {
        Point(x: location.x - startLocation.x, y: location.y - startLocation.y)
    }

    mutating func move(to point: Point, at time: Double) {
        location = point
        self.time = time
        maxDistance = max(maxDistance, startLocation.distance(to: point))
    }

    /// A tap fails once the finger strays more than 45 pt or stays down longer than 0.75 s
    /// (SEMANTICS.md, OpenSwiftUI).
    public static let tapMaximumDistance = Mutant.number(
        45.0, (.g5TapDistanceUp, 70), (.g5TapDistanceDown, 20))
    public static let tapMaximumDuration = Mutant.number(
        0.75, (.g5TapDurationUp, 1.5), (.g5TapDurationDown, 0.4))

    /// Whether this touch, ending now, is a tap.
    public var isTap: Bool {
        Self.withinTapLimit(maxDistance, Self.tapMaximumDistance)
            && Self.withinTapLimit(time - startTime, Self.tapMaximumDuration)
    }

    /// Whether `value` is within a tap's `limit` (the limit itself counts; G5). ``tapRefusal``
    /// names the limit this says no to.
    static func withinTapLimit(_ value: Double, _ limit: Double) -> Bool {
        Mutant.g5TapStrict.isActive ? value < limit : value <= limit
    }
}

/// `DragGesture(minimumDistance:)` (G5): it starts once the finger has been `minimumDistance`
/// from where it went down and then reports every move, even if the finger comes back.
public struct DragRecognizer: Hashable, Sendable {
    public let minimumDistance: Double
    public private(set) var hasStarted = false

    public init(minimumDistance: Double) {
        self.minimumDistance = minimumDistance
    }

    /// Feeds a move; true when `onChanged` fires for it.
    public mutating func update(_ touch: Touch) -> Bool {
        if !hasStarted, touch.startLocation.distance(to: touch.location) >= minimumDistance,
            !Mutant.g5DragStrict.isActive
                || touch.startLocation.distance(to: touch.location) > minimumDistance
        {
            hasStarted = true
        }
        return hasStarted
    }
}

/// What a touch landed on: the component (its index on the screen and its name) and the part of
/// it (a card, `"show_less"`, `"stack"`).
public struct Hit: Hashable, Sendable, CustomStringConvertible {
    public let componentIndex: Int
    public let componentName: String
    public let part: ComponentTarget

    /// The part as text: `"card:calendar"`, `"show_less"`.
    public var target: String { part.name }

    public var description: String { "\(componentName) \(target)" }
}
