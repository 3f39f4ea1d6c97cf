import CCairo
import Style
import Tiles
#if canImport(Glibc)
import Glibc
#endif

/// Paints one raster tile by walking the compiled style's layers in order: backgrounds,
/// fills (through `PolygonFiller`), lines (Wu hairlines when thin, else cairo with the
/// layer's dashes, caps, joins and offset), circles, flat extrusions. Symbol layers are not
/// drawn here: their text is placed over the whole screen (`LabelLayer`).
///
/// A layer draws the features of its `source-layer` from the tiles of its source. Features
/// of one layer that evaluate to the same paint are drawn in one pass (one fill per colour),
/// which is what keeps data-driven colours cheap.
struct TilePainter {
    let cr: OpaquePointer
    let style: ZoomStyle
    /// Device pixels per logical pixel.
    let scale: Double
    let pixelSize: Double
    /// Fills polygons straight into the tile's pixels; nil fills them with cairo instead
    /// (the reference the filler is tested against).
    let filler: PolygonFiller?
    /// Features grouped by a property's value, per tile and layer, built on first use.
    private let index = FeatureIndex()
    /// The drawn tile's top-left in device px of the whole map at its zoom (x · size): sprite
    /// patterns are laid from the map's origin, so they run on across tile edges.
    var patternOrigin: (x: Double, y: Double) = (0, 0)
    /// The map's bearing (degrees) the tile is drawn for: a layer translated in screen space
    /// (`*-translate-anchor: viewport`) moves by its translate turned into the map's axes.
    var bearing: Double = 0
    /// While a layer with a sort key is drawn, the features of one key at a time.
    var only: ((VectorFeature) -> Bool)? = nil
    /// Only these pixels need be drawn (an edge tile's visible part), nil for the whole tile;
    /// the pixels inside get the same bytes as when the whole tile is drawn. The filler and the
    /// hairlines draw only there (and skip what cannot reach it). cairo still draws the whole
    /// tile: what its scan converter draws at a pixel depends on geometry elsewhere in the path
    /// (leaving out a road 230 px below, or clipping it away, changed pixels at the tile's top
    /// edge), so only a whole-tile cairo pass gives the whole tile's bytes.
    var area: TileArea? = nil
    /// The drawn pixels' box (the whole tile unless `area`).
    private var drawn: (x0: Double, y0: Double, x1: Double, y1: Double) {
        guard let a = area else { return (0, 0, pixelSize, pixelSize) }
        return (Double(a.x0), Double(a.y0), Double(a.x1), Double(a.y1))
    }

    mutating func paint(_ tiles: [PlacedTile]) {
        // Nonzero, as the filler does: MVT holes wind against their ring, and overlapping
        // polygons of one colour must not cancel (even-odd would punch them out).
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        // Strokes are most of a tile's cost in cairo 1.16; the fast antialiasing (a coarser
        // coverage grid) cut a cold 1920x1200 screen from 68 to 50 ms here and still draws
        // smooth edges (compared side by side at scale 1 and 2).
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        // Under everything: white, as a page under a map whose style has no background. An
        // opaque background first hides it anyway (the shipped styles' case: a tile then gets
        // one full-tile paint instead of two, 2 % of a cold continent frame).
        var opaqueBackground = false
        if case .background(let c) = style.layers.first?.kind { opaqueBackground = c.a >= 1 }
        if !opaqueBackground {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
        }
        for layer in style.layers {
            // `*-translate`: the layer's geometry moved by whole logical px.
            var tiles = tiles
            if var t = layer.translate {
                if layer.translatesInViewport, bearing != 0 {
                    // A screen offset is the map offset turned by the bearing (the camera draws
                    // the map turned by minus the bearing): R(bearing) · t in y-down axes.
                    let a = bearing * Double.pi / 180, c = cos(a), s = sin(a)
                    t = (c * t.x - s * t.y, s * t.x + c * t.y)
                }
                for k in tiles.indices {
                    tiles[k].placement.offsetX += t.x * scale
                    tiles[k].placement.offsetY += t.y * scale
                }
            }
            guard let key = layer.sortKey else {
                draw(layer, tiles)
                continue
            }
            // Ascending key within the layer: one round per key value, each the whole layer's
            // drawing (batched by paint) over that key's features.
            var keys = Set<Double>()
            features(tiles, layer) { f, _, _ in keys.insert(key.value(f)) }
            for k in keys.sorted() {
                only = { key.value($0) == k }
                draw(layer, tiles)
            }
            only = nil
        }
    }

    private func draw(_ layer: DrawLayer, _ tiles: [PlacedTile]) {
        switch layer.kind {
        case .background(let c):
            set(c)
            cairo_paint(cr)
        case .ground(let c, let source):
            ground(tiles, source: source, c)
        case .fill(let paint):
            fill(tiles, layer, paint)
        case .line(let paint):
            line(tiles, layer, paint)
        case .circle(let paint):
            circles(tiles, layer, paint)
        case .symbol:
            // Placed over the screen by `LabelLayer`, from the candidates the tile's
            // worker extracted (`LabelExtraction`).
            break
        }
    }

    // MARK: layers

    /// The layer's features from the tiles of its source, each with where it lands.
    ///
    /// A filter that requires a property value (`class` in a list: most road layers) visits
    /// only the features with those values, through an index built once per tile: a dozen
    /// road layers no longer each test every road.
    private func features(_ tiles: [PlacedTile], _ layer: DrawLayer, _ body: (VectorFeature, TilePlacement, Double) -> Void) {
        guard let name = layer.sourceLayer else { return }
        for (k, placed) in tiles.enumerated() where placed.source == layer.source {
            guard let l = placed.tile.layer(named: name) else { continue }
            let extent = Double(max(l.extent, 1))
            if let pre = layer.prefilter, l.features.count >= FeatureIndex.minimumFeatures {
                let groups = index.groups(tile: k, layer: l, key: pre.key)
                var picked: [Int] = []
                for v in pre.values { picked += groups[v] ?? [] }
                if pre.values.count > 1 { picked.sort() }
                for i in picked where layer.matches(l.features[i]) && only?(l.features[i]) != false {
                    body(l.features[i], placed.placement, extent)
                }
            } else {
                for f in l.features where layer.matches(f) && only?(f) != false { body(f, placed.placement, extent) }
            }
        }
    }

    /// A background that covers only the tiles `source` has, within its bounds (a source
    /// that does not say where its data ends covers nothing: painting its whole tiles would
    /// hide the sources under it far from its data).
    private func ground(_ tiles: [PlacedTile], source: String, _ color: StyleColor) {
        var any = false
        for placed in tiles where placed.source == source {
            guard let r = placed.ground else { continue }
            guard r.2 > r.0, r.3 > r.1 else { continue }
            cairo_rectangle(cr, r.0, r.1, r.2 - r.0, r.3 - r.1)
            any = true
        }
        guard any else { return }
        set(color)
        cairo_fill(cr)
    }

    private func fill(_ tiles: [PlacedTile], _ layer: DrawLayer, _ paint: FillPaint) {
        if let pattern = paint.pattern {
            patternPasses(tiles, layer, pattern) { f, p, extent in
                guard f.type == .polygon else { return false }
                var any = false
                for ring in f.parts { any = appendPart(ring, p, extent: extent, closed: true, margin: 0) || any }
                return any
            } draw: { cairo_fill(cr) }
        } else if let c = paint.color.constant {
            guard c.a > 0 else { return }
            fillPass(tiles, layer, c) { _ in true }
        } else {
            // One pass per colour, in the order colours first appear.
            var colors: [StyleColor] = []
            features(tiles, layer) { f, _, _ in
                guard f.type == .polygon else { return }
                let c = paint.color.value(f)
                if c.a > 0, !colors.contains(c) { colors.append(c) }
            }
            for c in colors { fillPass(tiles, layer, c) { paint.color.value($0) == c } }
        }
        if let outline = paint.outline {
            var colors: [StyleColor] = []
            if let c = outline.constant {
                colors = [c]
            } else {
                features(tiles, layer) { f, _, _ in
                    let c = outline.value(f)
                    if f.type == .polygon, !colors.contains(c) { colors.append(c) }
                }
            }
            for c in colors where c.a > 0 {
                strokePass(tiles, layer, closed: true, key: LineKey(color: c, width: 1, offset: 0), dash: nil, cap: .butt,
                           join: .miter) { $0.type == .polygon && (outline.constant != nil || outline.value($0) == c) }
            }
        }
    }

    private func fillPass(_ tiles: [PlacedTile], _ layer: DrawLayer, _ color: StyleColor, where keep: (VectorFeature) -> Bool) {
        var any = false
        features(tiles, layer) { f, p, extent in
            guard f.type == .polygon, keep(f) else { return }
            for ring in f.parts {
                if let filler {
                    any = appendRing(ring, p, extent: extent, to: filler) || any
                } else {
                    any = appendPart(ring, p, extent: extent, closed: true, margin: 0) || any
                }
            }
        }
        guard any else { return }
        if let filler, let target = cairo_get_target(cr) {
            cairo_surface_flush(target)
            filler.fill(target, color: color.rgbHex, opacity: Float(color.a))
            cairo_surface_mark_dirty(target)
        } else {
            set(color)
            cairo_fill(cr)
        }
    }

    /// The image names a pattern layer's features use, in the order they first appear.
    private func patternNames(_ tiles: [PlacedTile], _ layer: DrawLayer, _ pattern: SpritePattern) -> [String] {
        if let c = pattern.image.constant { return [c] }
        var names: [String] = []
        var seen = Set<String>()
        features(tiles, layer) { f, _, _ in
            let n = pattern.image.value(f)
            if seen.insert(n).inserted { names.append(n) }
        }
        return names
    }

    /// A sprite pattern's passes: one per image the layer's features name, each adding the
    /// features' paths (`add` says whether it added any) and filling or stroking them
    /// (`draw`) with the image repeated from the map's origin. Images the sprite lacks draw nothing.
    private func patternPasses(_ tiles: [PlacedTile], _ layer: DrawLayer, _ pattern: SpritePattern,
                               add: (VectorFeature, TilePlacement, Double) -> Bool, draw: () -> Void) {
        let names = patternNames(tiles, layer, pattern)
        let opacity = pattern.opacity.constant
        for name in names {
            guard let sheet = pattern.sprite.sheet(forScale: scale), let cut = sheet.images[name],
                  let source = SpriteSheets.shared.pattern(sheet.png, cut) else { continue }
            defer { cairo_pattern_destroy(source) }
            // Pattern px per device px; the tile's place on the map's whole grid of repeats.
            let ratio = cut.pixelRatio / scale
            var m = cairo_matrix_t()
            cairo_matrix_init_scale(&m, ratio, ratio)
            // Reduced to one repeat: pixman's fixed-point transforms cannot hold a deep zoom's offsets.
            let pw = Double(cut.width) / ratio, ph = Double(cut.height) / ratio
            cairo_matrix_translate(&m, patternOrigin.x.truncatingRemainder(dividingBy: pw), patternOrigin.y.truncatingRemainder(dividingBy: ph))
            cairo_pattern_set_matrix(source, &m)
            var any = false
            features(tiles, layer) { f, p, extent in
                guard pattern.image.constant != nil || pattern.image.value(f) == name else { return }
                any = add(f, p, extent) || any
            }
            guard any else { continue }
            cairo_set_source(cr, source)
            if let opacity, opacity < 1 {
                cairo_push_group(cr)
                cairo_set_source(cr, source)
                draw()
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, max(opacity, 0))
            } else {
                draw()
            }
        }
    }

    struct LineKey: Hashable {
        var color: StyleColor
        var width: Double
        var offset: Double
        var gap: Double = 0
    }

    private func line(_ tiles: [PlacedTile], _ layer: DrawLayer, _ paint: LinePaint) {
        if let pattern = paint.pattern {
            linePattern(tiles, layer, paint, pattern)
            return
        }
        if let c = paint.color.constant, let w = paint.width.constant, let o = paint.offset.constant, let g = paint.gapWidth.constant {
            guard c.a > 0, w > 0 else { return }
            strokePass(tiles, layer, closed: false, key: LineKey(color: c, width: w, offset: o, gap: g), dash: paint.dash,
                       cap: paint.cap, join: paint.join) { _ in true }
            return
        }
        var keys: [LineKey] = []
        var seen = Set<LineKey>()
        let key = { (f: VectorFeature) in
            LineKey(color: paint.color.value(f), width: paint.width.value(f), offset: paint.offset.value(f), gap: paint.gapWidth.value(f))
        }
        features(tiles, layer) { f, _, _ in
            guard f.type != .point else { return }
            let k = key(f)
            if k.color.a > 0, k.width > 0, seen.insert(k).inserted { keys.append(k) }
        }
        for k in keys {
            strokePass(tiles, layer, closed: false, key: k, dash: paint.dash, cap: paint.cap, join: paint.join) { key($0) == k }
        }
    }

    /// `line-pattern` as MapLibre Native draws it: the image runs along each line, its left
    /// edge at the line's first vertex and repeating every image width (logical px) of distance
    /// along it, turning with every segment; across the line its top on the right of travel,
    /// centred on the line and repeating, scaled as MapLibre Native's line_pattern shader scales
    /// it: the line's outset (half its width, or with `line-gap-width` half the gap plus the
    /// width, plus half a device px of antialiasing) shows at most (image height + 2) / 2 logical
    /// px of the image each side, so a line up to about the image's height shows it at its own
    /// size, a wider one (or a cased pair) squeezes it (measured with pymgl 0.5.0: a 16 x 8 image
    /// on an 8-px line with an 8-px gap repeats every 20 px across). Each segment is stroked with
    /// its own pattern matrix; a disc at each inner vertex (in the next segment's pattern) fills
    /// the join. `line-offset` moves the line right of travel (its vertices along the bisectors,
    /// as for plain lines; the distance along it stays the line's own). With `line-gap-width`
    /// two strokes of the width either side of the gap.
    private func linePattern(_ tiles: [PlacedTile], _ layer: DrawLayer, _ paint: LinePaint, _ pattern: SpritePattern) {
        let names = patternNames(tiles, layer, pattern)
        let opacity = max(pattern.opacity.constant ?? 1, 0)
        guard opacity > 0 else { return }
        if opacity < 1 { cairo_push_group(cr) }
        defer {
            if opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            }
        }
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        for name in names {
            guard let sheet = pattern.sprite.sheet(forScale: scale), let cut = sheet.images[name],
                  let source = SpriteSheets.shared.pattern(sheet.png, cut) else { continue }
            defer { cairo_pattern_destroy(source) }
            let imageW = Double(cut.width), imageH = Double(cut.height)
            // Image px per device px along the line (the image at its logical size).
            let along = cut.pixelRatio / scale
            features(tiles, layer) { f, p, extent in
                guard f.type != .point, pattern.image.constant != nil || pattern.image.value(f) == name else { return }
                let w = paint.width.value(f) * scale
                guard w > 0, w.isFinite else { return }
                let o = paint.offset.value(f), g = paint.gapWidth.value(f)
                let offset = o.isFinite ? min(max(o, -4096), 4096) * scale : 0
                let gap = g.isFinite && g > 0 ? min(g, 4096) * scale : 0
                // Each stroke's offset from the line; the image spans `across` px about `offset`.
                let sides = gap > 0 ? [offset + (gap + w) / 2, offset - (gap + w) / 2] : [offset]
                // Image px per device px across the line (see above), in the sheet's px.
                let outset = (gap > 0 ? gap / 2 + w : w / 2) / scale + 0.5 / scale
                let shown = min(outset, (imageH / cut.pixelRatio + 2) / 2)
                let k2 = cut.pixelRatio * shown / outset / scale
                let reach = w + abs(offset) + gap
                for part in f.parts where part.count >= 2 && isNearTile(part, p, extent: extent, margin: reach) {
                    var line: [(x: Double, y: Double)] = []
                    forEachVertex(part, p, extent: extent) { x, y, _ in line.append((x, y)) }
                    if f.type == .polygon, let first = line.first { line.append(first) }
                    guard line.count >= 2 else { continue }
                  for side in sides {
                    let pts = side == 0 ? line : Self.offsetVertices(line, by: side)
                    var travelled = 0.0
                    for k in 0..<(pts.count - 1) {
                        var a = pts[k], b = pts[k + 1]
                        // Direction and distance from the line itself (an offset segment may be
                        // shorter or longer than its line's).
                        let la = line[k], lb = line[k + 1]
                        let length = ((lb.x - la.x) * (lb.x - la.x) + (lb.y - la.y) * (lb.y - la.y)).squareRoot()
                        guard length > 0 else { continue }
                        defer { travelled += length }
                        let dx = (lb.x - la.x) / length, dy = (lb.y - la.y) / length
                        let lo = min(a.x, b.x) - w, hi = max(a.x, b.x) + w
                        guard hi >= 0, lo <= pixelSize, max(a.y, b.y) + w >= 0, min(a.y, b.y) - w <= pixelSize else { continue }
                        // Device -> image px: x along the line from its start, y across it, the
                        // image's top on the right of travel (as MapLibre Native draws it),
                        // centred `offset` right of the line.
                        let lx = -dy, ly = dx
                        var x0 = along * (travelled - dx * la.x - dy * la.y)
                        x0 = x0.truncatingRemainder(dividingBy: imageW)
                        var m = cairo_matrix_t(xx: along * dx, yx: -k2 * lx, xy: along * dy, yy: -k2 * ly,
                                               x0: x0, y0: imageH / 2 + k2 * (lx * la.x + ly * la.y + offset))
                        cairo_pattern_set_matrix(source, &m)
                        cairo_set_source(cr, source)
                        // The line's own ends take its cap; inner vertices a disc.
                        let first = k == 0 && f.type != .polygon, last = k == pts.count - 2 && f.type != .polygon
                        if paint.cap == .square {
                            if first { a = (a.x - dx * w / 2, a.y - dy * w / 2) }
                            if last { b = (b.x + dx * w / 2, b.y + dy * w / 2) }
                        }
                        cairo_new_path(cr)
                        cairo_move_to(cr, a.x, a.y)
                        cairo_line_to(cr, b.x, b.y)
                        cairo_set_line_width(cr, w)
                        cairo_stroke(cr)
                        var discs: [(Double, Double)] = []
                        if !first || paint.cap == .round { discs.append(pts[k]) }
                        if last && paint.cap == .round { discs.append(pts[k + 1]) }
                        for d in discs {
                            cairo_new_path(cr)
                            cairo_arc(cr, d.0, d.1, w / 2, 0, 2 * Double.pi)
                            cairo_fill(cr)
                        }
                    }
                  }
                }
            }
        }
    }

    /// Strokes the layer's lines (and polygon rings: a line layer over polygons outlines them)
    /// that `keep` accepts with one paint.
    private func strokePass(_ tiles: [PlacedTile], _ layer: DrawLayer, closed: Bool, key: LineKey, dash: [Double]?,
                            cap: LineCap, join: LineJoin, where keep: (VectorFeature) -> Bool) {
        let w = key.width * scale
        let offset = key.offset.isFinite ? key.offset * scale : 0
        let gap = key.gap.isFinite && key.gap > 0 ? key.gap * scale : 0
        if dash == nil && offset == 0 && gap == 0 && w <= Self.hairlineWidth {
            hairlines(tiles, layer, key.color, width: w, where: keep)
            return
        }
        var any = false
        features(tiles, layer) { f, p, extent in
            guard f.type == .lineString || f.type == .polygon, keep(f) else { return }
            for part in f.parts {
                if gap > 0 {
                    // `line-gap-width`: two lines, each `w` wide, either side of the gap.
                    let side = (gap + w) / 2
                    for o in [offset + side, offset - side] {
                        any = appendOffsetPart(part, p, extent: extent, offset: o, margin: w + abs(o)) || any
                    }
                } else if offset == 0 {
                    any = appendPart(part, p, extent: extent, closed: f.type == .polygon, margin: w) || any
                } else {
                    any = appendOffsetPart(part, p, extent: extent, offset: offset, margin: w + abs(offset)) || any
                }
            }
        }
        guard any else { return }
        set(key.color)
        cairo_set_line_width(cr, w)
        cairo_set_line_cap(cr, cap == .round ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, join == .round ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        if let dash {
            // Dash lengths are in line widths (a round or square cap adds to every dash).
            var pattern = dash.map { max($0 * max(w, 1), 0) }
            if pattern.count % 2 == 1 { pattern += pattern }
            cairo_set_dash(cr, &pattern, Int32(pattern.count), 0)
        }
        cairo_stroke(cr)
        if dash != nil { cairo_set_dash(cr, nil, 0, 0) }
    }

    private func circles(_ tiles: [PlacedTile], _ layer: DrawLayer, _ paint: CirclePaint) {
        features(tiles, layer) { f, p, extent in
            guard f.type == .point else { return }
            // Negative sizes would put cairo's context in an error state for the rest of the tile.
            let r = max(paint.radius.value(f) * scale, 0)
            let sw = max(paint.strokeWidth.value(f) * scale, 0)
            guard r > 0 || sw > 0 else { return }
            for part in f.parts {
                for pt in part {
                    let x = p.x(pt.x, extent: extent), y = p.y(pt.y, extent: extent)
                    guard x > -r - sw, y > -r - sw, x < pixelSize + r + sw, y < pixelSize + r + sw else { continue }
                    cairo_new_path(cr)
                    cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
                    set(paint.color.value(f))
                    if sw > 0 {
                        cairo_fill_preserve(cr)
                        set(paint.strokeColor.value(f))
                        cairo_set_line_width(cr, sw)
                        cairo_stroke(cr)
                    } else {
                        cairo_fill(cr)
                    }
                }
            }
        }
    }

    /// Lines up to this wide (device px) are drawn as Wu hairlines, not by cairo's stroker.
    static let hairlineWidth = 1.25

    private func hairlines(_ tiles: [PlacedTile], _ layer: DrawLayer, _ color: StyleColor, width: Double,
                           where keep: (VectorFeature) -> Bool) {
        guard let target = cairo_get_target(cr), var canvas = HairlineCanvas(surface: target) else { return }
        if let area { canvas.area = area }
        let d = drawn
        cairo_surface_flush(target)
        defer { cairo_surface_mark_dirty(target) }
        let alpha = min(width, 1) * color.a
        let hex = color.rgbHex
        features(tiles, layer) { f, p, extent in
            guard f.type == .lineString || f.type == .polygon, keep(f) else { return }
            let closed = f.type == .polygon
            for part in f.parts where part.count >= 2 && isNear(part, p, extent: extent, d.x0 - 3, d.y0 - 3, d.x1 + 3, d.y1 + 3) {
                var lastX = p.x(part[0].x, extent: extent), lastY = p.y(part[0].y, extent: extent)
                for pt in part.dropFirst() {
                    let x = p.x(pt.x, extent: extent), y = p.y(pt.y, extent: extent)
                    canvas.segment(lastX, lastY, x, y, color: hex, alpha: alpha)
                    lastX = x; lastY = y
                }
                if closed, let first = part.first {
                    canvas.segment(lastX, lastY, p.x(first.x, extent: extent), p.y(first.y, extent: extent), color: hex, alpha: alpha)
                }
            }
        }
    }

    // MARK: paths

    /// Whether a part's bounding box reaches the tile (plus `margin` px).
    private func isNearTile(_ part: [TilePoint], _ p: TilePlacement, extent: Double, margin: Double) -> Bool {
        let lo = -margin - 1, hi = pixelSize + margin + 1
        return isNear(part, p, extent: extent, lo, lo, hi, hi)
    }

    /// Whether a part's bounding box reaches the pixel box x0…x1, y0…y1.
    private func isNear(_ part: [TilePoint], _ p: TilePlacement, extent: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
        guard var minX = part.first?.x, var minY = part.first?.y else { return false }
        var maxX = minX, maxY = minY
        for pt in part {
            minX = min(minX, pt.x); maxX = max(maxX, pt.x)
            minY = min(minY, pt.y); maxY = max(maxY, pt.y)
        }
        return !(p.x(maxX, extent: extent) < x0 || p.x(minX, extent: extent) > x1 || p.y(maxY, extent: extent) < y0 || p.y(minY, extent: extent) > y1)
    }

    /// Adds one ring or line to the current path in raster pixels; false when it lies wholly
    /// outside the tile (plus `margin`) and was skipped — the cheap cull that keeps overzoomed
    /// ancestors fast, since most of their geometry falls outside the drawn child.
    private func appendPart(_ part: [TilePoint], _ p: TilePlacement, extent: Double, closed: Bool, margin: Double) -> Bool {
        guard part.count >= 2, isNearTile(part, p, extent: extent, margin: margin) else { return false }
        forEachVertex(part, p, extent: extent) { x, y, first in
            if first { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
        }
        if closed { cairo_close_path(cr) }
        return true
    }

    /// A line moved `offset` px to its right (`line-offset`: positive is right of the direction
    /// of travel), joined at each vertex along the bisector (its length capped at 4× offset).
    private func appendOffsetPart(_ part: [TilePoint], _ p: TilePlacement, extent: Double, offset: Double, margin: Double) -> Bool {
        guard part.count >= 2, isNearTile(part, p, extent: extent, margin: margin) else { return false }
        var pts: [(x: Double, y: Double)] = []
        forEachVertex(part, p, extent: extent) { x, y, _ in pts.append((x, y)) }
        guard pts.count >= 2 else { return false }
        for (k, v) in Self.offsetVertices(pts, by: offset).enumerated() {
            if k == 0 { cairo_move_to(cr, v.x, v.y) } else { cairo_line_to(cr, v.x, v.y) }
        }
        return true
    }

    /// `pts` moved `offset` px right of travel, each vertex along its bisector (its length
    /// capped at 4× offset); as many vertices as given.
    static func offsetVertices(_ pts: [(x: Double, y: Double)], by offset: Double) -> [(x: Double, y: Double)] {
        guard pts.count >= 2 else { return pts }
        func normal(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (Double, Double) {
            let dx = b.x - a.x, dy = b.y - a.y
            let len = max((dx * dx + dy * dy).squareRoot(), 1e-9)
            // Right of travel in y-down pixels.
            return (-dy / len, dx / len)
        }
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(pts.count)
        for k in 0..<pts.count {
            let n0 = k > 0 ? normal(pts[k - 1], pts[k]) : normal(pts[0], pts[1])
            let n1 = k + 1 < pts.count ? normal(pts[k], pts[k + 1]) : n0
            var bx = n0.0 + n1.0, by = n0.1 + n1.1
            let bl = (bx * bx + by * by).squareRoot()
            if bl < 1e-6 { bx = n0.0; by = n0.1 } else { bx /= bl; by /= bl }
            let cosHalf = max(bx * n0.0 + by * n0.1, 0.25)
            out.append((pts[k].x + bx * offset / cosHalf, pts[k].y + by * offset / cosHalf))
        }
        return out
    }

    /// Adds one ring to the filler in raster pixels, as `appendPart` does to cairo's path.
    private func appendRing(_ ring: [TilePoint], _ p: TilePlacement, extent: Double, to filler: PolygonFiller) -> Bool {
        // A ring left of the drawn area still changes the running sums through it (by a
        // rounding residue, as it does in a whole tile), so only rings right of, above or
        // below it are skipped: the filler never reads their cells for a drawn pixel.
        let d = drawn
        guard ring.count >= 3, isNear(ring, p, extent: extent, -1, d.y0 - 1, d.x1 + 1, d.y1 + 1) else { return false }
        forEachVertex(ring, p, extent: extent) { x, y, first in
            if first { filler.move(toX: x, y: y) } else { filler.line(toX: x, y: y) }
        }
        filler.closeRing()
        return true
    }

    /// A part's vertices in raster pixels (`first` for the one that starts it), leaving out
    /// those closer than a third of a pixel to the last one given: they add cost and no shape.
    @inline(__always)
    private func forEachVertex(_ part: [TilePoint], _ p: TilePlacement, extent: Double, _ body: (Double, Double, Bool) -> Void) {
        guard let start = part.first else { return }
        var lastX = p.x(start.x, extent: extent), lastY = p.y(start.y, extent: extent)
        body(lastX, lastY, true)
        for pt in part.dropFirst() {
            let x = p.x(pt.x, extent: extent), y = p.y(pt.y, extent: extent)
            if abs(x - lastX) + abs(y - lastY) < 0.33 { continue }
            body(x, y, false)
            lastX = x; lastY = y
        }
    }

    private func set(_ c: StyleColor) {
        if c.a >= 1 { cairo_set_source_rgb(cr, c.r, c.g, c.b) } else { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }
    }
}

/// A tile's features grouped by the value of one property (feature indices in order), per
/// tile, layer and property: what `TilePainter.features` visits for a prefiltered layer.
final class FeatureIndex {
    /// Below this many features a layer is simply scanned.
    static let minimumFeatures = 24
    private struct Key: Hashable {
        var tile: Int
        var layer: String
        var property: String
    }
    private var built: [Key: [Value: [Int]]] = [:]

    func groups(tile: Int, layer: VectorLayer, key: String) -> [Value: [Int]] {
        let k = Key(tile: tile, layer: layer.name, property: key)
        if let hit = built[k] { return hit }
        var g: [Value: [Int]] = [:]
        for (i, f) in layer.features.enumerated() {
            g[f.properties[key].map(Value.init) ?? .null, default: []].append(i)
        }
        built[k] = g
        return g
    }
}
