import Tiles

/// A raster tile in the cache: which tile, drawn how many device pixels wide. Tiles are
/// 256 · scale px at integer zooms; a map settled at a fractional zoom gets its own
/// exactly-sized tiles so compositing stays a plain copy (see `MapRenderer.crispZoom`).
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var tile: TileID
    public var pixelSize: Int
    public init(_ tile: TileID, pixelSize: Int) {
        self.tile = tile
        self.pixelSize = pixelSize
    }
    public var description: String { "\(tile)@\(pixelSize)px" }
}
