/// Points, sizes and rectangles in screen points (pt), y pointing down as in SwiftUI.
///
/// StackModel has its own small geometry types rather than Foundation's so that the model stays
/// free of Foundation and cheap to copy.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// The straight-line distance to `other`.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle: origin at the top-left corner, in screen points.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether `point` lies inside, edges included on the top and left, excluded on the bottom and
    /// right, so that two rectangles that touch never both contain a point.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }

    /// The part of this rectangle that lies inside `other`, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// This rectangle scaled by `scale` about the unit point `anchor` of itself (SwiftUI's
    /// `scaleEffect(_:anchor:)`: (0.5, 1) is the bottom centre, (0.5, 0) the top centre).
    public func scaled(by scale: Double, anchorX: Double, anchorY: Double) -> Rect {
        let ax = x + width * anchorX
        let ay = y + height * anchorY
        return Rect(
            x: ax - (ax - x) * scale, y: ay - (ay - y) * scale,
            width: width * scale, height: height * scale)
    }

    public var description: String { "(x: \(x), y: \(y), width: \(width), height: \(height))" }
}
