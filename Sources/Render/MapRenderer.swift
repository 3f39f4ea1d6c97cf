import CCairo
import Geo
import Synchronization
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

/// What the caller knows of the clip it draws the map under, when that is not one rectangle:
/// the map's view rectangle with its corners rounded by `cornerRadius` (logical px), within one
/// whole-pixel device rectangle (the caller's clip before it rounded the corners). The frame
/// then copies tiles and blits labels straight into the pixels wherever the clip covers them
/// wholly, and leaves only the rounded corners and partly covered edge pixels to cairo.
public struct MapFrameClip: Sendable, Equatable {
    public var x0: Double, y0: Double, x1: Double, y1: Double
    public var cornerRadius: Double
    public init(x0: Double, y0: Double, x1: Double, y1: Double, cornerRadius: Double) {
        (self.x0, self.y0, self.x1, self.y1, self.cornerRadius) = (x0, y0, x1, y1, cornerRadius)
    }
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
    /// Labels from the style's symbol layers, placed over the whole screen (`LabelLayer`).
    public var showsLabels = true
    private let overlays = OverlayCache()
    private let labelLayer: LabelLayer
    private let turned = RotationBuffer()
    let turnedFrame = TurnedFrameCache()
    /// How far (device px, each side) a cached turned frame reaches past the view, so a pan at
    /// a fixed bearing and zoom can move that far before the frame is turned again.
    public static let turnedFrameMargin = 64
    /// Whether moving rotated frames reuse the kept turned frame (tests and the bench's A/B
    /// turn every frame afresh to compare).
    public var keepsTurnedFrames = true
    /// Whether tiles at their own size are copied straight into an image frame's pixels
    /// (`FramePixels`) rather than through cairo (the tests compare the two).
    let tilesStraightIntoPixels: Bool
    /// How many tiles and kept turned frames were copied straight into frames (tests).
    let straightCopies = Counter()
    /// Whether `drawSynchronously` copies each tile into the frame on the thread that drew it
    /// (`EarlyTileCopies`); false: all after the drawing (the tests compare the two).
    var copiesTilesAsDrawn = true
    /// How many tiles `drawSynchronously` copied on the threads that drew them (tests).
    let copiesAsDrawnCount = Counter()
    /// How many levels up to look for a stand-in tile.
    static let fallbackLevels = 8

    public init(cache: TileCache, attributions: [MapAttribution] = []) {
        self.init(cache: cache, attributions: attributions, labelsStraightIntoPixels: true)
    }

    /// `labelsStraightIntoPixels: false` draws every label through cairo, not straight into an
    /// image surface's pixels (`FramePixels`), and `tilesStraightIntoPixels: false` every tile:
    /// the tests compare the two.
    init(cache: TileCache, attributions: [MapAttribution] = [], labelsStraightIntoPixels: Bool, tilesStraightIntoPixels: Bool = true) {
        self.cache = cache
        self.attributions = attributions
        labelLayer = LabelLayer(directCompositing: labelsStraightIntoPixels)
        self.tilesStraightIntoPixels = tilesStraightIntoPixels
    }

    /// The pixels of `cr`'s frame for tile copies straight into them, when it allows them.
    private func framePixels(_ cr: OpaquePointer, trust: FramePixels.Trust? = nil) -> FramePixels? {
        tilesStraightIntoPixels ? FramePixels(cr, trust: trust) : nil
    }

    /// Where a frame drawn under `clip` (the view at device px x0..x1, y0..y1, not rounded)
    /// covers its pixels wholly: inside the caller's rectangle and the view's whole pixels, away
    /// from the squares at the view's corners that the rounding cuts (as wide as the radius and
    /// two px more).
    static func trust(_ clip: MapFrameClip, view: (x0: Double, y0: Double, x1: Double, y1: Double), scale: Double) -> FramePixels.Trust? {
        let k = max(0, min(clip.cornerRadius, (view.x1 - view.x0) / scale / 2, (view.y1 - view.y0) / scale / 2))
        let values = [clip.x0, clip.y0, clip.x1, clip.y1, view.x0, view.y0, view.x1, view.y1, k * scale]
        guard values.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else { return nil }
        let ix0 = max(clip.x0.rounded(.up), view.x0.rounded(.up)), iy0 = max(clip.y0.rounded(.up), view.y0.rounded(.up))
        let ix1 = min(clip.x1.rounded(.down), view.x1.rounded(.down)), iy1 = min(clip.y1.rounded(.down), view.y1.rounded(.down))
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        let side = Int32((k * scale).rounded(.up)) + 2
        let vx0 = Int32(view.x0.rounded(.down)), vy0 = Int32(view.y0.rounded(.down))
        let vx1 = Int32(view.x1.rounded(.up)), vy1 = Int32(view.y1.rounded(.up))
        typealias Box = FramePixels.Box
        return FramePixels.Trust(inside: Box(x0: Int32(ix0), y0: Int32(iy0), x1: Int32(ix1), y1: Int32(iy1)), avoiding: k == 0 ? [] : [
            Box(x0: vx0, y0: vy0, x1: vx0 + side, y1: vy0 + side), Box(x0: vx1 - side, y0: vy0, x1: vx1, y1: vy0 + side),
            Box(x0: vx0, y0: vy1 - side, x1: vx0 + side, y1: vy1), Box(x0: vx1 - side, y0: vy1 - side, x1: vx1, y1: vy1),
        ])
    }

    /// Done with `pixels`: cairo may draw again; its copies are counted.
    private func finish(_ pixels: FramePixels?) {
        guard let pixels else { return }
        pixels.finish()
        straightCopies.add(pixels.copyCount)
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
            let key = tileKey(c, size, bearing: camera.bearing)
            return seen.insert(key).inserted ? key : nil
        }
    }

    /// The cache key of a visible tile drawn `pixelSize` px wide for a map at `bearing`: at
    /// bearing 0, unless the style translates a layer in screen space; then for the bearing in
    /// whole degrees (at most 0.009 px off per px of translate).
    func tileKey(_ c: TileCoverage, _ pixelSize: Int, bearing: Double) -> TileKey {
        let b = cache.rasterizer.style.turnsWithBearing ? Self.tileBearing(bearing) : 0
        return TileKey(TileID(z: c.zoom, x: c.x, y: c.y), pixelSize: pixelSize, bearing: b)
    }

    /// A bearing rounded to whole degrees in [0, 360).
    static func tileBearing(_ bearing: Double) -> Double {
        guard bearing.isFinite else { return 0 }
        let d = bearing.rounded().truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
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
    /// - Parameter time: the frame's clock (ms, `fadeClock()` live): labels a new placement shows or drops fade in
    ///   or out over `labelFadeDuration` (`labelsFading` says when more frames are needed); nil:
    ///   at once.
    /// - Parameter frameClip: what the caller knows of a clip that is not one rectangle (see
    ///   `MapFrameClip`); nil when it knows nothing (the frame then goes through cairo wherever
    ///   the clip is not one whole-pixel rectangle).
    public func draw(_ camera: MapCamera, into cr: OpaquePointer, at origin: ScreenPoint = .zero, moving: Bool,
                     time: Double? = nil, frameClip: MapFrameClip? = nil) -> FrameReport {
        if moving, camera.bearing != 0, keepsTurnedFrames {
            // Ask for the margin's tiles too: a turned frame is kept with its margin (see
            // `drawTurnedFromCache`), and needs them all to be kept.
            let big = marginCamera(camera)
            let found = cache.request(tiles(for: big))
            return composite(camera, found: found, labels: showsLabels ? cache.labels(tiles(for: camera)) : [:], into: cr, at: origin,
                             moving: moving, margin: big, time: time, frameClip: frameClip)
        }
        let keys = tiles(for: camera)
        let found = cache.request(keys)
        return composite(camera, found: found, labels: showsLabels ? cache.labels(keys) : [:], into: cr, at: origin, moving: moving,
                         time: time, frameClip: frameClip)
    }

    /// Labels are fading in or out (as of the last frame drawn with a clock): draw the map
    /// again next frame. False once the last fade ended: a still map needs no frames.
    public var labelsFading: Bool { showsLabels && labelLayer.isFading }

    /// How long a label fades in or out (ms).
    public static let labelFadeDuration = LabelLayer.fadeDuration

    /// The clock fades run on in the live window: monotonic ms. (Not the page's `now`, which
    /// input events' own timestamps can carry ahead of it, where a fade would stand still.)
    public static func fadeClock() -> Double { LabelLayer.clock() }

    /// `camera` grown by `turnedFrameMargin` device px on every side.
    private func marginCamera(_ camera: MapCamera) -> MapCamera {
        var big = camera
        let grow = 2 * Double(Self.turnedFrameMargin) / cache.scale
        big.size = ViewSize(width: camera.size.width + grow, height: camera.size.height + grow)
        return big
    }

    /// Draws every tile `camera` needs (on all cores; edge tiles only as far as the frame shows
    /// them, cached as such), then composites the settled frame. Blocks; for headless runs,
    /// screenshots and tests. Same camera, same pixels.
    @discardableResult
    public func drawSynchronously(_ camera: MapCamera, into cr: OpaquePointer, at origin: ScreenPoint = .zero,
                                  frameClip: MapFrameClip? = nil) -> FrameReport {
        // Edge tiles only as far as the frame shows them: a cold 1920x1200 frame drew about
        // 1.4× the screen's pixels when they were drawn whole.
        // Each tile drawn here goes into the frame on the thread that drew it, as soon as it is
        // drawn, so the copies share the cores with the drawing instead of following it.
        let early = copiesAsDrawn(camera, into: cr, at: origin, frameClip: frameClip)
        let drawn = cache.renderNowWithLabels(tiles(for: camera), areas: shownAreas(camera), whenDrawn: early?.copies.copy)
        let copied = early?.copies.done ?? []
        if !copied.isEmpty {
            early?.pixels.wroteElsewhere()   // cairo draws into the frame next
            copiesAsDrawnCount.add(copied.count)
            straightCopies.add(copied.count)
        }
        return composite(camera, found: drawn.images, labels: drawn.labels, into: cr, at: origin, moving: false,
                         frameClip: frameClip, copied: copied)
    }

    /// Copies of a settled north-up frame's tiles into `cr`'s pixels from the threads that draw
    /// them (`drawSynchronously`): where `composite` would copy each tile as it is (at its own
    /// size on whole pixels, straight into the pixels: `TileCompositor.draw`), the same copy,
    /// made early. Nil when the frame would not be made of such copies alone (turned, showing
    /// past the world's edge, not an image the pixels can be written to).
    private func copiesAsDrawn(_ camera: MapCamera, into cr: OpaquePointer, at origin: ScreenPoint,
                               frameClip: MapFrameClip?) -> (copies: EarlyTileCopies, pixels: FramePixels)? {
        guard copiesTilesAsDrawn, camera.bearing == 0, !showsPastTheWorld(camera) else { return nil }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let (dx, dy, trust) = clipToView(camera, cr, at: origin, frameClip: frameClip)
        guard let pixels = framePixels(cr, trust: trust) else { return nil }
        let pixelSize = tilePixelSize(for: camera)
        var places: [TileKey: [(origin: ScreenPoint, size: Double)]] = [:]
        for c in camera.visibleTiles(tileZoom: Self.tileZoom(for: camera)) {
            places[tileKey(c, pixelSize, bearing: 0), default: []].append((c.origin, c.size))
        }
        return (EarlyTileCopies(writer: pixels.writer, scale: cache.scale, deviceOrigin: (dx, dy), places: places), pixels)
    }

    /// The part of each visible tile a settled north-up frame of `camera` reads (wherever the
    /// frame's origin is: tiles and view move together), for
    /// the tiles it shows only in part (edge tiles); whole tiles, and every tile of a turned
    /// frame, are left out (drawn whole). One spare pixel around a copied tile's part (the
    /// frame snaps tiles to whole device pixels), three around a scaled one's (the filter
    /// reads its neighbours).
    func shownAreas(_ camera: MapCamera) -> [TileKey: TileArea] {
        guard camera.bearing == 0 else { return [:] }
        let pixelSize = tilePixelSize(for: camera)
        var areas: [TileKey: TileArea] = [:]
        var whole = Set<TileKey>()
        for c in camera.visibleTiles(tileZoom: Self.tileZoom(for: camera)) {
            let key = tileKey(c, pixelSize, bearing: camera.bearing)
            guard c.size > 0 else { continue }
            let k = Double(pixelSize) / c.size
            let pad = abs(c.size * cache.scale - Double(pixelSize)) < 1e-6 ? 1.0 : 3.0
            // The view's box in the tile's pixels (the frame's origin moves tile and view alike).
            let x0 = ((0 - c.origin.x) * k - pad).rounded(.down), y0 = ((0 - c.origin.y) * k - pad).rounded(.down)
            let x1 = ((camera.size.width - c.origin.x) * k + pad).rounded(.up)
            let y1 = ((camera.size.height - c.origin.y) * k + pad).rounded(.up)
            let limit = Double(pixelSize)
            let area = TileArea(x0: Int(min(max(x0, 0), limit)), y0: Int(min(max(y0, 0), limit)),
                                x1: Int(min(max(x1, 0), limit)), y1: Int(min(max(y1, 0), limit)))
            if area.contains(.whole(pixelSize)) || whole.contains(key) {
                whole.insert(key)
                areas[key] = nil
            } else {
                // A tile shown twice (two world copies) is drawn where either shows it.
                areas[key] = areas[key].map { $0.union(area) } ?? area
            }
        }
        return areas
    }

    /// The labels on screen now, in view coordinates for `camera` (the state dump's `map.labels`).
    public func labels(for camera: MapCamera) -> [MapLabel] { showsLabels ? labelLayer.labels(for: camera) : [] }

    /// The labels a settled frame of `camera` shows, placing them first when no frame of that
    /// view was drawn (headless runs dump their state without drawing). Draws missing tiles
    /// synchronously, as `drawSynchronously` does; not for the UI thread.
    public func settledLabels(for camera: MapCamera) -> [MapLabel] {
        guard showsLabels else { return [] }
        let drawn = cache.renderNowWithLabels(tiles(for: camera))
        let (sets, complete) = labelSets(camera, drawn.labels)
        labelLayer.update(camera, sets: sets, complete: complete, moving: false)
        return labelLayer.labels(for: camera)
    }

    /// Whether drawing `camera` now would place the labels anew: they may then change anywhere
    /// on the map, so a frame that meant to redraw only part of it must redraw all of it.
    public func willPlaceLabels(_ camera: MapCamera, moving: Bool) -> Bool {
        guard showsLabels else { return false }
        let (sets, complete) = labelSets(camera, cache.labels(tiles(for: camera)))
        return labelLayer.needsPlacement(camera, sets: sets, complete: complete, moving: moving)
    }

    /// Forgets the labels shown and their drawn glyphs (a benchmark's cold start).
    public func resetLabels() { labelLayer.reset() }

    /// Places the labels of `camera`'s cached tiles from scratch (nothing shown before), without
    /// drawing: the bench's `label_placement_ms`. Returns how many were placed and how long it took.
    public func placeLabelsFromScratch(_ camera: MapCamera) -> (count: Int, ms: Double) {
        let layer = LabelLayer()
        layer.update(camera, sets: labelSets(camera, cache.labels(tiles(for: camera))).sets, complete: true, moving: false)
        return (layer.labels(for: camera).count, layer.lastPlacementMs)
    }

    /// The label candidates of every visible tile, each with the world shift of the copy it is
    /// shown on; `complete` when every visible tile had its own.
    private func labelSets(_ camera: MapCamera, _ labels: [TileKey: TileLabelSet]) -> (sets: [(TileLabelSet, Double)], complete: Bool) {
        let pixelSize = tilePixelSize(for: camera)
        var sets: [(TileLabelSet, Double)] = []
        var complete = true
        for c in camera.visibleTiles(tileZoom: Self.tileZoom(for: camera)) {
            guard let set = labels[tileKey(c, pixelSize, bearing: camera.bearing)] else {
                complete = false
                continue
            }
            sets.append((set, Double(c.unwrappedX - c.x) * WebMercator.tileSize / exp2(Double(c.zoom))))
        }
        return (sets, complete)
    }

    private func composite(_ camera: MapCamera, found: [TileKey: RasterImage], labels: [TileKey: TileLabelSet],
                           into cr: OpaquePointer, at origin: ScreenPoint, moving: Bool, margin: MapCamera? = nil,
                           time: Double? = nil, frameClip: MapFrameClip? = nil, copied: Set<TileKey> = []) -> FrameReport {
        let coverage = camera.visibleTiles(tileZoom: Self.tileZoom(for: camera))
        let size = camera.size
        cairo_save(cr)
        let (dx, dy, trust) = clipToView(camera, cr, at: origin, frameClip: frameClip)
        let s = cache.scale
        let exact: Int
        if camera.bearing == 0 {
            let comp = TileCompositor(cr: cr, scale: s, deviceOrigin: (dx, dy), moving: moving,
                                      pixels: framePixels(cr, trust: trust))
            exact = drawTiles(coverage, of: camera, bearing: camera.bearing, found: found, with: comp, copied: copied)
            finish(comp.pixels)
        } else if let margin, let fromCache = drawTurnedFromCache(coverage, of: camera, margin: margin, found: found,
                                                                  into: cr, deviceOrigin: (dx, dy)) {
            exact = fromCache
        } else {
            exact = drawTurned(coverage, of: camera, found: found, into: cr, deviceOrigin: (dx, dy), moving: moving)
        }
        if showsLabels {
            let (sets, complete) = labelSets(camera, labels)
            labelLayer.update(camera, sets: sets, complete: complete, moving: moving, time: time)
            labelLayer.draw(camera, into: cr, deviceOrigin: (dx.rounded(), dy.rounded()), scale: s, time: time, trust: trust)
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

    /// Clips `cr` to the view (`camera`'s size at `origin`, on whole device px) and leaves it
    /// drawing in device px; returns the view's top-left in device px and what `frameClip`
    /// says of the clip (`trust`).
    private func clipToView(_ camera: MapCamera, _ cr: OpaquePointer, at origin: ScreenPoint,
                            frameClip: MapFrameClip?) -> (Double, Double, FramePixels.Trust?) {
        let size = camera.size
        var dx = origin.x, dy = origin.y
        cairo_user_to_device(cr, &dx, &dy)
        cairo_identity_matrix(cr)
        let s = cache.scale
        cairo_rectangle(cr, dx.rounded(), dy.rounded(), (dx + size.width * s).rounded() - dx.rounded(), (dy + size.height * s).rounded() - dy.rounded())
        cairo_clip(cr)
        return (dx, dy, frameClip.flatMap { Self.trust($0, view: (dx, dy, dx + size.width * s, dy + size.height * s), scale: s) })
    }

    /// Whether the world's top or bottom edge lies inside `camera`'s view, which the background
    /// shows past (a north-up frame).
    private func showsPastTheWorld(_ camera: MapCamera) -> Bool {
        camera.screenPoint(ofWorld: WorldPoint(x: 0, y: 0)).y > 0
            || camera.screenPoint(ofWorld: WorldPoint(x: 0, y: WebMercator.tileSize)).y < camera.size.height
    }

    /// Draws `coverage` (tiles of `camera`, unrotated) through `comp`, stand-ins where a tile is
    /// missing, over the background where anything will not be covered; returns how many
    /// tiles were drawn exactly.
    /// `bearing` is the map's, which picks the tiles' keys (`camera` may be the unturned box).
    private func drawTiles(_ coverage: [TileCoverage], of camera: MapCamera, bearing: Double, found: [TileKey: RasterImage],
                           with comp: TileCompositor, copied: Set<TileKey> = []) -> Int {
        let pixelSize = tilePixelSize(for: camera)
        let allFound = coverage.allSatisfy { found[tileKey($0, pixelSize, bearing: bearing)] != nil }
        let background = showsPastTheWorld(camera) || !allFound
        // Tiles already in the frame, unless the background is about to cover them.
        let copied = background ? [] : copied
        if background {
            // Only when something will not be covered: a full-screen fill costs as much as the blit.
            let bg = cache.rasterizer.background(zoom: camera.zoom)
            comp.pixels?.markDirty()
            cairo_set_source_rgb(comp.cr, bg.r, bg.g, bg.b)
            if allFound, let bands = comp.uncovered(by: coverage) {
                // Every tile is copied over its own pixels: only the rest needs the background
                // (the world view's bands past the poles; a full paint doubled its bytes).
                for b in bands { cairo_rectangle(comp.cr, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0) }
                cairo_fill(comp.cr)
            } else {
                cairo_paint(comp.cr)
            }
        }
        var exact = 0
        for c in coverage {
            let key = tileKey(c, pixelSize, bearing: bearing)
            if copied.contains(key) {
                exact += 1   // already in the frame (`drawSynchronously`)
            } else if let image = found[key] {
                comp.draw(image, origin: c.origin, size: c.size)
                exact += 1
            } else {
                drawStandIn(for: c, with: comp)
            }
        }
        return exact
    }

    /// A rotated frame: the tiles meeting the turned view are composited unrotated, exactly as
    /// for a north-up frame (plain copies at a crisp zoom, stand-ins included), into an
    /// offscreen buffer the size of the box around the view; cairo then draws that buffer
    /// once, turned about the view's centre, into `cr` (already clipped to the view): nearest
    /// pixel while moving, bilinear when settled. No seams between tiles, which per-tile
    /// turned rectangles leave along every edge. It is the slow part of a rotated frame:
    /// pixman has no fast path for a turned source (docs/MAP-ENGINE.md, "Rotation").
    private func drawTurned(_ coverage: [TileCoverage], of camera: MapCamera, found: [TileKey: RasterImage],
                            into cr: OpaquePointer, deviceOrigin: (x: Double, y: Double), moving: Bool) -> Int {
        let s = cache.scale
        let extent = camera.worldExtent
        // Two spare device px on every side, so bilinear sampling at the box's edge reads map.
        let width = Int((extent.width * camera.worldScale * s).rounded(.up)) + 4
        let height = Int((extent.height * camera.worldScale * s).rounded(.up)) + 4
        var flat = camera
        flat.verticalBounds = .centerLatitude
        flat.bearing = 0
        flat.size = ViewSize(width: Double(width) / s, height: Double(height) / s)
        flat.center = camera.center
        let wanted = Set(coverage.map { TilePlace(column: $0.unwrappedX, row: $0.y) })
        let placed = flat.visibleTiles(tileZoom: Self.tileZoom(for: camera)).filter { wanted.contains(TilePlace(column: $0.unwrappedX, row: $0.y)) }
        let diagonal = (camera.size.width * camera.size.width + camera.size.height * camera.size.height).squareRoot()
        guard let buffer = turned.take(width: width, height: height, side: Int((diagonal * s).rounded(.up)) + 4),
              let bcr = cairo_create(buffer.surface) else { return 0 }
        defer { turned.give(buffer) }
        cairo_rectangle(bcr, 0, 0, Double(width), Double(height))
        cairo_clip(bcr)
        let comp = TileCompositor(cr: bcr, scale: s, deviceOrigin: (0, 0), moving: moving, pixels: framePixels(bcr))
        let exact = drawTiles(placed, of: flat, bearing: camera.bearing, found: found, with: comp)
        finish(comp.pixels)
        cairo_destroy(bcr)
        cairo_surface_flush(buffer.surface)

        let pattern = cairo_pattern_create_for_surface(buffer.surface)
        var m = cairo_matrix_t()
        // Device (view) -> buffer: move the view's centre to the origin, turn by the bearing
        // (the inverse of the map's counter-clockwise turn on screen), then to the buffer's centre.
        cairo_matrix_init_translate(&m, Double(width) / 2, Double(height) / 2)
        cairo_matrix_rotate(&m, camera.bearing * Double.pi / 180)
        cairo_matrix_translate(&m, -(deviceOrigin.x + camera.size.width * s / 2), -(deviceOrigin.y + camera.size.height * s / 2))
        cairo_pattern_set_matrix(pattern, &m)
        cairo_pattern_set_filter(pattern, moving ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_pattern_destroy(pattern)
        return exact
    }

    /// A moving frame at a bearing from the kept turned frame: while a pan keeps the bearing,
    /// zoom and view size, the turned map only translates, so the frame turned once for the
    /// view plus `turnedFrameMargin` (`margin`) is copied at a whole-pixel offset, a plain copy
    /// like a north-up pan. The kept frame is turned again when the view has moved past its
    /// margin, the bearing, zoom, size or tile size change, or any tile it shows is not the
    /// same raster any more. Kept only when every tile of the margin is cached (no stand-ins),
    /// so a tile landing cannot change it. Nil when it cannot be used (the caller turns this
    /// frame alone); otherwise the number of exact tiles (all of them).
    private func drawTurnedFromCache(_ coverage: [TileCoverage], of camera: MapCamera, margin: MapCamera, found: [TileKey: RasterImage],
                                     into cr: OpaquePointer, deviceOrigin: (x: Double, y: Double)) -> Int? {
        let s = cache.scale
        let pixelSize = tilePixelSize(for: camera)
        let m = Double(Self.turnedFrameMargin)
        let key = TurnedFrameKey(bearing: camera.bearing, zoom: camera.zoom, width: camera.size.width, height: camera.size.height,
                                 pixelSize: pixelSize)
        var kept = turnedFrame.take(key)
        if let k = kept {
            // Where the kept frame's centre appears now, relative to the view's centre.
            let p = camera.screenPoint(ofWorld: k.center)
            let offX = (p.x - camera.size.width / 2) * s, offY = (p.y - camera.size.height / 2) * s
            // A tile it showed that is cached as another raster now: turn again.
            let same = k.tiles.allSatisfy { tile, id in found[tile].map { ObjectIdentifier($0) == id } ?? true }
            if !(abs(offX) <= m && abs(offY) <= m && same) { kept = nil }
        }
        if kept == nil {
            // Kept only when complete: stand-ins in it would stay after their tiles land.
            var used: [TileKey: ObjectIdentifier] = [:]
            for tile in tiles(for: margin) {
                guard let image = found[tile] else { return nil }
                used[tile] = ObjectIdentifier(image)
            }
            let width = Int((camera.size.width * s).rounded(.up)) + 2 * Self.turnedFrameMargin
            let height = Int((camera.size.height * s).rounded(.up)) + 2 * Self.turnedFrameMargin
            guard let image = RasterImage(width: width, height: height, opaque: true, cleared: false),
                  let fcr = cairo_create(image.surface) else { return nil }
            cairo_rectangle(fcr, 0, 0, Double(width), Double(height))
            cairo_clip(fcr)
            // The margin view's centre on the kept frame's device pixels is the view's centre
            // moved by the margin, so an offset of zero puts it back exactly over the view.
            let bigCoverage = margin.visibleTiles(tileZoom: Self.tileZoom(for: margin))
            _ = drawTurned(bigCoverage, of: margin, found: found, into: fcr, deviceOrigin: (0, 0), moving: true)
            cairo_destroy(fcr)
            cairo_surface_flush(image.surface)
            kept = TurnedFrame(key: key, center: camera.center, tiles: used, image: image)
            turnedFrame.countTurn()
        }
        guard let frame = kept else { return nil }
        defer { turnedFrame.give(frame) }
        let p = camera.screenPoint(ofWorld: frame.center)
        let x = (deviceOrigin.x + p.x * s - camera.size.width * s / 2).rounded() - m
        let y = (deviceOrigin.y + p.y * s - camera.size.height * s / 2).rounded() - m
        if let pixels = framePixels(cr), pixels.copy(frame.image, x: x, y: y) {
            // A plain copy straight into the frame, as cairo's paint of it ends in.
            finish(pixels)
        } else {
            cairo_set_source_surface(cr, frame.image.surface, x, y)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_paint(cr)
        }
        return coverage.count(where: { found[tileKey($0, pixelSize, bearing: camera.bearing)] != nil })
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

/// A grid cell on one world copy, to match a turned view's tiles with the unrotated box's.
struct TilePlace: Hashable {
    var column: Int
    var row: Int
}

/// The offscreen buffer of rotated frames, kept between frames: the box around a turning view
/// changes size every frame, and a fresh 20 MB buffer a frame would cost more than the frame.
/// It is made as large as the box can get (the view's diagonal, square), so one buffer serves
/// every bearing; a frame uses its top-left `width` × `height`.
final class RotationBuffer: Sendable {
    private let image = Mutex<RasterImage?>(nil)

    /// A buffer of at least `width` × `height` px, for a view whose box is at most `side` px.
    func take(width: Int, height: Int, side: Int) -> RasterImage? {
        let kept = image.withLock { kept -> RasterImage? in
            defer { kept = nil }
            return kept
        }
        if let kept, kept.width >= width, kept.height >= height, kept.width <= 2 * side { return kept }
        return RasterImage(width: max(side, width), height: max(side, height), opaque: true, cleared: false)
    }

    func give(_ buffer: RasterImage) { image.withLock { $0 = buffer } }
}

/// A count kept across frames (a struct's copies share it), for tests.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ n: Int) { count.withLock { $0 += n } }
}

/// What a kept turned frame was drawn from: equal keys give the same turned map.
struct TurnedFrameKey: Equatable {
    var bearing: Double
    var zoom: Double
    var width: Double
    var height: Double
    var pixelSize: Int
}

/// A turned frame of the view plus the margin, centred on `center` (world units).
struct TurnedFrame: @unchecked Sendable {
    // Sendable: the image is drawn once, then only read on the UI thread.
    var key: TurnedFrameKey
    var center: WorldPoint
    /// The rasters it was turned from.
    var tiles: [TileKey: ObjectIdentifier]
    var image: RasterImage
}

/// The one kept turned frame of moving rotated frames (see `MapRenderer.drawTurnedFromCache`).
/// It holds its image only while the bearing is not 0; the north-up path never touches it.
final class TurnedFrameCache: Sendable {
    private let frame = Mutex<TurnedFrame?>(nil)
    private let turnCount = Mutex(0)

    /// How many times a kept frame was turned (for tests: a pan within the margin turns once).
    var turns: Int { turnCount.withLock { $0 } }

    func countTurn() { turnCount.withLock { $0 += 1 } }

    /// The kept frame when it was drawn for `key` (the caller checks the offset); else nil,
    /// and the old frame is dropped.
    func take(_ key: TurnedFrameKey) -> TurnedFrame? {
        frame.withLock { kept -> TurnedFrame? in
            defer { kept = nil }
            return kept?.key == key ? kept : nil
        }
    }

    func give(_ kept: TurnedFrame) { frame.withLock { $0 = kept } }
}

/// A settled frame's tile copies made by the threads that draw the tiles
/// (`MapRenderer.drawSynchronously`): each tile, once drawn, is copied at every place the frame
/// shows it, as `TileCompositor.draw` would copy it; the tiles copied so are left out of the
/// frame's compositing. Tiles do not overlap, so the threads' copies never meet.
final class EarlyTileCopies: Sendable {
    private let writer: FramePixels.Writer
    private let scale: Double
    private let deviceOrigin: (x: Double, y: Double)
    private let places: [TileKey: [(origin: ScreenPoint, size: Double)]]
    /// The tiles copied at all their places.
    private let copied = Mutex<Set<TileKey>>([])

    init(writer: FramePixels.Writer, scale: Double, deviceOrigin: (x: Double, y: Double),
         places: [TileKey: [(origin: ScreenPoint, size: Double)]]) {
        self.writer = writer
        self.scale = scale
        self.deviceOrigin = deviceOrigin
        self.places = places
    }

    /// Called on a drawing thread with a tile it has just drawn.
    @Sendable func copy(_ key: TileKey, _ image: RasterImage) {
        guard let at = places[key] else { return }
        for p in at {
            guard let place = TileCompositor.copyPlace(image, origin: p.origin, size: p.size, scale: scale, deviceOrigin: deviceOrigin),
                  writer.copy(image, x: place.x, y: place.y) != nil else { return }   // left to the compositing
        }
        copied.withLock { _ = $0.insert(key) }
    }

    /// The tiles copied, once every thread is done.
    var done: Set<TileKey> { copied.withLock { $0 } }
}
