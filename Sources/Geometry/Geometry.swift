/// The one geometry vocabulary of every layer that measures the screen: Input (where a touch
/// is), Gestures (views, hit areas), Geo (the map view: `ScreenPoint` and `ViewSize` are these
/// types), Render and UI. All lengths are logical pixels, origin top-left, y down. World
/// (Web Mercator) coordinates are a different space and keep their own type (`Geo.WorldPoint`).

/// A position in logical pixels (origin top-left, y down): surface-local as `wl_touch` and
/// `wl_pointer` carry it, or in a view's own coordinates.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }

    /// The Euclidean distance to `other`.
    public func distance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// A size in logical pixels.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// An axis-aligned rectangle in logical pixels (origin top-left, y down).
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// Whether `p` lies inside; the right and bottom edges are outside, so two rectangles that
    /// share an edge never both contain a point on it.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The rectangle moved inwards by `insets` (negative insets grow it, as in UIKit).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: size.width - insets.left - insets.right,
             height: size.height - insets.top - insets.bottom)
    }

    /// The distance from `p` to the nearest point of the rectangle; 0 inside.
    public func distance(to p: Point) -> Double {
        let dx = max(minX - p.x, 0, p.x - maxX)
        let dy = max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// No area (a zero width or height).
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The smallest rectangle holding both; an empty one adds nothing.
    public func union(_ o: Rect) -> Rect {
        if o.isEmpty { return self }
        if isEmpty { return o }
        let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
        return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    public func offsetBy(dx: Double = 0, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: size.width, height: size.height)
    }

    public var description: String { "(\(minX), \(minY), \(size.width)×\(size.height))" }
}

/// Distances by which a rectangle's edges move inwards. Negative values move them outwards,
/// which is how a 24 px icon gets a 48 px touch target: `EdgeInsets(all: -12)`.
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }

    public static let zero = EdgeInsets(all: 0)

    /// Insets that grow a `size` target to at least `minimum` on each axis, centred.
    public static func enlarging(_ size: Size, toAtLeast minimum: Double) -> EdgeInsets {
        let h = -max(0, minimum - size.width) / 2
        let v = -max(0, minimum - size.height) / 2
        return EdgeInsets(top: v, left: h, bottom: v, right: h)
    }
}
