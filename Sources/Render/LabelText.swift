import CCairo
import Style
import Synchronization

/// One glyph of a shaped label: the font's glyph index and where it sits, in logical px from
/// the text's origin (the left end of the first line's baseline).
struct ShapedGlyph: Sendable, Equatable {
    var index: UInt
    /// The font it comes from: its place in the style's fallback list (`LabelFonts.font`).
    var font: Int
    var x: Double
    var y: Double
    /// How far the pen moves past it (letter spacing included).
    var advance: Double
}

/// A label's text turned into glyphs once, on a tile worker: lines broken at `text-max-width`,
/// justified, with the box the ink and its halo take.
///
/// Glyphs come from the fonts fontconfig lists for the family (DejaVu Sans on Debian), each
/// character from the first of them that has it, so any script an installed font covers is
/// drawn; a character none has becomes the first font's missing-glyph box with its own
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
///
/// A style's family, weight and slant stand for a list of fonts: fontconfig's match first,
/// then the fonts it would substitute, best first (`FcFontSort`), each with the characters it
/// has. Shaping takes each character from the first font on the list that has it.
final class LabelFonts: Sendable {
    static let shared = LabelFonts()
    /// The family used when a style names none; DejaVu Sans ships with Debian's fonts, and
    /// fontconfig falls back to any sans face when it is missing.
    static let fallbackFamily = "DejaVu Sans"
    /// Fonts past this many on a list are never asked (the list covers what is installed long
    /// before: fontconfig sorts every installed font).
    static let listLength = 24

    private struct Face: Hashable {
        var family: String
        var bold: Bool
        var italic: Bool
    }
    private struct Key: Hashable {
        var face: Face
        var slot: Int
        var size: Double
    }
    /// One face's fallback list: cairo font faces with the characters each has (fontconfig
    /// character sets), held as integers because the pointers are not `Sendable`; never freed.
    private struct FallbackList {
        var faces: [UInt]
        var charsets: [UInt]
    }

    /// Scaled fonts by key, each holding one reference.
    private let fonts = Mutex<[Key: UInt]>([:])
    private let lists = Mutex<[Face: FallbackList]>([:])
    static let capacity = 256

    private static func face(_ style: TextStyle) -> Face {
        Face(family: style.fontFamilies.first ?? fallbackFamily, bold: style.bold, italic: style.italic)
    }

    /// The face's fallback list, asked of fontconfig once. Empty when fontconfig has no fonts.
    private func list(_ face: Face) -> FallbackList {
        lists.withLock { table in
            if let hit = table[face] { return hit }
            var made = FallbackList(faces: [], charsets: [])
            defer { table[face] = made }
            guard let pattern = FcPatternCreate() else { return made }
            defer { FcPatternDestroy(pattern) }
            FcPatternAddString(pattern, FC_FAMILY, face.family)
            FcPatternAddInteger(pattern, FC_WEIGHT, face.bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
            FcPatternAddInteger(pattern, FC_SLANT, face.italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let set = FcFontSort(nil, pattern, FcTrue, nil, &result) else { return made }
            defer { FcFontSetDestroy(set) }
            for i in 0..<min(Int(set.pointee.nfont), Self.listLength) {
                guard let font = set.pointee.fonts[i], let prepared = FcFontRenderPrepare(nil, pattern, font) else { continue }
                var charset: OpaquePointer? = nil
                guard FcPatternGetCharSet(prepared, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                      let cface = cairo_ft_font_face_create_for_pattern(prepared) else {
                    FcPatternDestroy(prepared)
                    continue
                }
                // The prepared pattern owns the character set; cairo keeps its own reference
                // to the pattern, and this list keeps the face for the process's life.
                made.faces.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(cface))))
                made.charsets.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(FcCharSetCopy(charset)))))
                FcPatternDestroy(prepared)
            }
            return made
        }
    }

    /// Which font of the list draws `c`: the first that has it; nil when none does.
    private static func slot(for c: Unicode.Scalar, in l: FallbackList) -> Int? {
        for (i, cs) in l.charsets.enumerated() where FcCharSetHasChar(OpaquePointer(bitPattern: cs), FcChar32(c.value)) != 0 {
            return i
        }
        return nil
    }

    /// The style's font number `slot` on its fallback list (0: the family's own match) at
    /// `size`, with a reference of its own: the caller releases it (`cairo_scaled_font_destroy`).
    /// Nil when cairo cannot make any font.
    func font(_ style: TextStyle, size: Double, slot: Int = 0) -> OpaquePointer? {
        let face = Self.face(style)
        let key = Key(face: face, slot: slot, size: size)
        // Referenced under the lock, so a full table being emptied cannot free it first.
        let hit = fonts.withLock { table -> UInt? in
            guard let f = table[key] else { return nil }
            cairo_scaled_font_reference(OpaquePointer(bitPattern: f))
            return f
        }
        if let hit { return OpaquePointer(bitPattern: hit) }
        let l = list(face)
        let cface: OpaquePointer
        var toy: OpaquePointer? = nil
        if slot < l.faces.count, let f = OpaquePointer(bitPattern: l.faces[slot]) {
            cface = f
        } else {
            // No fontconfig list: cairo's own choice for the family.
            guard let t = cairo_toy_font_face_create(face.family, face.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                                                     face.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL) else { return nil }
            toy = t
            cface = t
        }
        defer { if let toy { cairo_font_face_destroy(toy) } }
        var matrix = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, size, size)
        cairo_matrix_init_identity(&identity)
        guard let options = cairo_font_options_create() else { return nil }
        defer { cairo_font_options_destroy(options) }
        // Linear metrics: a label is measured once in logical px and drawn at any buffer scale.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        guard let font = cairo_scaled_font_create(cface, &matrix, &identity, options),
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
        let fallbacks = list(Self.face(style))
        // Other fonts of the list, made when a character needs one.
        var others: [Int: OpaquePointer] = [:]
        defer { for f in others.values { cairo_scaled_font_destroy(f) } }
        func scaled(_ slot: Int) -> OpaquePointer? {
            if slot == 0 { return font }
            if let f = others[slot] { return f }
            let f = self.font(style, size: size, slot: slot)
            others[slot] = f
            return f
        }
        // Words with their glyphs at pen positions from the word's start: each stretch of
        // characters one font draws shaped with that font, the next starting where it ends.
        func run(_ s: Substring) -> (glyphs: [ShapedGlyph], width: Double) {
            var out: [ShapedGlyph] = []
            var pen = 0.0
            var stretch = "", stretchSlot = 0
            func flush() {
                defer { stretch = "" }
                guard !stretch.isEmpty, let f = scaled(stretchSlot) ?? scaled(0) else { return }
                var raw: UnsafeMutablePointer<cairo_glyph_t>? = nil
                var count: Int32 = 0
                guard cairo_scaled_font_text_to_glyphs(f, 0, 0, stretch, -1, &raw, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
                      let raw, count > 0 else { return }
                defer { cairo_glyph_free(raw) }
                let start = pen
                var extra = 0.0
                for i in 0..<Int(count) {
                    var single = raw[i]
                    var te = cairo_text_extents_t()
                    cairo_scaled_font_glyph_extents(f, &single, 1, &te)
                    let advance = te.x_advance + spacing
                    out.append(ShapedGlyph(index: UInt(raw[i].index), font: stretchSlot, x: start + raw[i].x + extra, y: 0, advance: advance))
                    extra += spacing
                }
                if let g = out.last { pen = g.x + g.advance }
            }
            // Most words are one font's: then the word is shaped as it is, in one go.
            var only: Int?, mixed = false
            for c in s.unicodeScalars {
                guard let slot = Self.slot(for: c, in: fallbacks) else { continue }
                if only == nil { only = slot } else if only != slot { mixed = true; break }
            }
            if !mixed {
                stretch = String(s)
                stretchSlot = only ?? 0
            } else {
                for c in s.unicodeScalars {
                    // A character no font has stays with the stretch it is in (its missing-glyph box).
                    let slot = Self.slot(for: c, in: fallbacks) ?? stretchSlot
                    if slot != stretchSlot && !stretch.isEmpty { flush() }
                    stretchSlot = slot
                    stretch.unicodeScalars.append(c)
                }
            }
            flush()
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
                current += w.glyphs.map { ShapedGlyph(index: $0.index, font: $0.font, x: $0.x + start, y: 0, advance: $0.advance) }
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
            glyphs += line.glyphs.map { ShapedGlyph(index: $0.index, font: $0.font, x: $0.x + shift, y: y, advance: $0.advance) }
        }
        return ShapedText(glyphs: glyphs, minX: 0, minY: -fe.ascent, maxX: widest,
                          maxY: Double(lines.count - 1) * lineHeight + fe.descent)
    }
}
