import CCairo
import Foundation
import Geo
import Style
import Synchronization

/// A label on screen, as the state dump reports it (contracts.md §3.1 `map.labels`): view
/// coordinates (logical px from the map view's top-left corner).
public struct MapLabel: Sendable, Equatable {
    public struct Glyph: Sendable, Equatable {
        /// The glyph's centre on its line, and its direction in degrees clockwise.
        public var x: Double
        public var y: Double
        public var angle: Double
    }
    public var text: String
    public var layer: String
    public var anchor: ScreenPoint
    /// Degrees, 0 = horizontal; for text along a line the mean glyph angle.
    public var angle: Double
    /// Axis-aligned around the drawn text (without halo or padding).
    public var box: (x: Double, y: Double, width: Double, height: Double)
    /// What the label keeps others out of (its padding included): the box for a point label,
    /// a square per glyph for text along a line.
    public var collisionBoxes: [(x: Double, y: Double, width: Double, height: Double)]
    /// Text along a line: each glyph's centre and direction; empty for point labels.
    public var glyphs: [Glyph]
    /// The sprite icon drawn with the label, or alone (`Icon.alone`).
    public var icon: Icon? = nil

    public struct Icon: Sendable, Equatable {
        /// The `icon-image` name.
        public var image: String
        /// Axis-aligned around the drawn (turned) image, and what it keeps others out of.
        public var box: (x: Double, y: Double, width: Double, height: Double)
        public var collisionBox: (x: Double, y: Double, width: Double, height: Double)
        /// Drawn without the label's text (`text-optional` let the text give way, or the symbol
        /// has none); `text` still names the feature, `box` is then the icon's.
        public var alone = false
        public static func == (a: Icon, b: Icon) -> Bool {
            a.image == b.image && a.box == b.box && a.collisionBox == b.collisionBox && a.alone == b.alone
        }
    }

    public static func == (a: MapLabel, b: MapLabel) -> Bool {
        a.text == b.text && a.layer == b.layer && a.anchor == b.anchor && a.angle == b.angle
            && a.box == b.box && a.glyphs == b.glyphs && a.collisionBoxes.count == b.collisionBoxes.count
            && zip(a.collisionBoxes, b.collisionBoxes).allSatisfy { $0 == $1 } && a.icon == b.icon
    }
}

/// The screen's labels between frames: the current placement, when to redo it, and each
/// label's glyphs drawn once into a small image.
///
/// The stability rule: a placement is kept (and only moved with the map) while the camera
/// pans with the same tiles on screen; it is redone when the view settles, when tiles with
/// new candidates land, or when the zoom changed and has settled (not during a pinch: the
/// labels then keep their size and follow their anchors). A redo places the labels of the
/// last settled placement (map still, every visible tile's candidates in) first, so what a
/// still map showed never gives way to a newcomer. Placements made while tiles are still
/// arriving or while the map moves are shown but not preferred: neither the order tiles land
/// in nor the frame times of a gesture decide which labels a settled view keeps, so the live
/// window and a headless replay of the same input settle on the same labels. The price: a
/// label placed mid-pan may give way to a more important one when the next tile comes in.
final class LabelLayer: Sendable {
    private struct State {
        var placed: [PlacedLabel] = []
        /// The identities of the last placement made with complete tiles: what a redo keeps.
        var preferred: Set<Int> = []
        /// Whether what is shown is such a settled placement (else a still, complete view
        /// places again, even at the camera the last moving frame had).
        var settled = false
        var zoom = Double.nan
        /// The bearing placed at: text and icons along lines turn with it.
        var bearing = Double.nan
        var center = WorldPoint(x: .nan, y: .nan)
        var size = ViewSize(width: 0, height: 0)
        var signature: [ObjectIdentifier] = []
        /// How the camera mapped a world step to the screen when placing: a change is a zoom
        /// or a turn of the map (a pan leaves it alone).
        var basis = (x: Double.nan, y: Double.nan)
        /// Each label's glyphs and halo, by identity (and zoom and bearing for a label along a line
        /// or one turned or translated with the map, `PlacedLabel.turnsWithMap`).
        var images: [Int: LabelImage] = [:]
        var scale = 1.0
        /// How long the last placement took (ms), for the bench.
        var lastPlacementMs = 0.0
        /// Labels fading in or out since a placement with a clock (`update(time:)`), by identity.
        var fades: [Int: Fade] = [:]
        /// Labels the last placement dropped, drawn while they fade out.
        var leaving: [PlacedLabel] = []
    }

    /// A label's opacity going from `from` to `to` over `fadeDuration` from `start` (ms).
    struct Fade {
        var start: Double
        var from: Double
        var to: Double
        func opacity(at t: Double) -> Double {
            let k = min(max((t - start) / LabelLayer.fadeDuration, 0), 1)
            return from + (to - from) * k
        }
        func done(at t: Double) -> Bool { t - start >= LabelLayer.fadeDuration }
    }
    /// How long a label takes to fade in or out after a placement (ms), as in MapLibre.
    static let fadeDuration = 300.0
    /// Monotonic ms, for the fades of the live window.
    static func clock() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }
    private let state = Mutex(State())
    static let imageCapacity = 4096
    /// Whether `draw` blits labels straight into an image surface's pixels (`FramePixels`);
    /// false: every label through cairo (the tests compare the two).
    let directCompositing: Bool

    init(directCompositing: Bool = true) {
        self.directCompositing = directCompositing
    }

    /// One label drawn: a small ARGB surface from cairo's own allocator (a few KiB each: the
    /// tiles' mmap-backed `RasterImage` would cost a mapping and its page faults per label).
    final class LabelImage: @unchecked Sendable {
        // Sendable: drawn once under the layer's lock, then only read as a source pattern.
        let surface: OpaquePointer
        let width: Double
        let height: Double
        /// The image's top-left from the anchor, in whole device px.
        let dx: Double
        let dy: Double
        /// A pattern made once: a frame only moves it (`cairo_set_source_surface` would make
        /// a new one per label per frame).
        let pattern: OpaquePointer?
        /// The same pixels as a pixman image, for blits straight into the frame (`FramePixels`).
        let pixels: OpaquePointer?
        init(surface: OpaquePointer, dx: Double, dy: Double) {
            self.surface = surface
            pattern = cairo_pattern_create_for_surface(surface)
            if let pattern { cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST) }
            let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
            width = Double(w)
            height = Double(h)
            if cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
               let data = cairo_image_surface_get_data(surface) {
                pixels = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                                  cairo_image_surface_get_stride(surface))
            } else {
                pixels = nil
            }
            self.dx = dx
            self.dy = dy
        }
        /// The rectangle (px of the image, end exclusive) outside which every pixel is clear.
        struct Ink { var x0: Int32, y0: Int32, x1: Int32, y1: Int32 }
        /// Found once the image is drawn (under the layer's lock, or by the one thread that drew it).
        private var measured: [Ink]?
        /// Rows per band of `ink()`, at most, and how many clear pixels a band may take in to
        /// save a blit (about what a blit's call costs in pixels).
        static let bandRows: Int32 = 8
        static let bandSlack: Int32 = 128

        /// Rectangles (px of the image, ends exclusive) outside which every pixel is clear: the
        /// halo's outer pixels and the padding around it, and for text along a slanted or
        /// curved street most of its box. Bands of a few rows, each as wide as its rows' ink,
        /// neighbours merged where that costs few clear pixels: blits of only these leave the
        /// same frame (OVER leaves it as it is under a clear pixel) and copy fewer pixels.
        func ink() -> [Ink] {
            if let measured { return measured }
            let w = Int32(width), h = Int32(height)
            guard let data = cairo_image_surface_get_data(surface) else {
                let whole = [Ink(x0: 0, y0: 0, x1: w, y1: h)]
                measured = whole
                return whole
            }
            let stride = Int(cairo_image_surface_get_stride(surface))
            /// Each row's first and last non-clear pixel (end exclusive), nil for a clear row.
            func span(_ y: Int32) -> (Int32, Int32)? {
                let row = UnsafeRawPointer(data + Int(y) * stride).assumingMemoryBound(to: UInt32.self)
                guard let first = (0..<Int(w)).first(where: { row[$0] != 0 }) else { return nil }
                let last = (first..<Int(w)).last(where: { row[$0] != 0 }) ?? first
                return (Int32(first), Int32(last + 1))
            }
            func area(_ r: Ink) -> Int32 { (r.x1 - r.x0) * (r.y1 - r.y0) }
            var bands: [Ink] = []
            var y: Int32 = 0
            while y < h {
                guard let s = span(y) else { y += 1; continue }
                var band = Ink(x0: s.0, y0: y, x1: s.1, y1: y + 1)
                y += 1
                while y < h, y - band.y0 < Self.bandRows, let s = span(y) {
                    band.x0 = min(band.x0, s.0)
                    band.x1 = max(band.x1, s.1)
                    band.y1 = y + 1
                    y += 1
                }
                if let last = bands.last, last.y1 == band.y0 {
                    let both = Ink(x0: min(last.x0, band.x0), y0: last.y0, x1: max(last.x1, band.x1), y1: band.y1)
                    if area(both) - area(last) - area(band) <= Self.bandSlack {
                        bands[bands.count - 1] = both
                        continue
                    }
                }
                bands.append(band)
            }
            measured = bands
            return bands
        }

        deinit {
            if let pixels { pixman_image_unref(pixels) }
            if let pattern { cairo_pattern_destroy(pattern) }
            cairo_surface_destroy(surface)
        }
    }

    /// Decides whether to place again and does so; returns whether it placed.
    @discardableResult
    /// `time` (ms, the frame's clock): labels that appear fade in and labels that go fade out
    /// from then on; nil: they appear and go at once (screenshots, tests, headless runs).
    func update(_ camera: MapCamera, sets: [(TileLabelSet, Double)], complete: Bool, moving: Bool, time: Double? = nil) -> Bool {
        let signature = sets.map { ObjectIdentifier($0.0) }
        let basis = Self.basis(camera)
        guard needs(camera, complete: complete, moving: moving, signature: signature, basis: basis) else { return false }
        return place(camera, sets: sets, complete: complete, moving: moving, signature: signature, basis: basis, time: time)
    }

    /// Whether some label is still fading (as of the last frame drawn): the map needs frames
    /// until it ends, and none after.
    var isFading: Bool { state.withLock { !$0.fades.isEmpty } }

    /// Whether `update` with these arguments would place again (the labels may then change
    /// anywhere on the map, so a frame must draw all of it).
    func needsPlacement(_ camera: MapCamera, sets: [(TileLabelSet, Double)], complete: Bool, moving: Bool) -> Bool {
        needs(camera, complete: complete, moving: moving, signature: sets.map { ObjectIdentifier($0.0) }, basis: Self.basis(camera))
    }

    private func needs(_ camera: MapCamera, complete: Bool, moving: Bool, signature: [ObjectIdentifier],
                       basis: (x: Double, y: Double)) -> Bool {
        state.withLock { s in
            if s.zoom.isNaN || s.size != camera.size { return true }
            if !moving && complete && !s.settled { return true }
            if s.zoom != camera.zoom || !Self.sameBasis(s.basis, basis) {
                // Mid-pinch, or the new zoom's tiles are still on their way: hold what is shown.
                return !moving && (complete || s.placed.isEmpty)
            }
            if signature != s.signature {
                // While the map moves, only tiles that bring new candidates matter; a tile
                // scrolling away takes its labels off screen by itself.
                if moving {
                    let old = Set(s.signature)
                    return signature.contains { !old.contains($0) }
                }
                return true
            }
            return !moving && s.center != camera.center
        }
    }

    private func place(_ camera: MapCamera, sets: [(TileLabelSet, Double)], complete: Bool, moving: Bool,
                       signature: [ObjectIdentifier], basis: (x: Double, y: Double), time: Double?) -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        // Streets too short for their names in every tile they cross, joined across the edges
        // (ends within a logical px of each other).
        var pieces: [LabelCandidate] = []
        for (set, dx) in sets where !set.pieces.isEmpty {
            if dx == 0 { pieces += set.pieces } else { pieces += set.pieces.map { $0.shifted(byWorldX: dx) } }
        }
        let joined = LabelExtraction.acrossTiles(pieces, zoom: camera.zoom, tolerance: 1 / exp2(camera.zoom))
        // Each tile's candidates where they are (a candidate is a few hundred bytes: copying
        // them all into one array was a fifth of a placement's instructions).
        var groups: [[LabelCandidate]] = []
        groups.reserveCapacity(sets.count + 1)
        for (set, dx) in sets { groups.append(dx == 0 ? set.candidates : set.candidates.map { $0.shifted(byWorldX: dx) }) }
        groups.append(joined)
        let previous = state.withLock { $0.preferred }
        var placer = LabelPlacer(camera: camera)
        let placed = placer.place(groups, previous: previous)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        state.withLock { s in
            Self.startFades(&s, from: s.placed, to: placed, at: time)
            s.placed = placed
            s.settled = complete && !moving
            if s.settled { s.preferred = Set(placed.map(\.identity)) }
            s.zoom = camera.zoom
            s.bearing = camera.bearing
            s.center = camera.center
            s.size = camera.size
            s.signature = signature
            s.basis = basis
            s.lastPlacementMs = ms
        }
        return true
    }

    /// The fades a placement starts at `time`: each label of `new` not fully shown fades in
    /// from where it is (a label fading out turns back), each label of `old` (or still fading
    /// out) that `new` lacks fades out from where it is. Without a clock, none.
    private static func startFades(_ s: inout State, from old: [PlacedLabel], to new: [PlacedLabel], at time: Double?) {
        guard let time else {
            s.fades = [:]
            s.leaving = []
            return
        }
        let fades = s.fades
        func opacity(_ id: Int, shown: Bool) -> Double { fades[id]?.opacity(at: time) ?? (shown ? 1 : 0) }
        let oldIDs = Set(old.map(\.identity))
        let newIDs = Set(new.map(\.identity))
        var next: [Int: Fade] = [:]
        for l in new {
            let id = l.identity
            if let f = fades[id], f.to == 1 { next[id] = f; continue }
            let o = opacity(id, shown: oldIDs.contains(id))
            if o < 1 { next[id] = Fade(start: time, from: o, to: 1) }
        }
        var leaving: [PlacedLabel] = []
        var seen = Set<Int>()
        for l in old + s.leaving where !newIDs.contains(l.identity) && seen.insert(l.identity).inserted {
            let id = l.identity
            if let f = fades[id], f.to == 0 {
                next[id] = f
            } else {
                let o = opacity(id, shown: oldIDs.contains(id))
                guard o > 0 else { continue }
                next[id] = Fade(start: time, from: o, to: 0)
            }
            leaving.append(l)
        }
        s.fades = next
        s.leaving = leaving
    }

    /// Whether `l`, anchored at `a` (view px), lies wholly inside the view: labels in the
    /// placement's margin, or pushed partly out by a pan, are not drawn (never a cut word).
    static func isShown(_ l: PlacedLabel, at a: ScreenPoint, in size: ViewSize) -> Bool {
        let b = l.extent
        return a.x + b.minX >= 0 && a.y + b.minY >= 0 && a.x + b.maxX <= size.width && a.y + b.maxY <= size.height
    }

    /// Where a small world step east of the centre lands on screen, from the centre.
    static func basis(_ camera: MapCamera) -> (x: Double, y: Double) {
        let a = camera.screenPoint(ofWorld: camera.center)
        let b = camera.screenPoint(ofWorld: WorldPoint(x: camera.center.x + 1.0 / 1024, y: camera.center.y))
        return (b.x - a.x, b.y - a.y)
    }

    /// Equal up to rounding (the step's screen length varies in its last bits as the centre moves).
    static func sameBasis(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
        let scale = max(abs(a.x) + abs(a.y), abs(b.x) + abs(b.y), 1e-300)
        return abs(a.x - b.x) + abs(a.y - b.y) <= scale * 1e-6
    }

    var lastPlacementMs: Double { state.withLock { $0.lastPlacementMs } }

    func reset() { state.withLock { $0 = State() } }

    /// The labels shown now, in view coordinates for `camera`.
    func labels(for camera: MapCamera) -> [MapLabel] {
        state.withLock { s in
            s.placed.compactMap { l in
                let a = camera.screenPoint(ofWorld: l.anchor)
                guard Self.isShown(l, at: a, in: camera.size) else { return nil }
                func rect(_ b: LabelBox) -> (x: Double, y: Double, width: Double, height: Double) {
                    (a.x + b.minX, a.y + b.minY, b.maxX - b.minX, b.maxY - b.minY)
                }
                let glyphs: [MapLabel.Glyph] = l.isLine ? zip(l.clusterAngles, l.collision).map { angle, c in
                    MapLabel.Glyph(x: a.x + (c.minX + c.maxX) / 2, y: a.y + (c.minY + c.maxY) / 2, angle: angle * 180 / Double.pi)
                } : []
                let icon = l.icon.map { MapLabel.Icon(image: $0.style.image, box: rect($0.box), collisionBox: rect($0.collision),
                                                      alone: l.glyphs.isEmpty) }
                return MapLabel(text: l.text, layer: l.layerID, anchor: a, angle: l.angle, box: rect(l.box),
                                collisionBoxes: l.collision.map(rect) + (l.icon.map { [rect($0.collision)] } ?? []),
                                glyphs: glyphs, icon: icon)
            }
        }
    }

    /// Draws every placed label at its anchor for `camera`. `cr` is in device px with the
    /// view's top-left at `deviceOrigin`, `scale` device px per logical px.
    /// `time` (ms) is the frame's clock for the fades (`update`); nil ends them all.
    func draw(_ camera: MapCamera, into cr: OpaquePointer, deviceOrigin: (x: Double, y: Double), scale: Double, time: Double? = nil,
              trust: FramePixels.Trust? = nil) {
        state.withLock { s in
            if let time {
                // Fades that ended by this frame are forgotten, so a still map asks for no frame.
                s.fades = s.fades.filter { !$0.value.done(at: time) }
                s.leaving.removeAll { s.fades[$0.identity] == nil }
            } else {
                s.fades = [:]
                s.leaving = []
            }
            if s.scale != scale {
                s.images.removeAll()
                s.scale = scale
            }
            let w = camera.size.width * scale, h = camera.size.height * scale
            // A label along a line is laid along the line as it lies on screen: at another zoom
            // or bearing, another image (at one bearing the old image was shown after a turn).
            let zoomKey = Int(bitPattern: UInt(s.zoom.bitPattern)) &* 31 &+ Int(bitPattern: UInt(s.bearing.bitPattern))
            Self.renderMissing(s.placed, camera: camera, scale: scale, zoomKey: zoomKey, into: &s.images)
            // Labels at full opacity go straight into the frame's pixels when it is a plain image
            // (pixman's blit, as cairo's fill makes it, without cairo's work around it per label).
            let frame = directCompositing ? FramePixels(cr, trust: trust) : nil
            defer { frame?.finish() }
            // Read in place (a `for` over the labels copied each one out, every frame).
            let shown = s.leaving.isEmpty ? s.placed : s.leaving + s.placed
            shown.withUnsafeBufferPointer { labels in
                for i in labels.indices {
                    let a = camera.screenPoint(ofWorld: labels[i].anchor)
                    guard Self.isShown(labels[i], at: a, in: camera.size) else { continue }
                    let alpha = time.flatMap { t in s.fades[labels[i].identity]?.opacity(at: t) } ?? 1
                    guard alpha > 0 else { continue }
                    let key = Self.imageKey(labels[i], zoomKey: zoomKey)
                    let image: LabelImage
                    if let hit = s.images[key] {
                        image = hit
                    } else {
                        guard let made = Self.render(labels[i], scale: scale) else { continue }
                        if s.images.count >= Self.imageCapacity { s.images.removeAll() }
                        s.images[key] = made
                        image = made
                    }
                    let x = (a.x * scale).rounded() + image.dx, y = (a.y * scale).rounded() + image.dy
                    let iw = image.width, ih = image.height
                    guard x + iw > 0, y + ih > 0, x < w, y < h else { continue }
                    if alpha >= 1, let source = image.pixels, let frame,
                       frame.over(source, ink: image.ink(), x: deviceOrigin.x + x, y: deviceOrigin.y + y) {
                        continue
                    }
                    // cairo draws next: it must see the pixels blitted so far.
                    frame?.markDirty()
                    guard let pattern = image.pattern else { continue }
                    var m = cairo_matrix_t()
                    cairo_matrix_init_translate(&m, -(deviceOrigin.x + x), -(deviceOrigin.y + y))
                    cairo_pattern_set_matrix(pattern, &m)
                    cairo_set_source(cr, pattern)
                    cairo_rectangle(cr, deviceOrigin.x + x, deviceOrigin.y + y, iw, ih)
                    if alpha < 1 {
                        // Only a fading label pays for the clip and the alpha.
                        cairo_save(cr)
                        cairo_clip(cr)
                        cairo_paint_with_alpha(cr, alpha)
                        cairo_restore(cr)
                    } else {
                        cairo_fill(cr)
                    }
                }
            }
        }
    }

    /// The key of a label's image: its identity, and for a label along a line the zoom and
    /// bearing it was placed at (`zoomKey`: its glyphs follow the road as drawn then).
    @inline(__always)
    private static func imageKey(_ l: PlacedLabel, zoomKey: Int) -> Int {
        var key = l.isLine || l.turnsWithMap ? l.identity &+ zoomKey : l.identity
        // The same label drawn with its icon alone, or its text alone, is another image.
        if l.icon != nil { key = key &* 31 &+ (l.glyphs.isEmpty ? 1 : 2) }
        return key
    }

    /// Fewer labels to draw than this are drawn on the calling thread as `draw` meets them.
    static let parallelRenderMinimum = 4

    /// Draws the images of the shown labels that have none yet on all cores: a new view (a
    /// cold frame, a zoom that settled) needs most of its labels drawn, each a handful of
    /// pixman passes, and drawn one after another on the frame's thread they were about a
    /// fifth of a cold continent frame while the tile workers sat idle. The images are the
    /// same as drawn one by one (`render` depends on nothing but the label and the scale).
    private static func renderMissing(_ placed: [PlacedLabel], camera: MapCamera, scale: Double, zoomKey: Int,
                                      into images: inout [Int: LabelImage]) {
        var missing: [(key: Int, label: PlacedLabel)] = []
        var keys = Set<Int>()
        for l in placed {
            let key = imageKey(l, zoomKey: zoomKey)
            guard images[key] == nil, isShown(l, at: camera.screenPoint(ofWorld: l.anchor), in: camera.size),
                  keys.insert(key).inserted else { continue }
            missing.append((key, l))
        }
        guard missing.count >= parallelRenderMinimum else { return }
        let made = Mutex<[Int: LabelImage]>([:])
        let todo = missing
        DispatchQueue.concurrentPerform(iterations: todo.count) { i in
            if let image = render(todo[i].label, scale: scale) {
                _ = image.ink()
                made.withLock { $0[todo[i].key] = image }
            }
        }
        if images.count + missing.count > imageCapacity { images.removeAll() }
        images.merge(made.withLock { $0 }) { _, new in new }
    }

    /// Whether `render` paints a halo's eight passes through pixman directly rather than
    /// `cairo_mask_surface` (the same pixman operation, without cairo's pattern and compositor
    /// set-up each time; the tests compare the two).
    nonisolated(unsafe) static var haloStraightIntoPixels = true

    /// The halo's passes: `color` through `mask` (A8, the label image's size) at each whole-pixel
    /// offset, OVER `surface` (ARGB32), as `cairo_mask_surface` with that colour as the source
    /// makes them (cairo hands pixman the colour premultiplied in 16 bits, each channel times
    /// 65536 − 1e-5, truncated). False, and nothing drawn, when pixman cannot be given the images.
    static func haloThroughPixman(_ color: StyleColor, mask: OpaquePointer, offsets: [(Double, Double)],
                                  into surface: OpaquePointer) -> Bool {
        cairo_surface_flush(surface)
        cairo_surface_flush(mask)
        let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
        guard let dstBytes = cairo_image_surface_get_data(surface), let maskBytes = cairo_image_surface_get_data(mask),
              cairo_image_surface_get_width(mask) == w, cairo_image_surface_get_height(mask) == h,
              let dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, UnsafeMutableRawPointer(dstBytes).assumingMemoryBound(to: UInt32.self),
                                                 cairo_image_surface_get_stride(surface))
        else { return false }
        defer { pixman_image_unref(dst) }
        guard let m = pixman_image_create_bits(PIXMAN_a8, w, h, UnsafeMutableRawPointer(maskBytes).assumingMemoryBound(to: UInt32.self),
                                               cairo_image_surface_get_stride(mask))
        else { return false }
        defer { pixman_image_unref(m) }
        func short(_ v: Double) -> UInt16 { UInt16(min(max(v, 0), 1) * (65536.0 - 1e-5)) }
        let a = min(max(color.a, 0), 1)
        var c = pixman_color_t(red: short(min(max(color.r, 0), 1) * a), green: short(min(max(color.g, 0), 1) * a),
                               blue: short(min(max(color.b, 0), 1) * a), alpha: short(a))
        guard let solid = pixman_image_create_solid_fill(&c) else { return false }
        defer { pixman_image_unref(solid) }
        for (ox, oy) in offsets {
            let dx = Int32(ox), dy = Int32(oy)
            let x0 = max(dx, 0), y0 = max(dy, 0), x1 = min(dx + w, w), y1 = min(dy + h, h)
            guard x1 > x0, y1 > y0 else { continue }
            pixman_image_composite32(PIXMAN_OP_OVER, solid, m, dst, 0, 0, x0 - dx, y0 - dy, x0, y0, x1 - x0, y1 - y0)
        }
        cairo_surface_mark_dirty(surface)
        return true
    }

    /// The label's glyphs with their halo, drawn once at `scale` into an image just big enough.
    ///
    /// The glyphs go into an alpha mask first (point labels through cairo's cached glyph
    /// masks, text along a line as outlines filled glyph by glyph, each turned to its angle);
    /// the halo is that mask painted in the halo colour at eight offsets of the halo width,
    /// under the text. Stroking the glyph outlines instead cost about 0.4 ms a label.
    static func render(_ l: PlacedLabel, scale: Double) -> LabelImage? {
        let st = l.style
        let hasText = !l.glyphs.isEmpty
        let halo = hasText && st.haloWidth > 0 && st.haloColor.a > 0 ? st.haloWidth + st.haloBlur : 0
        let pad = halo + 2
        let extent = l.extent
        let x0 = ((extent.minX - pad) * scale).rounded(.down), y0 = ((extent.minY - pad) * scale).rounded(.down)
        let x1 = ((extent.maxX + pad) * scale).rounded(.up), y1 = ((extent.maxY + pad) * scale).rounded(.up)
        let w = Int32(x1 - x0), h = Int32(y1 - y0)
        guard w >= 1, h >= 1, w < 4096, h < 4096 else { return nil }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else { return nil }
        let image = LabelImage(surface: surface, dx: x0, dy: y0)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        if let icon = l.icon { drawIcon(icon, into: cr, origin: (x0 - icon.shift.x * scale, y0 - icon.shift.y * scale), scale: scale) }
        if hasText {
            guard let font = LabelFonts.shared.font(st, size: st.size), let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h)
            else { return nil }
            defer {
                cairo_surface_destroy(mask)
                cairo_scaled_font_destroy(font)
            }
            guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS, let mcr = cairo_create(mask) else { return nil }
            cairo_translate(mcr, -x0, -y0)
            cairo_scale(mcr, scale, scale)
            // `text-translate`, then a point label's turn about its anchor.
            cairo_translate(mcr, l.textShift.x, l.textShift.y)
            if l.textTurn != 0 { cairo_rotate(mcr, l.textTurn) }
            cairo_set_scaled_font(mcr, font)
            // Glyphs from the style's fallback fonts (other scripts), made as they come.
            var others: [Int: OpaquePointer] = [:]
            defer { for f in others.values { cairo_scaled_font_destroy(f) } }
            var current = 0
            func use(_ slot: Int) {
                guard slot != current else { return }
                current = slot
                if slot == 0 { cairo_set_scaled_font(mcr, font); return }
                if others[slot] == nil, let f = LabelFonts.shared.font(st, size: st.size, slot: slot) { others[slot] = f }
                cairo_set_scaled_font(mcr, others[slot] ?? font)
            }
            if l.isLine {
                var glyph = cairo_glyph_t()
                for g in l.glyphs {
                    use(g.font)
                    cairo_save(mcr)
                    cairo_translate(mcr, g.x, g.y)
                    cairo_rotate(mcr, g.angle)
                    glyph.index = UInt(g.index)
                    glyph.x = 0
                    glyph.y = 0
                    cairo_glyph_path(mcr, &glyph, 1)
                    cairo_restore(mcr)
                }
                cairo_fill(mcr)
            } else {
                // One call per stretch of glyphs from one font.
                var start = 0
                while start < l.glyphs.count {
                    let slot = l.glyphs[start].font
                    var end = start
                    while end < l.glyphs.count && l.glyphs[end].font == slot { end += 1 }
                    use(slot)
                    var glyphs = l.glyphs[start..<end].map { cairo_glyph_t(index: UInt($0.index), x: $0.x, y: $0.y) }
                    cairo_show_glyphs(mcr, &glyphs, Int32(glyphs.count))
                    start = end
                }
            }
            cairo_destroy(mcr)
            cairo_surface_flush(mask)
            if halo > 0 {
                // The mask shown at eight whole-pixel offsets around the text: pixman's solid-through-
                // A8 path, a few microseconds each (growing the mask in Swift took 10 ms a screen).
                let r = max((halo * scale).rounded(), 1), d = max((halo * scale * 0.7).rounded(), 1)
                let offsets = [(r, 0), (-r, 0), (0, r), (0, -r), (d, d), (-d, d), (d, -d), (-d, -d)]
                if !(haloStraightIntoPixels && haloThroughPixman(st.haloColor, mask: mask, offsets: offsets, into: surface)) {
                    cairo_set_source_rgba(cr, st.haloColor.r, st.haloColor.g, st.haloColor.b, st.haloColor.a)
                    for (ox, oy) in offsets { cairo_mask_surface(cr, mask, ox, oy) }
                }
            }
            cairo_set_source_rgba(cr, st.color.r, st.color.g, st.color.b, st.color.a)
            cairo_mask_surface(cr, mask, 0, 0)
        }
        cairo_surface_flush(surface)
        return image
    }

    /// The icon's image cut from its sprite sheet (the 2x sheet on a 2x screen), scaled to
    /// its placed size and turned about the anchor, under the text. `origin` is where the
    /// label image's top-left lies from the anchor, in device px.
    static func drawIcon(_ icon: PlacedIcon, into cr: OpaquePointer, origin: (Double, Double), scale: Double) {
        guard let sprite = icon.style.sprite, let sheet = sprite.sheet(forScale: scale), let cut = sheet.images[icon.style.image],
              let source = SpriteSheets.shared.surface(sheet.png) else { return }
        defer { cairo_surface_destroy(source) }
        let r = icon.rect
        /// The current rectangle painted with the source at the icon's opacity.
        func paintRectangle() {
            if icon.style.opacity < 1 {
                cairo_clip(cr)
                cairo_paint_with_alpha(cr, icon.style.opacity)
            } else {
                // Filled, not clipped: no clip mask for a fractional box.
                cairo_fill(cr)
            }
        }
        if cut.sdf {
            drawDistanceField(icon, cut: cut, sheet: sheet.png, into: cr, origin: origin, scale: scale)
            return
        }
        if icon.fitted {
            drawStretched(icon, cut: cut, sheet: source, into: cr, origin: origin, scale: scale)
            return
        }
        if icon.style.rotate.truncatingRemainder(dividingBy: 360) == 0 {
            // Unturned: the image scaled once to its device size and kept, copied here to whole
            // device px (a scaled copy per label image was most of the icons' cost).
            let w = Int(((r.maxX - r.minX) * scale).rounded()), h = Int(((r.maxY - r.minY) * scale).rounded())
            guard let image = SpriteSheets.shared.cut(sheet.png, cut, width: w, height: h) else { return }
            defer { cairo_surface_destroy(image) }
            let x = (r.minX * scale - origin.0).rounded(), y = (r.minY * scale - origin.1).rounded()
            cairo_save(cr)
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, image, x, y)
            cairo_rectangle(cr, x, y, Double(w), Double(h))
            paintRectangle()
            cairo_restore(cr)
            return
        }
        cairo_save(cr)
        cairo_translate(cr, -origin.0, -origin.1)
        cairo_scale(cr, scale, scale)
        cairo_rotate(cr, icon.style.rotate * Double.pi / 180)
        cairo_rectangle(cr, r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY)
        // Sheet px to logical px: the cut's own size onto the placed rectangle.
        cairo_translate(cr, r.minX, r.minY)
        cairo_scale(cr, (r.maxX - r.minX) / Double(cut.width), (r.maxY - r.minY) / Double(cut.height))
        cairo_set_source_surface(cr, source, -Double(cut.x), -Double(cut.y))
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        paintRectangle()
        cairo_restore(cr)
    }

    /// An icon fitted to its text, in pieces cut at its stretch spans' ends: each fixed piece
    /// at its own size, each stretch span scaled to its share of the fitted rectangle (the
    /// sheet's own spans, so a 2x sheet is cut at its own px). Unturned, the pieces' edges lie
    /// on whole device px and are filled without antialiasing, so they meet without seams.
    static func drawStretched(_ icon: PlacedIcon, cut: Sprite.Image, sheet: OpaquePointer, into cr: OpaquePointer,
                              origin: (Double, Double), scale: Double) {
        let r = icon.rect
        /// Piece edges along one axis: sheet px from the image's start, logical px from the anchor.
        func stops(vertical: Bool, from: Double, to: Double) -> [(sheet: Double, at: Double)] {
            let spans = cut.stretchSpans(vertical: vertical), length = vertical ? cut.height : cut.width
            var edges = [0.0, Double(length)]
            for s in spans { edges += [s.from, s.to] }
            edges = Array(Set(edges)).sorted()
            func stretch(_ x: Double) -> Double { Sprite.Image.stretchable(spans, before: x) }
            let total = stretch(Double(length)), fixed = Double(length) - total
            let k = total > 0 ? max((to - from - fixed / cut.pixelRatio) / total, 0) : 0
            return edges.map { ($0, from + ($0 - stretch($0)) / cut.pixelRatio + stretch($0) * k) }
        }
        let xs = stops(vertical: false, from: r.minX, to: r.maxX)
        let ys = stops(vertical: true, from: r.minY, to: r.maxY)
        let unturned = icon.style.rotate.truncatingRemainder(dividingBy: 360) == 0
        cairo_save(cr)
        /// A logical coordinate in the space the pieces are drawn in.
        var place: (Double, Double) -> Double = { v, _ in v }
        if unturned {
            cairo_identity_matrix(cr)
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
            place = { v, o in (v * scale - o).rounded() }
        } else {
            cairo_translate(cr, -origin.0, -origin.1)
            cairo_scale(cr, scale, scale)
            cairo_rotate(cr, icon.style.rotate * Double.pi / 180)
        }
        for j in 0..<(ys.count - 1) {
            let y0 = place(ys[j].at, origin.1), y1 = place(ys[j + 1].at, origin.1)
            let sy0 = ys[j].sheet, sy1 = ys[j + 1].sheet
            guard y1 > y0, sy1 > sy0 else { continue }
            for i in 0..<(xs.count - 1) {
                let x0 = place(xs[i].at, origin.0), x1 = place(xs[i + 1].at, origin.0)
                let sx0 = xs[i].sheet, sx1 = xs[i + 1].sheet
                // The piece alone, padded at its edges: smoothing never reads its neighbours' px.
                guard x1 > x0, sx1 > sx0,
                      let piece = cairo_surface_create_for_rectangle(sheet, Double(cut.x) + sx0, Double(cut.y) + sy0, sx1 - sx0, sy1 - sy0)
                else { continue }
                defer { cairo_surface_destroy(piece) }
                guard let p = cairo_pattern_create_for_surface(piece) else { continue }
                // Drawn space -> the piece's px.
                let kx = (sx1 - sx0) / (x1 - x0), ky = (sy1 - sy0) / (y1 - y0)
                var m = cairo_matrix_t(xx: kx, yx: 0, xy: 0, yy: ky, x0: -x0 * kx, y0: -y0 * ky)
                cairo_pattern_set_matrix(p, &m)
                cairo_pattern_set_filter(p, CAIRO_FILTER_BILINEAR)
                cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD)
                cairo_set_source(cr, p)
                cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
                if icon.style.opacity < 1 {
                    cairo_save(cr)
                    cairo_clip(cr)
                    cairo_paint_with_alpha(cr, icon.style.opacity)
                    cairo_restore(cr)
                } else {
                    cairo_fill(cr)
                }
                cairo_pattern_destroy(p)
            }
        }
        cairo_restore(cr)
    }

    /// A distance-field image (`"sdf": true` in the sprite index) drawn as MapLibre's SDF
    /// shader does: the image's alpha, scaled to the icon's device size, is a distance (0.75
    /// on the shape's edge, 1/8 less per sheet px outwards); the shape is where it passes
    /// 0.75, smoothed over about 0.84 device px, painted in `icon-color`. A halo is the same
    /// distance thresholded `icon-halo-width` further out (and softened by `icon-halo-blur`),
    /// painted in `icon-halo-color` under it. Both at `icon-opacity`.
    static func drawDistanceField(_ icon: PlacedIcon, cut: Sprite.Image, sheet: String, into cr: OpaquePointer,
                                  origin: (Double, Double), scale: Double) {
        let st = icon.style
        let r = icon.rect
        let w = Int(((r.maxX - r.minX) * scale).rounded()), h = Int(((r.maxY - r.minY) * scale).rounded())
        guard st.size > 0, let field = SpriteSheets.shared.cut(sheet, cut, width: w, height: h) else { return }
        defer { cairo_surface_destroy(field) }
        cairo_surface_flush(field)
        guard let src = cairo_image_surface_get_data(field) else { return }
        let srcStride = Int(cairo_image_surface_get_stride(field))
        // Smoothed over ±0.84 device px, in distance units (1/8 per sheet px).
        let sheetPxPerDevicePx = cut.pixelRatio / (scale * st.size)
        let gamma = 0.84 * sheetPxPerDevicePx / 8
        /// An A8 mask of where the distance passes `edge`, smoothed by ±`soft`.
        func mask(edge: Double, soft: Double) -> OpaquePointer? {
            guard let m = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h)) else { return nil }
            guard cairo_surface_status(m) == CAIRO_STATUS_SUCCESS, let dst = cairo_image_surface_get_data(m) else {
                cairo_surface_destroy(m)
                return nil
            }
            cairo_surface_flush(m)
            let dstStride = Int(cairo_image_surface_get_stride(m))
            let lo = edge - soft, span = max(2 * soft, 1e-6)
            for y in 0..<h {
                let row = UnsafeRawPointer(src + y * srcStride).assumingMemoryBound(to: UInt32.self)
                let out = dst + y * dstStride
                for x in 0..<w {
                    let d = Double(row[x] >> 24) / 255
                    let t = min(max((d - lo) / span, 0), 1)
                    out[x] = UInt8((t * t * (3 - 2 * t) * 255).rounded())
                }
            }
            cairo_surface_mark_dirty(m)
            return m
        }
        var passes: [(StyleColor, OpaquePointer)] = []
        defer { for p in passes { cairo_surface_destroy(p.1) } }
        if st.haloWidth > 0, st.haloColor.a > 0 {
            // Halo width and blur in sheet px: logical px times the sheet's px per logical px.
            let perPx = cut.pixelRatio / st.size / 8
            let edge = 0.75 - st.haloWidth * perPx
            if let m = mask(edge: edge, soft: st.haloBlur * 1.19 * perPx + gamma) { passes.append((st.haloColor, m)) }
        }
        if st.color.a > 0, let m = mask(edge: 0.75, soft: gamma) { passes.append((st.color, m)) }
        cairo_save(cr)
        let unturned = st.rotate.truncatingRemainder(dividingBy: 360) == 0
        var x = 0.0, y = 0.0
        if unturned {
            // On whole device px, as the ordinary unturned icons are.
            cairo_identity_matrix(cr)
            x = (r.minX * scale - origin.0).rounded()
            y = (r.minY * scale - origin.1).rounded()
        } else {
            cairo_translate(cr, -origin.0, -origin.1)
            cairo_scale(cr, scale, scale)
            cairo_rotate(cr, st.rotate * Double.pi / 180)
            cairo_translate(cr, r.minX, r.minY)
            cairo_scale(cr, (r.maxX - r.minX) / Double(w), (r.maxY - r.minY) / Double(h))
        }
        for (c, m) in passes {
            cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a * st.opacity)
            let p = cairo_pattern_create_for_surface(m)
            var matrix = cairo_matrix_t()
            cairo_matrix_init_translate(&matrix, -x, -y)
            cairo_pattern_set_matrix(p, &matrix)
            cairo_pattern_set_filter(p, CAIRO_FILTER_BILINEAR)
            cairo_mask(cr, p)
            cairo_pattern_destroy(p)
        }
        cairo_restore(cr)
    }
}

/// Sprite sheet images, loaded once per PNG path through cairo and shared by every thread
/// (an image surface is only read once made). A sheet that cannot be read is said once on
/// stderr and left out: its icons are not drawn.
final class SpriteSheets: Sendable {
    static let shared = SpriteSheets()
    /// Surfaces by path (nil: could not be read), each holding one reference.
    private let sheets = Mutex<[String: UInt?]>([:])

    /// The sheet at `path` with a reference of its own (the caller destroys it), or nil.
    func surface(_ path: String) -> OpaquePointer? {
        sheets.withLock { table -> OpaquePointer? in
            if let hit = table[path] {
                guard let hit else { return nil }
                return cairo_surface_reference(OpaquePointer(bitPattern: hit))
            }
            guard let s = cairo_image_surface_create_from_png(path) else { table[path] = .some(nil); return nil }
            guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
                let why = String(cString: cairo_status_to_string(cairo_surface_status(s)))
                cairo_surface_destroy(s)
                FileHandle.standardError.write(Data("meridian: sprite \(path): \(why); its icons are left out\n".utf8))
                table[path] = .some(nil)
                return nil
            }
            table[path] = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(s)))
            return cairo_surface_reference(s)
        }
    }

    /// Images cut out of their sheets for patterns, by sheet and rectangle.
    private let cuts = Mutex<[String: UInt]>([:])

    /// `cut` of the sheet at `path` as a repeating pattern (the caller destroys it), or nil.
    func pattern(_ path: String, _ cut: Sprite.Image) -> OpaquePointer? {
        let image = self.cut(path, cut, width: cut.width, height: cut.height)
        guard let image else { return nil }
        defer { cairo_surface_destroy(image) }
        guard let p = cairo_pattern_create_for_surface(image) else { return nil }
        cairo_pattern_set_extend(p, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(p, CAIRO_FILTER_GOOD)
        return p
    }

    /// `cut` of the sheet at `path` scaled to `width` x `height` px, made once and kept (the
    /// caller destroys the reference it gets), or nil.
    func cut(_ path: String, _ cut: Sprite.Image, width: Int, height: Int) -> OpaquePointer? {
        guard width > 0, height > 0, width < 4096, height < 4096 else { return nil }
        let key = "\(path)#\(cut.x),\(cut.y),\(cut.width),\(cut.height)@\(width)x\(height)"
        // Held as integers under the lock (cairo's pointers are not `Sendable`).
        var held = cuts.withLock { table -> UInt? in
            guard let hit = table[key] else { return nil }
            cairo_surface_reference(OpaquePointer(bitPattern: hit))
            return hit
        }
        if held == nil {
            guard let sheet = surface(path) else { return nil }
            defer { cairo_surface_destroy(sheet) }
            guard let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
            guard cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(made) else {
                cairo_surface_destroy(made)
                return nil
            }
            cairo_scale(cr, Double(width) / Double(cut.width), Double(height) / Double(cut.height))
            cairo_set_source_surface(cr, sheet, -Double(cut.x), -Double(cut.y))
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_rectangle(cr, 0, 0, Double(cut.width), Double(cut.height))
            cairo_fill(cr)
            cairo_destroy(cr)
            cairo_surface_flush(made)
            let mine = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(made)))
            held = cuts.withLock { table -> UInt in
                if let raced = table[key] {
                    cairo_surface_reference(OpaquePointer(bitPattern: raced))
                    return raced
                }
                // Icon sizes that follow the zoom make new images: past 512 the table starts over.
                if table.count >= 512 {
                    for v in table.values { cairo_surface_destroy(OpaquePointer(bitPattern: v)) }
                    table.removeAll()
                }
                // The table keeps the reference `made` came with; the caller gets one more.
                table[key] = mine
                cairo_surface_reference(OpaquePointer(bitPattern: mine))
                return mine
            }
            if held != mine { cairo_surface_destroy(made) }
        }
        return held.flatMap { OpaquePointer(bitPattern: $0) }
    }
}
