import CCairo
import Tiles

/// What drawing one raster tile produced: the image and any source errors met on the way
/// (a damaged tile in one source still leaves the other sources drawn).
public struct RenderedTile: Sendable {
    public var image: RasterImage
    public var errors: [String]
}

/// Draws vector tiles into opaque raster tiles with cairo, styled by `MapStyle`.
///
/// Sources are drawn bottom first (the world, then a city on top). A request deeper than a
/// source's `maxZoom` is drawn from the source's deepest ancestor tile, scaled up ("overzoom"),
/// so the map keeps working past the data's last level. Safe to call from several threads at
/// once: every call draws into its own surface with its own cairo context.
public struct TileRasterizer: Sendable {
    public let sources: [any VectorTileSource]

    public init(sources: [any VectorTileSource]) { self.sources = sources }

    /// The side of a raster tile in device pixels at a buffer scale (256 logical px per tile).
    public static func pixelSize(scale: Double) -> Int { max(1, Int((256 * scale).rounded())) }

    /// Draws `tile` at buffer `scale` (1, 2, 1.5, …): lines, text and dots keep their logical
    /// size, so a scale-2 tile has twice the pixels and twice the line widths, never blurred.
    /// Returns nil only when the image cannot be allocated.
    public func render(_ tile: TileID, scale: Double) -> RenderedTile? {
        let size = Self.pixelSize(scale: scale)
        guard let image = RasterImage(width: size, height: size), let cr = cairo_create(image.surface) else { return nil }
        defer { cairo_destroy(cr) }
        var errors: [String] = []
        var layers: [PlacedTile] = []
        for source in sources {
            guard let sourceTile = Self.sourceTile(for: tile, in: source) else { continue }
            do {
                if let vt = try source.tile(sourceTile) {
                    layers.append(PlacedTile(tile: vt, placement: TilePlacement(drawn: tile, from: sourceTile, pixelSize: Double(size))))
                }
            } catch {
                errors.append("\(source.name): tile \(sourceTile): \(error)")
            }
        }
        var painter = TilePainter(cr: cr, zoom: Double(tile.z), scale: Double(size) / 256, pixelSize: Double(size))
        painter.paint(layers)
        return RenderedTile(image: image, errors: errors)
    }

    /// The tile to ask `source` for when drawing `tile`: itself, or its ancestor at the
    /// source's deepest level; nil when the source starts deeper than `tile`.
    static func sourceTile(for tile: TileID, in source: any VectorTileSource) -> TileID? {
        if tile.z < source.minZoom { return nil }
        let dz = tile.z - source.maxZoom
        guard dz > 0 else { return tile }
        return TileID(z: source.maxZoom, x: tile.x >> dz, y: tile.y >> dz)
    }
}

/// A decoded tile and where its coordinates land in the raster being drawn.
struct PlacedTile {
    var tile: VectorTile
    var placement: TilePlacement
}

/// Maps one layer's tile coordinates (0…extent) to raster pixels, for the tile itself or for
/// an ancestor drawn scaled up (overzoom).
struct TilePlacement {
    /// Raster pixels per unit of the source tile's extent-1 square.
    var pixelsPerTile: Double
    var offsetX: Double
    var offsetY: Double

    init(drawn: TileID, from source: TileID, pixelSize: Double) {
        let dz = drawn.z - source.z
        let f = Double(1 << dz)
        pixelsPerTile = pixelSize * f
        offsetX = -Double(drawn.x - (source.x << dz)) * pixelSize
        offsetY = -Double(drawn.y - (source.y << dz)) * pixelSize
    }

    func x(_ v: Int32, extent: Double) -> Double { Double(v) / extent * pixelsPerTile + offsetX }
    func y(_ v: Int32, extent: Double) -> Double { Double(v) / extent * pixelsPerTile + offsetY }
}
