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
