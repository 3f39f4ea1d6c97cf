#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The spherical Web Mercator projection (EPSG:3857) onto zoom-0 world units (0…256, y down).
public enum WebMercator {
    /// The latitude where the Mercator world becomes square: atan(sinh(π)) ≈ 85.0511287798°.
    /// Tiles and the camera never go further north or south.
    public static let maxLatitude: Double = atan(sinh(Double.pi)) * 180 / Double.pi

    /// Edge length of a tile in pixels, and the width of the world at zoom 0.
    public static let tileSize: Double = 256

    /// Projects `c` into the world. Latitude is clamped to ±`maxLatitude`; longitude is not
    /// wrapped, so 190° lands east of the primary world copy (x > 256), which keeps regions
    /// that cross the antimeridian contiguous.
    public static func world(_ c: Coordinate) -> WorldPoint {
        let latitude = min(max(c.latitude, -maxLatitude), maxLatitude)
        let phi = latitude * Double.pi / 180
        let x = (c.longitude + 180) / 360 * tileSize
        // Mercator northing, scaled so that ±maxLatitude maps to the world's edges.
        let y = (0.5 - log(tan(Double.pi / 4 + phi / 2)) / (2 * Double.pi)) * tileSize
        return WorldPoint(x: x, y: min(max(y, 0), tileSize))
    }

    /// The coordinate at `w`. y is clamped to the world (0…256) and the longitude is wrapped
    /// into [-180, 180), so any world copy gives the same coordinate.
    public static func coordinate(_ w: WorldPoint) -> Coordinate {
        let y = min(max(w.y, 0), tileSize)
        let latitude = atan(sinh(Double.pi * (1 - 2 * y / tileSize))) * 180 / Double.pi
        let longitude = wrappedLongitude(w.x / tileSize * 360 - 180)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `longitude` moved by whole turns into [-180, 180).
    public static func wrappedLongitude(_ longitude: Double) -> Double {
        wrap(longitude + 180, period: 360) - 180
    }

    /// `x` moved by whole world widths into [0, 256).
    public static func wrappedWorldX(_ x: Double) -> Double {
        wrap(x, period: tileSize)
    }

    /// `value` reduced into [0, period). Non-finite values pass through unchanged.
    static func wrap(_ value: Double, period: Double) -> Double {
        guard value.isFinite else { return value }
        let r = value - period * (value / period).rounded(.down)
        // Rounding can land exactly on `period` for tiny negative inputs.
        return r >= period ? r - period : r
    }
}
