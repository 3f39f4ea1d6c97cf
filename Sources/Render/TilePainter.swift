import CCairo
import Tiles

/// Paints the layers of one raster tile in map order: ground, water, land use, buildings,
/// roads, borders, coastlines (labels are not
/// part of a tile: `LabelLayer` draws them over the screen).
///
/// Polygons are only filled, never outlined: tiles clip polygons at their buffer, and an
/// outline would draw those cut edges as seams. Borders and coastlines come from their own
/// line layers instead.
struct TilePainter {
    let cr: OpaquePointer
    /// The zoom the style is evaluated at (the tile's own zoom, also when overzoomed).
    let zoom: Double
    /// Device pixels per logical pixel.
    let scale: Double
    let pixelSize: Double
    /// Fills polygons straight into the tile's pixels; nil fills them with cairo instead
    /// (the reference the filler is tested against).
    let filler: PolygonFiller?

    mutating func paint(_ tiles: [PlacedTile]) {
        set(MapStyle.background)
        cairo_paint(cr)
        // Nonzero, as the filler does: MVT holes wind against their ring, and overlapping
        // polygons of one colour must not cancel (even-odd would punch them out).
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // Strokes are most of a tile's cost in cairo 1.16; the fast antialiasing (a coarser
        // coverage grid) cut a cold 1920x1200 screen from 68 to 50 ms here and still draws
        // smooth edges (compared side by side at scale 1 and 2).
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)

        // Natural Earth ground. Land over the sea-coloured background; an ocean layer (when
        // present) goes on top so both ways of shipping the coast agree.
        fill(tiles, layer: "land", MapStyle.land)
        // Countries cover the same ground as land in the same colour: filling both would
        // rasterize every continent twice. They stand in only where a source has no land layer.
        if !tiles.contains(where: { $0.tile.layer(named: "land") != nil }) {
            fill(tiles, layer: "countries", MapStyle.land)
        }
        fill(tiles, layer: "ocean", MapStyle.water)
        fill(tiles, layer: "lakes", MapStyle.water)

        // OpenMapTiles areas.
        for layer in ["landcover", "landuse", "park"] {
            fillByKind(tiles, layer: layer)
        }
        fill(tiles, layer: "water", MapStyle.water)
        stroke(tiles, layer: "waterway", MapStyle.waterway, width: MapStyle.waterwayWidth.value(at: zoom), minZoom: 9)
        if zoom >= MapStyle.buildingMinZoom {
            fill(tiles, layer: "building", MapStyle.building)
            if zoom >= 16 {
                stroke(tiles, layer: "building", MapStyle.buildingOutline, width: 0.5, closed: true)
            }
        }
        roads(tiles)

        stroke(tiles, layer: "boundaries", MapStyle.border, width: MapStyle.borderWidth.value(at: zoom))
        stroke(tiles, layer: "coastline", MapStyle.coastline, width: MapStyle.coastlineWidth.value(at: zoom))
        // No labels: the screen-wide placer draws them over the composited tiles.
    }

    // MARK: layers

    /// Fills a layer's polygons (those `keep` accepts) in one colour, all rings at once.
    private func fill(_ tiles: [PlacedTile], layer: String, _ color: RGB, where keep: (VectorFeature) -> Bool = { _ in true }) {
        let target = cairo_get_target(cr)
        var any = false
        for placed in tiles {
            guard let l = placed.tile.layer(named: layer) else { continue }
            let extent = Double(max(l.extent, 1))
            for f in l.features where f.type == .polygon && keep(f) {
                for ring in f.parts {
                    if let filler {
                        any = appendRing(ring, placed.placement, extent: extent, to: filler) || any
                    } else {
                        any = appendPart(ring, placed.placement, extent: extent, closed: true, margin: 0) || any
                    }
                }
            }
        }
        guard any else { return }
        if let filler, let target {
            cairo_surface_flush(target)
            filler.fill(target, color: color.hex)
            cairo_surface_mark_dirty(target)
        } else {
            set(color)
            cairo_fill(cr)
        }
    }

    private func fillByKind(_ tiles: [PlacedTile], layer: String) {
        // One fill per colour keeps cairo's work to a handful of rasterizations per layer.
        var colors: [UInt32] = []
        for placed in tiles {
            for f in placed.tile.layer(named: layer)?.features ?? [] {
                if let c = MapStyle.areaColor(layer: layer, kind: Self.string(f, "class")), !colors.contains(c.hex) { colors.append(c.hex) }
            }
        }
        for hex in colors {
            fill(tiles, layer: layer, RGB(hex: hex)) { MapStyle.areaColor(layer: layer, kind: Self.string($0, "class"))?.hex == hex }
        }
    }

    private func stroke(_ tiles: [PlacedTile], layer: String, _ color: RGB, width: Double, minZoom: Double = 0,
                        closed: Bool = false, dash: Bool = false, where keep: (VectorFeature) -> Bool = { _ in true }) {
        guard zoom >= minZoom, width > 0 else { return }
        let w = width * scale
        if !dash && w <= Self.hairlineWidth {
            hairlines(tiles, layer: layer, color, width: w, closed: closed, where: keep)
            return
        }
        var any = false
        for placed in tiles {
            guard let l = placed.tile.layer(named: layer) else { continue }
            let extent = Double(max(l.extent, 1))
            for f in l.features where (f.type == .lineString || (closed && f.type == .polygon)) && keep(f) {
                for part in f.parts { any = appendPart(part, placed.placement, extent: extent, closed: closed, margin: w) || any }
            }
        }
        guard any else { return }
        set(color)
        cairo_set_line_width(cr, w)
        if dash {
            var pattern = [2 * w, 2 * w]
            cairo_set_dash(cr, &pattern, 2, 0)
        }
        cairo_stroke(cr)
        if dash { cairo_set_dash(cr, nil, 0, 0) }
    }

    /// Roads by class: all casings first, then the fills from minor to major, so a junction
    /// reads as one piece of tarmac.
    private func roads(_ tiles: [PlacedTile]) {
        let classes = MapStyle.roadClasses.filter { zoom >= $0.style.minZoom }
        let inClass = { (set: Set<String>) in { (f: VectorFeature) in Self.string(f, "class").map(set.contains) ?? false } }
        if zoom >= 13 {
            for (set, style) in classes where style.cased {
                let w = style.width.value(at: zoom)
                stroke(tiles, layer: "transportation", MapStyle.roadCasing, width: w + max(1, w * 0.25), where: inClass(set))
            }
        }
        for (set, style) in classes {
            stroke(tiles, layer: "transportation", style.color, width: style.width.value(at: zoom), dash: style.dashed, where: inClass(set))
        }
    }

    /// Lines up to this wide (device px) are drawn as Wu hairlines, not by cairo's stroker.
    static let hairlineWidth = 1.25

    private func hairlines(_ tiles: [PlacedTile], layer: String, _ color: RGB, width: Double, closed: Bool,
                           where keep: (VectorFeature) -> Bool) {
        guard let target = cairo_get_target(cr), let canvas = HairlineCanvas(surface: target) else { return }
        cairo_surface_flush(target)
        defer { cairo_surface_mark_dirty(target) }
        let alpha = min(width, 1)
        for placed in tiles {
            guard let l = placed.tile.layer(named: layer) else { continue }
            let extent = Double(max(l.extent, 1))
            let p = placed.placement
            for f in l.features where (f.type == .lineString || (closed && f.type == .polygon)) && keep(f) {
                for part in f.parts where part.count >= 2 && isNearTile(part, p, extent: extent, margin: 2) {
                    var lastX = p.x(part[0].x, extent: extent), lastY = p.y(part[0].y, extent: extent)
                    for pt in part.dropFirst() {
                        let x = p.x(pt.x, extent: extent), y = p.y(pt.y, extent: extent)
                        canvas.segment(lastX, lastY, x, y, color: color.hex, alpha: alpha)
                        lastX = x; lastY = y
                    }
                    if closed, let first = part.first {
                        canvas.segment(lastX, lastY, p.x(first.x, extent: extent), p.y(first.y, extent: extent), color: color.hex, alpha: alpha)
                    }
                }
            }
        }
    }

    // MARK: paths

    /// Whether a part's bounding box reaches the tile (plus `margin` px).
    private func isNearTile(_ part: [TilePoint], _ p: TilePlacement, extent: Double, margin: Double) -> Bool {
        guard var minX = part.first?.x, var minY = part.first?.y else { return false }
        var maxX = minX, maxY = minY
        for pt in part {
            minX = min(minX, pt.x); maxX = max(maxX, pt.x)
            minY = min(minY, pt.y); maxY = max(maxY, pt.y)
        }
        let lo = -margin - 1, hi = pixelSize + margin + 1
        return !(p.x(maxX, extent: extent) < lo || p.x(minX, extent: extent) > hi || p.y(maxY, extent: extent) < lo || p.y(minY, extent: extent) > hi)
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

    /// Adds one ring to the filler in raster pixels, as `appendPart` does to cairo's path.
    private func appendRing(_ ring: [TilePoint], _ p: TilePlacement, extent: Double, to filler: PolygonFiller) -> Bool {
        guard ring.count >= 3, isNearTile(ring, p, extent: extent, margin: 0) else { return false }
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

    private func set(_ c: RGB) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }

    static func string(_ f: VectorFeature, _ key: String) -> String? {
        if case .string(let s)? = f.properties[key] { return s }
        return nil
    }
}
