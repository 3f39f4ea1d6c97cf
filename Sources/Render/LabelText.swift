import CCairo
import Style
import Synchronization

/// One glyph of a shaped label: the font's glyph index and where it sits, in logical px from
/// the text's origin (the left end of the first line's baseline).
struct ShapedGlyph: Sendable, Equatable {
    var index: UInt
    var x: Double
    var y: Double
    /// How far the pen moves past it (letter spacing included).
    var advance: Double
}

/// A label's text turned into glyphs once, on a tile worker: lines broken at `text-max-width`,
/// justified, with the box the ink and its halo take.
///
/// Glyphs come from cairo's toy font API, which asks fontconfig for the family (DejaVu Sans
/// on Debian). A character the font lacks becomes the font's missing-glyph box with its own
/// advance, so the layout around it never breaks.
struct ShapedText: Sendable, Equatable {
    var glyphs: [ShapedGlyph]
    /// Logical px, from the origin: the rectangle every line's advance and the font's ascent
    /// and descent cover.
    var minX: Double, minY: Double, maxX: Double, maxY: Double
    var width: Double { maxX - minX }
    var height: Double { maxY - minY }
}

/// Fonts by family, weight, slant and size, made once and shared by every thread (cairo's
/// scaled fonts are thread safe).
final class LabelFonts: Sendable {
    static let shared = LabelFonts()
    /// The family used when a style names none; DejaVu Sans ships with Debian's fonts, and
    /// fontconfig falls back to any sans face when it is missing.
    static let fallbackFamily = "DejaVu Sans"

    private struct Key: Hashable {
        var family: String
        var bold: Bool
        var italic: Bool
        var size: Double
    }

    /// Scaled fonts by key, each holding one reference. Held as integers because cairo's
    /// pointers are not `Sendable`.
    private let fonts = Mutex<[Key: UInt]>([:])
    static let capacity = 256

    /// The family the style asks for, or DejaVu Sans, with a reference of its own: the caller
    /// releases it (`cairo_scaled_font_destroy`). Nil when cairo cannot make any font.
    func font(_ style: TextStyle, size: Double) -> OpaquePointer? {
        let family = style.fontFamilies.first ?? Self.fallbackFamily
        let key = Key(family: family, bold: style.bold, italic: style.italic, size: size)
        // Referenced under the lock, so a full table being emptied cannot free it first.
        let hit = fonts.withLock { table -> UInt? in
            guard let f = table[key] else { return nil }
            cairo_scaled_font_reference(OpaquePointer(bitPattern: f))
            return f
        }
        if let hit { return OpaquePointer(bitPattern: hit) }
        guard let face = cairo_toy_font_face_create(family, style.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                                                    style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL) else { return nil }
        defer { cairo_font_face_destroy(face) }
        var matrix = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, size, size)
        cairo_matrix_init_identity(&identity)
        guard let options = cairo_font_options_create() else { return nil }
        defer { cairo_font_options_destroy(options) }
        // Linear metrics: a label is measured once in logical px and drawn at any buffer scale.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        guard let font = cairo_scaled_font_create(face, &matrix, &identity, options),
              cairo_scaled_font_status(font) == CAIRO_STATUS_SUCCESS else { return nil }
        let made = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(font)))
        let kept = fonts.withLock { table -> UInt in
            if let raced = table[key] {
                cairo_scaled_font_reference(OpaquePointer(bitPattern: raced))
                return raced
            }
            // Sizes that follow the zoom make new fonts at every settled zoom: past the
            // capacity the table lets go of its fonts (callers hold their own references).
            if table.count >= Self.capacity {
                for f in table.values { cairo_scaled_font_destroy(OpaquePointer(bitPattern: f)) }
                table.removeAll()
            }
            table[key] = made
            cairo_scaled_font_reference(font)
            return made
        }
        if kept != made { cairo_scaled_font_destroy(font) }
        return OpaquePointer(bitPattern: kept)
    }

    /// Shapes `text` at `style.size`: point labels wrap at `style.maxWidth` ems (`wrap`),
    /// line labels never do. Nil for text without a single glyph.
    func shape(_ text: String, style: TextStyle, wrap: Bool) -> ShapedText? {
        let size = style.size
        guard size > 0, size.isFinite, !text.isEmpty, let font = font(style, size: size) else { return nil }
        defer { cairo_scaled_font_destroy(font) }
        var fe = cairo_font_extents_t()
        cairo_scaled_font_extents(font, &fe)
        let spacing = style.letterSpacing * size
        // Words with their glyphs at pen positions from the word's start.
        func run(_ s: Substring) -> (glyphs: [ShapedGlyph], width: Double) {
            var raw: UnsafeMutablePointer<cairo_glyph_t>? = nil
            var count: Int32 = 0
            guard cairo_scaled_font_text_to_glyphs(font, 0, 0, String(s), -1, &raw, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
                  let raw, count > 0 else { return ([], 0) }
            defer { cairo_glyph_free(raw) }
            var out: [ShapedGlyph] = []
            out.reserveCapacity(Int(count))
            var extra = 0.0
            for i in 0..<Int(count) {
                var single = raw[i]
                var te = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(font, &single, 1, &te)
                let advance = te.x_advance + spacing
                out.append(ShapedGlyph(index: UInt(raw[i].index), x: raw[i].x + extra, y: 0, advance: advance))
                extra += spacing
            }
            let last = out.last.map { $0.x + $0.advance } ?? 0
            return (out, last)
        }
        var lines: [(glyphs: [ShapedGlyph], width: Double)] = []
        let space = run(" ").width
        if wrap && style.maxWidth > 0 {
            let limit = style.maxWidth * size
            var current: [ShapedGlyph] = [], width = 0.0
            for word in text.split(separator: " ", omittingEmptySubsequences: true) {
                let w = run(word)
                if !current.isEmpty && width + space + w.width > limit {
                    lines.append((current, width))
                    current = []; width = 0
                }
                let start = current.isEmpty ? 0 : width + space
                current += w.glyphs.map { ShapedGlyph(index: $0.index, x: $0.x + start, y: 0, advance: $0.advance) }
                width = start + w.width
            }
            if !current.isEmpty { lines.append((current, width)) }
        } else {
            let one = run(Substring(text))
            if !one.glyphs.isEmpty { lines.append(one) }
        }
        guard !lines.isEmpty else { return nil }
        let widest = lines.map(\.width).max() ?? 0
        let lineHeight = style.lineHeight * size
        var glyphs: [ShapedGlyph] = []
        for (i, line) in lines.enumerated() {
            let shift: Double
            switch style.justify {
            case .left: shift = 0
            case .right: shift = widest - line.width
            case .center, .auto: shift = (widest - line.width) / 2
            }
            let y = Double(i) * lineHeight
            glyphs += line.glyphs.map { ShapedGlyph(index: $0.index, x: $0.x + shift, y: y, advance: $0.advance) }
        }
        return ShapedText(glyphs: glyphs, minX: 0, minY: -fe.ascent, maxX: widest,
                          maxY: Double(lines.count - 1) * lineHeight + fe.descent)
    }
}
