import CCairo
import Geo
import Tiles
#if canImport(Glibc)
import Glibc
#endif

/// What one composited frame showed, so the caller knows whether to draw again when tiles land.
public struct FrameReport: Sendable, Equatable {
    /// The tile grid the frame wanted.
    public var tileZoom: Int
    /// Tiles of that grid covering the view (a tile seen on two world copies counts twice).
    public var visibleTiles: Int
    /// Of those, the ones drawn from their own raster; the rest showed a scaled ancestor or
    /// descendant, or the background.
    public var exactTiles: Int
    /// Every visible tile was drawn exactly: nothing more will change until the camera moves.
    public var isComplete: Bool { exactTiles == visibleTiles }
}

/// Draws the map for a camera: cached raster tiles composited each frame, a scale bar and the
/// data's attribution over them.
///
/// The UI thread calls `draw` every frame; it never waits for a tile. Missing tiles are queued
/// on the cache, and until they land the nearest cached level stands in, scaled (a parent
/// first, then any children over it), so once anything near is cached the map never flashes
/// blank. Headless runs, tests and screenshots call `drawSynchronously`, which draws every
/// missing tile first and always gives the same pixels for the same camera.
public struct MapRenderer: Sendable {
    public let cache: TileCache
    /// Credits for the data, shown bottom right while their area is in view.
    public var attributions: [MapAttribution]
    public var showsScaleBar = true
    public var showsAttribution = true
    private let overlays = OverlayCache()
    /// How many levels up to look for a stand-in tile.
    static let fallbackLevels = 8

    public init(cache: TileCache, attributions: [MapAttribution] = []) {
        self.cache = cache
        self.attributions = attributions
    }

    /// The tile grid drawn for `camera`: the nearest integer zoom, so tiles are scaled by
    /// 0.71…1.41 and text never shrinks or grows by more than that.
    public static func tileZoom(for camera: MapCamera) -> Int { tileZoom(camera.zoom) }

    /// The tiles `camera` needs, nearest the view centre first, each once, at the size
    /// `tilePixelSize` picks.
    public func tiles(for camera: MapCamera) -> [TileKey] {
        let size = tilePixelSize(for: camera)
        var seen = Set<TileKey>()
        return camera.visibleTiles(tileZoom: Self.tileZoom(for: camera)).compactMap { c in
            let key = TileKey(TileID(z: c.zoom, x: c.x, y: c.y), pixelSize: size)
            return seen.insert(key).inserted ? key : nil
        }
    }

    /// How wide (device px) the tiles for `camera` are drawn: exactly as wide as they appear
    /// when the zoom is crisp (see `crispZoom`), so compositing is a plain copy; otherwise
    /// (mid-pinch) the standard 256 · scale, scaled on screen.
    public func tilePixelSize(for camera: MapCamera) -> Int {
        let side = Self.tileSide(zoom: camera.zoom, scale: cache.scale)
        let rounded = side.rounded()
        return abs(side - rounded) < 1e-6 && rounded >= 1 ? Int(rounded) : TileRasterizer.pixelSize(scale: cache.scale)
    }

    /// The nearest zoom to `zoom` at which tiles span a whole number of device pixels.
    ///
    /// Copying pixels is the only compositing that fits a 1 ms frame: any scaling, even
    /// nearest-pixel, costs 1–4 ms for a 1920x1200 screen in pixman 0.42. So when a pinch
    /// ends, set the camera to this zoom (the change is under 0.3 %, about a pixel across
    /// the screen): the renderer then draws tiles at exactly that size and every later pan
    /// frame is a copy. At integer zooms it returns the zoom unchanged.
    public static func crispZoom(_ zoom: Double, scale: Double) -> Double {
        guard zoom.isFinite, scale > 0 else { return zoom }
        let standard = 256 * scale
        var best = zoom, bestError = Double.infinity
        // Both neighbouring tile grids: near a half zoom the other grid may be closer.
        let below = zoom.rounded(.down)
        for tz in [below, below + 1] where tz >= 0 {
            let side = (standard * exp2(zoom - tz)).rounded()
            guard side >= 1 else { continue }
            let crisp = tz + log2(side / standard)
            // Keep only zooms that pick this grid, or the tiles would not be `side` wide.
            if tileZoom(crisp) == Int(tz), abs(crisp - zoom) < bestError {
                best = crisp
                bestError = abs(crisp - zoom)
            }
        }
        return best
    }

    static func tileSide(zoom: Double, scale: Double) -> Double {
        256 * scale * exp2(zoom - Double(tileZoom(zoom)))
    }

    static func tileZoom(_ zoom: Double) -> Int { min(max(Int((zoom + 0.5).rounded(.down)), 0), 24) }

    /// Composites the map for `camera` into `cr`, whose user space is logical pixels (the cache's
    /// scale maps them to device pixels), with the view's top-left corner at `origin`.
    /// - Parameter moving: a gesture or animation is moving the map: whole-pixel, nearest-pixel
    ///   compositing, which keeps a full frame around a millisecond.
    @discardableResult
    public func draw(_ camera: MapCamera, into cr: OpaquePointer, at origin: ScreenPoint = .zero, moving: Bool) -> FrameReport {
        let keys = tiles(for: camera)
        return composite(camera, found: cache.request(keys), into: cr, at: origin, moving: moving)
    }

    /// Draws every tile `camera` needs (on all cores), then composites the settled frame.
    /// Blocks; for headless runs, screenshots and tests. Same camera, same pixels.
    @discardableResult
    public func drawSynchronously(_ camera: MapCamera, into cr: OpaquePointer, at origin: ScreenPoint = .zero) -> FrameReport {
        composite(camera, found: cache.renderNow(tiles(for: camera)), into: cr, at: origin, moving: false)
    }

    private func composite(_ camera: MapCamera, found: [TileKey: RasterImage],
                           into cr: OpaquePointer, at origin: ScreenPoint, moving: Bool) -> FrameReport {
        let coverage = camera.visibleTiles(tileZoom: Self.tileZoom(for: camera))
        let pixelSize = tilePixelSize(for: camera)
        let size = camera.size
        cairo_save(cr)
        var dx = origin.x, dy = origin.y
        cairo_user_to_device(cr, &dx, &dy)
        cairo_identity_matrix(cr)
        let s = cache.scale
        let comp = TileCompositor(cr: cr, scale: s, deviceOrigin: (dx, dy), moving: moving)
        cairo_rectangle(cr, dx.rounded(), dy.rounded(), (dx + size.width * s).rounded() - dx.rounded(), (dy + size.height * s).rounded() - dy.rounded())
        cairo_clip(cr)

        let top = camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y
        let bottom = camera.screenPoint(ofWorld: WorldPoint(x: 0, y: WebMercator.tileSize)).y
        let allFound = coverage.allSatisfy { found[TileKey(TileID(z: $0.zoom, x: $0.x, y: $0.y), pixelSize: pixelSize)] != nil }
        if top > 0 || bottom < size.height || !allFound {
            // Only when something will not be covered: a full-screen fill costs as much as the blit.
            let bg = cache.rasterizer.background(zoom: camera.zoom)
            cairo_set_source_rgb(cr, bg.r, bg.g, bg.b)
            cairo_paint(cr)
        }
        var exact = 0
        for c in coverage {
            if let image = found[TileKey(TileID(z: c.zoom, x: c.x, y: c.y), pixelSize: pixelSize)] {
                comp.draw(image, origin: c.origin, size: c.size)
                exact += 1
            } else {
                drawStandIn(for: c, with: comp)
            }
        }
        cairo_restore(cr)

        cairo_save(cr)
        cairo_translate(cr, origin.x, origin.y)
        if showsScaleBar { ScaleBar.draw(for: camera, into: cr, scale: s, cache: overlays) }
        if showsAttribution {
            AttributionOverlay.draw(MapAttribution.visible(attributions, camera: camera), size: size, into: cr, scale: s, cache: overlays)
        }
        cairo_restore(cr)
        return FrameReport(tileZoom: Self.tileZoom(for: camera), visibleTiles: coverage.count, exactTiles: exact)
    }

    /// A missing tile's place filled from the nearest cached level: the same tile drawn for
    /// another zoom (before a settled fractional zoom's tiles arrive), else the closest
    /// ancestor, scaled up and clipped, then whichever of its four children are cached.
    /// Stand-ins are looked for at the standard size only.
    private func drawStandIn(for c: TileCoverage, with comp: TileCompositor) {
        if let image = cache.cached(TileID(z: c.zoom, x: c.x, y: c.y)) {
            comp.draw(image, origin: c.origin, size: c.size)
            return
        }
        for k in stride(from: 1, through: min(c.zoom, Self.fallbackLevels), by: 1) {
            let z = c.zoom - k, n = 1 << z
            // Arithmetic shifts floor, which is right for west-of-the-primary-copy columns too.
            let ux = c.unwrappedX >> k, y = c.y >> k
            guard let image = cache.cached(TileID(z: z, x: ((ux % n) + n) % n, y: y)) else { continue }
            let f = Double(1 << k)
            let o = ScreenPoint(x: c.origin.x - Double(c.unwrappedX - (ux << k)) * c.size,
                                y: c.origin.y - Double(c.y - (y << k)) * c.size)
            comp.draw(image, origin: o, size: c.size * f, clip: (c.origin, c.size))
            break
        }
        guard c.zoom < 24 else { return }
        let half = c.size / 2
        for j in 0..<2 {
            for i in 0..<2 {
                if let image = cache.cached(TileID(z: c.zoom + 1, x: 2 * c.x + i, y: 2 * c.y + j)) {
                    comp.draw(image, origin: ScreenPoint(x: c.origin.x + Double(i) * half, y: c.origin.y + Double(j) * half), size: half)
                }
            }
        }
    }
}
