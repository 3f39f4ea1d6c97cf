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
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, text, &ext)
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
            // show_text leaves a current point; without a fresh path the arc would start with a
            // line from the previous label.
            cairo_new_path(cr)
            cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
            cairo_set_source_rgb(cr, MapStyle.labelHalo.r, MapStyle.labelHalo.g, MapStyle.labelHalo.b)
            cairo_set_line_width(cr, 1.5 * scale)
            cairo_stroke_preserve(cr)
            cairo_set_source_rgb(cr, MapStyle.label.r, MapStyle.label.g, MapStyle.label.b)
            cairo_fill(cr)
        }
        // A white halo keeps the name readable over roads and borders. It is the text shown
        // eight times around its place rather than a stroked text path: show_text reuses
        // cairo's cached glyph masks, where stroking outlines costs more than the whole tile.
        let d = 1.2 * scale
        cairo_set_source_rgb(cr, MapStyle.labelHalo.r, MapStyle.labelHalo.g, MapStyle.labelHalo.b)
        for (ox, oy) in [(-d, 0.0), (d, 0), (0, -d), (0, d), (-d * 0.7, -d * 0.7), (d * 0.7, -d * 0.7), (-d * 0.7, d * 0.7), (d * 0.7, d * 0.7)] {
            cairo_move_to(cr, tx + ox, ty + oy)
            cairo_show_text(cr, text)
        }
        cairo_set_source_rgb(cr, MapStyle.label.r, MapStyle.label.g, MapStyle.label.b)
        cairo_move_to(cr, tx, ty)
        cairo_show_text(cr, text)
    }

    static func name(_ f: VectorFeature) -> String? {
        for key in ["name", "name:latin", "name_en", "NAME"] {
            if case .string(let s)? = f.properties[key], !s.isEmpty { return s }
        }
        return nil
    }
}
