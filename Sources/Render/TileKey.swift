import Tiles

/// A raster tile in the cache: which tile, drawn how many device pixels wide. Tiles are
/// 256 · scale px at integer zooms; a map settled at a fractional zoom gets its own
/// exactly-sized tiles so compositing stays a plain copy (see `MapRenderer.crispZoom`).
/// `bearing` is 0 unless the style translates a layer in screen space
/// (`Style.turnsWithBearing`): then a tile is drawn for the map's bearing, in whole degrees.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var tile: TileID
    public var pixelSize: Int
    public var bearing: Double
    public init(_ tile: TileID, pixelSize: Int, bearing: Double = 0) {
        self.tile = tile
        self.pixelSize = pixelSize
        self.bearing = bearing
    }
    public var description: String { bearing == 0 ? "\(tile)@\(pixelSize)px" : "\(tile)@\(pixelSize)px@\(bearing)°" }
}

/// A rectangle of a raster tile's pixels (columns x0..<x1, rows y0..<y1): the part of an edge
/// tile a frame shows. A cold frame draws only that part of its edge tiles (`TileCache.renderNow`
/// with areas); the pixels inside are the same bytes as when the tile is drawn whole.
public struct TileArea: Hashable, Sendable, CustomStringConvertible {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var pixels: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }

    /// Whether every pixel of `other` is in this area.
    public func contains(_ other: TileArea) -> Bool {
        other.isEmpty || (x0 <= other.x0 && y0 <= other.y0 && x1 >= other.x1 && y1 >= other.y1)
    }

    /// The smallest area holding both.
    public func union(_ other: TileArea) -> TileArea {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return TileArea(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// Clamped to a tile of side `size`.
    func clamped(to size: Int) -> TileArea {
        TileArea(x0: max(x0, 0), y0: max(y0, 0), x1: min(x1, size), y1: min(y1, size))
    }

    /// The whole of a tile of side `size`.
    static func whole(_ size: Int) -> TileArea { TileArea(x0: 0, y0: 0, x1: size, y1: size) }

    public var description: String { "[\(x0)..<\(x1) × \(y0)..<\(y1)]" }
}
