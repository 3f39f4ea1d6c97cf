import CCairo
import Tiles

/// Place names drawn into a raster tile with cairo's toy text API (pango is not available).
///
/// A label is drawn only when it fits wholly inside its tile and clears every label already
/// placed: a raster tile cannot draw the half of a word that falls in its neighbour, and a
/// missing label reads better than a cut one.
struct TileLabels {
    let cr: OpaquePointer
    let zoom: Double
    let scale: Double
    let pixelSize: Double
    private var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    init(cr: OpaquePointer, zoom: Double, scale: Double, pixelSize: Double) {
        self.cr = cr
        self.zoom = zoom
        self.scale = scale
        self.pixelSize = pixelSize
    }

    /// The font every label uses; DejaVu Sans ships with Debian's font packages, and
    /// fontconfig falls back to any sans face when it is missing.
    static let fontFamily = "DejaVu Sans"

    mutating func draw(_ tiles: [PlacedTile]) {
        var candidates: [(priority: Double, x: Double, y: Double, name: String, size: Double, dot: Bool)] = []
        for placed in tiles {
            for layerName in ["places", "place"] {
                guard let layer = placed.tile.layer(named: layerName) else { continue }
                let extent = Double(max(layer.extent, 1))
                for f in layer.features where f.type == .point {
                    guard let name = Self.name(f), let size = MapStyle.placeLabelSize(f, zoom: zoom),
                          let pt = f.parts.first?.first else { continue }
                    let x = placed.placement.x(pt.x, extent: extent), y = placed.placement.y(pt.y, extent: extent)
                    guard x >= 0, y >= 0, x < pixelSize, y < pixelSize else { continue }
                    let rank = f.properties["rank"].flatMap(MapStyle.number) ?? 10
                    let population = f.properties["population"].flatMap(MapStyle.number) ?? 0
                    // Bigger font first, then lower rank, then larger population; name breaks ties
                    // so the result never depends on the order features come in.
                    let priority = size * 1e12 - rank * 1e10 + min(population, 9e9)
                    candidates.append((priority, x, y, name, size, layerName == "places"))
                }
            }
        }
        guard !candidates.isEmpty else { return }
        candidates.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.name < $1.name }
        cairo_select_font_face(cr, Self.fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        for c in candidates.prefix(12) { label(c.name, x: c.x, y: c.y, size: c.size, dot: c.dot) }
    }

    private mutating func label(_ text: String, x: Double, y: Double, size: Double, dot: Bool) {
        cairo_set_font_size(cr, size * scale)
        // The text becomes glyphs once; the halo's eight copies and the name are then the same
        // glyphs moved, not eight more conversions of the text (which showed up at 13 % of a
        // cold continent screen when every copy went through cairo_show_text).
        guard let font = cairo_get_scaled_font(cr) else { return }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>? = nil
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
              let glyphs, count > 0 else { return }
        defer { cairo_glyph_free(glyphs) }
        var ext = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font, glyphs, count, &ext)
        let pad = 2 * scale
        let r = 2.5 * scale
        // With a dot the name sits to its right; without one (city district names) it is centred.
        let tx = dot ? x + r + pad : x - ext.width / 2 - ext.x_bearing
        let ty = y - ext.y_bearing - ext.height / 2
        let box = (x0: (dot ? x - r : tx + ext.x_bearing) - pad, y0: ty + ext.y_bearing - pad,
                   x1: tx + ext.x_bearing + ext.width + pad, y1: ty + ext.y_bearing + ext.height + pad)
        guard box.x0 >= 0, box.y0 >= 0, box.x1 <= pixelSize, box.y1 <= pixelSize,
              !placed.contains(where: { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 })
        else { return }
        placed.append(box)
        if dot {
            cairo_new_path(cr)
            cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
            cairo_set_source_rgb(cr, MapStyle.labelHalo.r, MapStyle.labelHalo.g, MapStyle.labelHalo.b)
            cairo_set_line_width(cr, 1.5 * scale)
            cairo_stroke_preserve(cr)
            cairo_set_source_rgb(cr, MapStyle.label.r, MapStyle.label.g, MapStyle.label.b)
            cairo_fill(cr)
            cairo_new_path(cr)
        }
        // A white halo keeps the name readable over roads and borders: the glyphs shown eight
        // times around their place rather than a stroked text path, since showing glyphs reuses
        // cairo's cached glyph masks, where stroking outlines costs more than the whole tile.
        let d = 1.2 * scale
        var shownX = 0.0, shownY = 0.0
        /// Moves the glyphs so they start at (ox, oy) from the text's origin.
        func shift(to ox: Double, _ oy: Double) {
            for i in 0..<Int(count) {
                glyphs[i].x += tx + ox - shownX
                glyphs[i].y += ty + oy - shownY
            }
            shownX = tx + ox; shownY = ty + oy
        }
        cairo_set_source_rgb(cr, MapStyle.labelHalo.r, MapStyle.labelHalo.g, MapStyle.labelHalo.b)
        for (ox, oy) in [(-d, 0.0), (d, 0), (0, -d), (0, d), (-d * 0.7, -d * 0.7), (d * 0.7, -d * 0.7), (-d * 0.7, d * 0.7), (d * 0.7, d * 0.7)] {
            shift(to: ox, oy)
            cairo_show_glyphs(cr, glyphs, count)
        }
        cairo_set_source_rgb(cr, MapStyle.label.r, MapStyle.label.g, MapStyle.label.b)
        shift(to: 0, 0)
        cairo_show_glyphs(cr, glyphs, count)
    }

    static func name(_ f: VectorFeature) -> String? {
        for key in ["name", "name:latin", "name_en", "NAME"] {
            if case .string(let s)? = f.properties[key], !s.isEmpty { return s }
        }
        return nil
    }
}
