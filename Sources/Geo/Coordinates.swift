/// A place on Earth in WGS84 degrees.
///
/// Latitude runs north-positive, longitude east-positive. Values are stored as given;
/// `WebMercator` clamps the latitude to the square Mercator world when it projects.
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// A point in the Web Mercator world at zoom 0: 0…256 on both axes, x east, y down (south).
///
/// One unit is one screen pixel at zoom 0 with 256-px tiles, so at zoom z a unit is `2^z` px.
/// x outside 0…256 names a copy of the world east or west of the primary one.
public struct WorldPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// A position in the map view in logical pixels, origin top-left, y down.
public struct ScreenPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = ScreenPoint(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }

    /// The Euclidean distance to `other`, in logical pixels.
    public func distance(to other: ScreenPoint) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// The size of the map view in logical pixels.
public struct ViewSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle on the globe given by its centre and its extent in degrees (as MapKit's
/// `MKCoordinateRegion`).
public struct CoordinateRegion: Sendable, Hashable {
    public var center: Coordinate
    public var latitudeDelta: Double
    public var longitudeDelta: Double

    public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        self.center = center
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}
