@_exported import Geometry

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

/// A position in the map view in logical pixels, origin top-left, y down: the shared
/// geometry's `Point`, so a finger's position is a map position with no conversion.
public typealias ScreenPoint = Point

/// The size of the map view in logical pixels: the shared geometry's `Size`.
public typealias ViewSize = Size

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
