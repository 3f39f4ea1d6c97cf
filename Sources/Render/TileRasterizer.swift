import CCairo
import Style
import Synchronization
import Tiles
#if canImport(Glibc)
import Glibc
#endif

/// What drawing one raster tile produced: the image and any source errors met on the way
/// (a damaged tile in one source still leaves the other sources drawn).
public struct RenderedTile: Sendable {
    public var image: RasterImage
    public var errors: [TileFailure]
    /// The tile's label candidates (extracted beside the pixels, cached with them).
    var labels: TileLabelSet = .empty
    /// The pixels drawn, when only part of the tile was asked for (an edge tile of a cold
    /// frame); nil when the whole tile is drawn. The pixels outside it are undefined.
    public var area: TileArea? = nil
}

/// A tile a source could not read: which file, which stored tile, and what is wrong. The map
/// draws that tile from its nearest readable ancestor instead, and reports it once
/// (stderr and the state dump's `map.errors`).
public struct TileFailure: Sendable, Hashable, CustomStringConvertible {
    /// The source's name (its path, for files).
    public var source: String
    /// The stored tile that failed (for an overzoomed view, the ancestor that was read).
    public var tile: TileID
    /// The problem in words, without the file and tile (they are the fields above).
    public var message: String

    public init(source: String, tile: TileID, message: String) {
        self.source = source
        self.tile = tile
        self.message = message
    }

    /// `error` from `source` while drawing `drawn`, placed on the tile the error names.
    init(_ error: any Error, source: any VectorTileSource, drawn: TileID) {
        if let e = error as? TileError {
            self.init(source: source.name, tile: e.tile ?? drawn, message: e.problem)
        } else {
            self.init(source: source.name, tile: drawn, message: "\(error)")
        }
    }

    public var description: String { "\(source): tile \(tile): \(message)" }
}

/// A source of tiles under the style source id it fills, and the area it covers (degrees
/// west, south, east, north) when known.
public struct StyledSource: Sendable {
    public var id: String
    public var source: any VectorTileSource
    public var bounds: (west: Double, south: Double, east: Double, north: Double)?
    public init(id: String, source: any VectorTileSource, bounds: (west: Double, south: Double, east: Double, north: Double)? = nil) {
        self.id = id
        self.source = source
        self.bounds = bounds
    }
}

/// Draws vector tiles into opaque raster tiles with cairo, styled by a MapLibre style.
///
/// Sources are drawn bottom first (the world, then a city on top). Past a source's `maxZoom`
/// the map keeps working ("overzoom"): the source's deepest ancestor tile is drawn scaled up;
/// styles follow the requested zoom. Safe to call from several threads at
/// once: every call draws into its own surface with its own cairo context.
public struct TileRasterizer: Sendable {
    public let sources: [any VectorTileSource]
    public let styled: [StyledSource]
    public let style: Style
    private let blanks = BlankTiles()
    /// Per styled source, the layer names its style layers read: the only ones decoded (nil
    /// for all of them, when a layer reads "*").
    private let drawnLayers: [Set<String>?]

    /// The background-only tile of side `size`, shared.
    private func blank(size: Int, color: StyleColor) -> RasterImage? {
        let key = BlankTiles.Key(size: size, color: color.rgbHex)
        if let hit = blanks.images.withLock({ $0[key] }) { return hit }
        guard let image = RasterImage(width: size, height: size), let cr = cairo_create(image.surface) else { return nil }
        cairo_set_source_rgb(cr, color.r, color.g, color.b)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(image.surface)
        return blanks.images.withLock { b in
            if let raced = b[key] { return raced }
            if b.count > 16 { b.removeAll() }
            b[key] = image
            return image
        }
    }

    /// The colour where no tile has data at Meridian zoom `zoom`: the style's background
    /// over white.
    public func background(zoom: Double) -> StyleColor {
        let c = style.at(zoom: zoom).background
        return StyleColor(r: 1 + (c.r - 1) * c.a, g: 1 + (c.g - 1) * c.a, b: 1 + (c.b - 1) * c.a)
    }

    /// Past this many levels beyond a source's data, the source overzooms (clips) itself.
    static let maxDrawnOverzoom = 12
    /// Decoded tiles at the sources' deepest level, shared by the overzoomed tiles under them.
    private let deepest = DecodedTiles(capacity: 32)

    /// Polygons through cairo's path and scan converter instead of `PolygonFiller`: the
    /// reference the tests compare the filler with.
    var fillsWithCairo = false

    /// Labels: the tiles' pixels never hold text; each tile's symbols become candidates for the
    /// screen-wide placer (`LabelLayer`), from the style's symbol layers, or from `symbols`
    /// when set (tests feed their own). False: no label candidates at all.
    public var extractsLabels = true
    public var symbols: (any SymbolSource)?

    /// Sources drawn with `style`, each under the style source id it fills.
    public init(sources: [StyledSource], style: Style) {
        styled = sources
        self.sources = sources.map(\.source)
        self.style = style
        drawnLayers = sources.map { s in
            let names = style.sourceLayers(of: s.id)
            return names.contains("*") ? nil : names
        }
    }

    /// Sources drawn with the shipped styles of their schemas (see `AutomaticStyle`), layered
    /// in order.
    public init(sources: [any VectorTileSource]) {
        let auto = AutomaticStyle.make(for: sources)
        self.init(sources: auto.sources, style: auto.style)
    }

    /// Sources drawn with their shipped styles, labelled from `symbols` instead of the style.
    public init(sources: [any VectorTileSource], symbols: any SymbolSource) {
        self.init(sources: sources)
        self.symbols = symbols
    }

    /// The side of a raster tile in device pixels at a buffer scale (256 logical px per tile).
    public static func pixelSize(scale: Double) -> Int { max(1, Int((256 * scale).rounded())) }

    /// Draws `tile` at buffer `scale` (1, 2, 1.5, …): lines, text and dots keep their logical
    /// size, so a scale-2 tile has twice the pixels and twice the line widths, never blurred.
    /// Returns nil only when the image cannot be allocated.
    public func render(_ tile: TileID, scale: Double) -> RenderedTile? {
        render(tile, pixelSize: Self.pixelSize(scale: scale), scale: scale)
    }

    /// Draws `tile` as a `pixelSize`-px square for a map at a fractional zoom, where a tile
    /// spans `pixelSize` device pixels instead of 256 · scale: the tile is drawn at that size
    /// (crisp, no scaling when composited) and styled for that zoom,
    /// `tile.z + log2(pixelSize / (256 · scale))`.
    ///
    /// The image's memory comes from `pool` (a cache passes its own, so evicted tiles' pixels
    /// are reused). `bearing` turns the layers translated in screen space (see `TileKey`).
    /// `area`: only those pixels are drawn (the rest of the image is left undefined), each the
    /// same bytes as in the whole tile; the labels are the whole tile's either way.
    public func render(_ tile: TileID, pixelSize: Int, scale: Double, bearing: Double = 0, pool: PixelPool = .shared,
                       area wanted: TileArea? = nil) -> RenderedTile? {
        let size = max(1, pixelSize)
        let area = wanted.map { $0.clamped(to: size) }.flatMap { $0.contains(.whole(size)) ? nil : $0 }
        var errors: [TileFailure] = []
        var layers: [PlacedTile] = []
        for (index, s) in styled.enumerated() where tile.z >= s.source.minZoom {
            let source = s.source
            do {
                if var placed = try load(tile, from: source, index: index, pixelSize: Double(size)) {
                    placed.source = s.id
                    placed.ground = s.bounds.map { Self.pixelRect($0, tile: tile, pixelSize: Double(size)) }
                    layers.append(placed)
                }
            } catch {
                let failure = TileFailure(error, source: source, drawn: tile)
                errors.append(failure)
                if var placed = nearestReadableAncestor(of: tile, above: failure.tile, in: source, pixelSize: Double(size)) {
                    placed.source = s.id
                    placed.ground = s.bounds.map { Self.pixelRect($0, tile: tile, pixelSize: Double(size)) }
                    layers.append(placed)
                }
            }
        }
        // Open sea (or past the edge of every source): one shared image of the background
        // colour serves every such tile, drawn once, kept once.
        let zoom = Double(tile.z) + log2(Double(size) / (256 * scale))
        let compiled = style.at(zoom: zoom)
        var labels = TileLabelSet.empty
        if extractsLabels {
            let override = symbols
            labels = LabelExtraction.labels(layers, tile: tile, pixelSize: Double(size), scale: scale) { placed in
                override?.symbols(in: placed.tile, zoom: zoom) ?? compiled.symbols(in: placed.tile, source: placed.source)
            }
        }
        if layers.allSatisfy({ $0.tile.layers.allSatisfy { $0.features.isEmpty } }) {
            return blank(size: size, color: background(zoom: zoom)).map { RenderedTile(image: $0, errors: errors, labels: labels) }
        }
        // Not cleared: the painter's first step paints the background over every pixel.
        guard let image = RasterImage(width: size, height: size, pool: pool, cleared: false),
              let cr = cairo_create(image.surface) else { return nil }
        defer { cairo_destroy(cr) }
        if fillsWithCairo {
            paint(layers, into: cr, tile: tile, style: compiled, scale: scale, size: size, bearing: bearing, area: area, filler: nil)
        } else {
            PolygonFiller.withFiller(width: size, height: size, area: area) { filler in
                paint(layers, into: cr, tile: tile, style: compiled, scale: scale, size: size, bearing: bearing, area: area, filler: filler)
            }
        }
        return RenderedTile(image: image, errors: errors, labels: labels, area: area)
    }

    private func paint(_ layers: [PlacedTile], into cr: OpaquePointer, tile: TileID, style: ZoomStyle, scale: Double, size: Int,
                       bearing: Double, area: TileArea?, filler: PolygonFiller?) {
        var painter = TilePainter(cr: cr, style: style, scale: scale, pixelSize: Double(size), filler: filler)
        painter.patternOrigin = (Double(tile.x) * Double(size), Double(tile.y) * Double(size))
        painter.bearing = bearing
        painter.area = area
        painter.paint(layers)
    }

    /// The source's data for `tile`. Past the source's deepest level the ancestor there is
    /// drawn scaled up (decoded once for all its descendants, kept in `deepest`), with each
    /// part culled against the tile before cairo sees it. Drawing the ancestor directly is
    /// cheaper than asking the source to overzoom: clipping every feature to every child
    /// in Swift took over a third of a cold street-level screen, while cairo clips the few
    /// parts that reach the tile as it fills them.
    func load(_ tile: TileID, from source: any VectorTileSource, index: Int, pixelSize: Double) throws -> PlacedTile? {
        // Symbols from elsewhere (tests) may read any layer; otherwise only the style's are read.
        let layers = symbols == nil ? drawnLayers[index] : nil
        func read(_ id: TileID) throws -> VectorTile? {
            try layers.map { try source.tile(id, layers: $0) } ?? source.tile(id)
        }
        let dz = tile.z - source.maxZoom
        // Deeper than 12 levels the ancestor's coordinates would near the ±8 M px that
        // cairo's 24.8 fixed point holds; there only the source's clipped overzoom is safe.
        guard dz > 0 && dz <= Self.maxDrawnOverzoom else {
            let drawn = try read(tile)
            if drawn != nil || dz <= 0 {
                return drawn.map { PlacedTile(tile: $0, placement: TilePlacement(drawn: tile, from: tile, pixelSize: pixelSize)) }
            }
            return nil
        }
        let ancestor = TileID(z: source.maxZoom, x: tile.x >> dz, y: tile.y >> dz)
        let indexed: IndexedTile?
        // Whole tiles and selected layers are kept apart (a copy of this rasterizer with other
        // symbols shares the cache).
        let kept = layers == nil ? index + styled.count : index
        if let hit = deepest.tile(source: kept, ancestor) {
            indexed = hit
        } else {
            indexed = try read(ancestor).map(IndexedTile.init)
            if let indexed { deepest.insert(indexed, source: kept, ancestor) }
        }
        guard let indexed else { return nil }
        let placement = TilePlacement(drawn: tile, from: ancestor, pixelSize: pixelSize)
        return PlacedTile(tile: indexed.features(near: tile, in: ancestor, margin: Self.cullMargin / pixelSize), placement: placement)
    }

    /// When the source cannot read `failed` (the tile itself or the ancestor drawn for it), the
    /// closest ancestor above `failed` that it can read, drawn scaled up into `tile` as for
    /// overzoom; nil when none within `maxDrawnOverzoom` levels is readable or has data. An
    /// ancestor that fails too is skipped here (it is reported when it is drawn itself).
    func nearestReadableAncestor(
        of tile: TileID, above failed: TileID, in source: any VectorTileSource, pixelSize: Double
    ) -> PlacedTile? {
        let top = max(source.minZoom, tile.z - Self.maxDrawnOverzoom, 0)
        var z = min(failed.z, tile.z) - 1
        while z >= top {
            let ancestor = tile.ancestor(levelsUp: tile.z - z)
            do {
                if let found = try source.tile(ancestor) {
                    let indexed = IndexedTile(found)
                    let placement = TilePlacement(drawn: tile, from: ancestor, pixelSize: pixelSize)
                    return PlacedTile(tile: indexed.features(near: tile, in: ancestor, margin: Self.cullMargin / pixelSize), placement: placement)
                }
            } catch {
                // Try the next level up.
            }
            z -= 1
        }
        return nil
    }

    /// How far outside a tile (px) a feature may start and still be drawn into it: the widest
    /// road with its casing is 20 px.
    static let cullMargin = 32.0

    /// Degrees west, south, east, north as a pixel rectangle (x0, y0, x1, y1) of `tile`.
    static func pixelRect(_ b: (west: Double, south: Double, east: Double, north: Double), tile: TileID, pixelSize: Double) -> (Double, Double, Double, Double) {
        let n = Double(1 << tile.z)
        func x(_ lon: Double) -> Double { ((lon + 180) / 360 * n - Double(tile.x)) * pixelSize }
        func y(_ lat: Double) -> Double {
            let l = min(max(lat, -85.0511287798), 85.0511287798) * Double.pi / 180
            return ((1 - log(tan(l) + 1 / cos(l)) / Double.pi) / 2 * n - Double(tile.y)) * pixelSize
        }
        return (max(x(b.west), 0), max(y(b.north), 0), min(x(b.east), pixelSize), min(y(b.south), pixelSize))
    }
}

/// A decoded tile and where its coordinates land in the raster being drawn.
struct PlacedTile {
    var tile: VectorTile
    var placement: TilePlacement
    /// The style source id the tile came from.
    var source = ""
    /// Where the source's data ends inside this raster (its bounds), nil for everywhere.
    var ground: (Double, Double, Double, Double)?
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
