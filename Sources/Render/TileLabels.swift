import CCairo
import Style
import Tiles

/// The style's point symbols drawn into a raster tile with cairo's toy text API (pango is
/// not available), until the screen-wide label placer takes over.
///
/// A label is drawn only when it fits wholly inside its tile and clears every label already
/// placed: a raster tile cannot draw the half of a word that falls in its neighbour, and a
/// missing label reads better than a cut one. Line-placed symbols (street names) are left to
/// the screen-wide placer: straight text across a bend reads worse than none.
struct TileLabels {
    let cr: OpaquePointer
    let scale: Double
    let pixelSize: Double
    private var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    /// The font of Meridian's own text (scale bar, credits); DejaVu Sans ships with Debian's
    /// font packages, and fontconfig falls back to any sans face when it is missing.
    static let fontFamily = "DejaVu Sans"
    /// At most this many labels per tile.
    static let limit = 12

    init(cr: OpaquePointer, scale: Double, pixelSize: Double) {
        self.cr = cr
        self.scale = scale
        self.pixelSize = pixelSize
    }

    mutating func draw(_ symbols: [(SymbolFeature, TilePlacement)]) {
        var candidates: [(s: SymbolFeature, x: Double, y: Double)] = []
        for (s, p) in symbols {
            guard case .point(let pt) = s.geometry else { continue }
            let extent = Double(max(s.extent, 1))
            let x = p.x(pt.x, extent: extent), y = p.y(pt.y, extent: extent)
            guard x >= 0, y >= 0, x < pixelSize, y < pixelSize else { continue }
            candidates.append((s, x, y))
        }
        guard !candidates.isEmpty else { return }
        // The top layer first (MapLibre gives layers higher in the style priority), then the
        // sort key (lower first), then the feature order; the text breaks the last ties so the
        // result never depends on the order tiles come in.
        candidates.sort { a, b in
            if a.s.layerIndex != b.s.layerIndex { return a.s.layerIndex > b.s.layerIndex }
            let ka = a.s.sortKey ?? .infinity, kb = b.s.sortKey ?? .infinity
            if ka != kb { return ka < kb }
            if a.s.text != b.s.text { return a.s.text < b.s.text }
            return a.s.featureIndex < b.s.featureIndex
        }
        // Turning text into glyphs is most of a label's cost: a box guessed from the text's
        // length rejects most candidates first (outside the tile or over a placed label),
        // and after `attempts` tries the tile stops looking.
        var drawn = 0, tried = 0
        for c in candidates where drawn < Self.limit && tried < Self.attempts {
            guard plausible(c.s, x: c.x, y: c.y) else { continue }
            tried += 1
            if label(c.s, x: c.x, y: c.y) { drawn += 1 }
        }
    }

    /// At most this many candidates per tile are laid out in glyphs.
    static let attempts = 36

    /// Whether a box 0.45 em per character wide (narrower than any real text, so nothing
    /// that would fit is refused) around the anchor fits the tile and clears the placed labels.
    private func plausible(_ s: SymbolFeature, x: Double, y: Double) -> Bool {
        let t = s.textStyle
        let size = t.size * scale
        let w = Double(s.text.count) * size * 0.45, h = size * 0.6
        var x0 = x + t.offset.x * size, y0 = y + t.offset.y * size - h / 2
        switch t.anchor {
        case .left, .topLeft, .bottomLeft: break
        case .right, .topRight, .bottomRight: x0 -= w
        default: x0 -= w / 2
        }
        switch t.anchor {
        case .top, .topLeft, .topRight: y0 += h / 2
        case .bottom, .bottomLeft, .bottomRight: y0 -= h / 2
        default: break
        }
        guard x0 >= 0, y0 >= 0, x0 + w <= pixelSize, y0 + h <= pixelSize else { return false }
        return t.allowOverlap || !placed.contains { $0.x0 < x0 + w && x0 < $0.x1 && $0.y0 < y0 + h && y0 < $0.y1 }
    }

    private mutating func label(_ s: SymbolFeature, x: Double, y: Double) -> Bool {
        let t = s.textStyle
        cairo_select_font_face(cr, t.fontFamilies.first ?? "DejaVu Sans", t.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               t.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        let size = t.size * scale
        cairo_set_font_size(cr, size)
        // The text becomes glyphs once; the halo's eight copies and the name are then the same
        // glyphs moved, not eight more conversions of the text (which showed up at 13 % of a
        // cold continent screen when every copy went through cairo_show_text).
        guard let font = cairo_get_scaled_font(cr) else { return false }
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>? = nil
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(font, 0, 0, s.text, -1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
              let glyphs, count > 0 else { return false }
        defer { cairo_glyph_free(glyphs) }
        if t.letterSpacing != 0 {
            for i in 0..<Int(count) { glyphs[i].x += Double(i) * t.letterSpacing * size }
        }
        var ext = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font, glyphs, count, &ext)
        let width = ext.x_advance + (count > 1 ? Double(count - 1) * t.letterSpacing * size : 0)
        // The anchor's side of the text box sits on the point, moved by text-offset (ems).
        var tx = x + t.offset.x * size, ty = y + t.offset.y * size
        let ascent = -ext.y_bearing, height = ext.height
        switch t.anchor {
        case .left, .topLeft, .bottomLeft: break
        case .right, .topRight, .bottomRight: tx -= width
        default: tx -= width / 2
        }
        switch t.anchor {
        case .top, .topLeft, .topRight: ty += ascent
        case .bottom, .bottomLeft, .bottomRight: ty += ascent - height
        default: ty += ascent - height / 2
        }
        let pad = max(t.padding, 0) * scale
        let box = (x0: tx + min(ext.x_bearing, 0) - pad, y0: ty - ascent - pad, x1: tx + width + pad, y1: ty - ascent + height + pad)
        guard box.x0 >= 0, box.y0 >= 0, box.x1 <= pixelSize, box.y1 <= pixelSize,
              t.allowOverlap || !placed.contains(where: { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 })
        else { return false }
        if !t.ignorePlacement { placed.append(box) }
        // The halo: the glyphs shown eight times around their place rather than a stroked text
        // path, since showing glyphs reuses cairo's cached glyph masks, where stroking outlines
        // costs more than the whole tile.
        var shownX = 0.0, shownY = 0.0
        /// Moves the glyphs so they start at (ox, oy) from the text's origin.
        func shift(to ox: Double, _ oy: Double) {
            for i in 0..<Int(count) {
                glyphs[i].x += tx + ox - shownX
                glyphs[i].y += ty + oy - shownY
            }
            shownX = tx + ox; shownY = ty + oy
        }
        if t.haloWidth > 0 && t.haloColor.a > 0 {
            let d = min(t.haloWidth, size / 4 / scale) * scale
            set(t.haloColor)
            for (ox, oy) in [(-d, 0.0), (d, 0), (0, -d), (0, d), (-d * 0.7, -d * 0.7), (d * 0.7, -d * 0.7), (-d * 0.7, d * 0.7), (d * 0.7, d * 0.7)] {
                shift(to: ox, oy)
                cairo_show_glyphs(cr, glyphs, count)
            }
        }
        set(t.color)
        shift(to: 0, 0)
        cairo_show_glyphs(cr, glyphs, count)
        return true
    }

    private func set(_ c: StyleColor) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }
}
