import CCairo
import CFriBidi
import CHarfBuzz
import Style
import Synchronization

/// One glyph of a shaped label: the font's glyph index and where it sits, in logical px from
/// the text's origin (the left end of the first line's baseline), in visual order (left to
/// right as drawn, whatever the text's direction).
struct ShapedGlyph: Sendable, Equatable {
    var index: UInt
    /// The font it comes from: its place in the style's fallback list (`LabelFonts.font`).
    var font: Int
    var x: Double
    var y: Double
    /// How far the pen moves past it (letter spacing included); 0 for a mark over its base.
    var advance: Double
    /// Glyphs made from the same characters (a conjunct with its vowel signs, a letter with
    /// its marks, a ligature) share a cluster: text along a line moves them as one.
    var cluster: Int = 0
    /// How far the glyph is drawn right of the pen (HarfBuzz's offset: a mark over its base).
    var offset: Double = 0
}

/// A label's text turned into glyphs once, on a tile worker: lines broken at `text-max-width`,
/// justified, with the box the ink and its halo take.
///
/// Glyphs come from the fonts fontconfig lists for the family (DejaVu Sans on Debian), each
/// run of characters from the first of them that has it, shaped by HarfBuzz (Arabic joined,
/// Indic conjuncts formed) and put in visual order by FriBidi's levels (right-to-left runs
/// read right to left); a character none has becomes the first font's missing-glyph box with
/// its own advance, so the layout around it never breaks.
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
        /// Each face's HarfBuzz font (0: none, the file is no OpenType font HarfBuzz reads;
        /// cairo then maps characters to glyphs alone) and its units per em.
        var shapers: [UInt]
        var unitsPerEm: [Double]
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
            var made = FallbackList(faces: [], charsets: [], shapers: [], unitsPerEm: [])
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
                // HarfBuzz reads the same file cairo's FreeType face does, so its glyph ids are
                // the ones cairo draws.
                var file: UnsafeMutablePointer<FcChar8>? = nil
                var index: Int32 = 0
                var shaper = (font: UInt(0), upem: 0.0)
                if FcPatternGetString(prepared, FC_FILE, 0, &file) == FcResultMatch, let file {
                    _ = FcPatternGetInteger(prepared, FC_INDEX, 0, &index)
                    shaper = Self.shaper(path: String(cString: file), index: index)
                }
                made.shapers.append(shaper.font)
                made.unitsPerEm.append(shaper.upem)
                FcPatternDestroy(prepared)
            }
            return made
        }
    }

    /// A HarfBuzz font for face `index` of the font file at `path`, at its units per em (so
    /// positions come in font units), made immutable so every thread may shape with it; never
    /// freed. (0, 0) when HarfBuzz cannot read the file or finds no glyphs in it.
    private static func shaper(path: String, index: Int32) -> (font: UInt, upem: Double) {
        // Every face's list holds mostly the same files: each is read once.
        let key = "\(index)\u{1}\(path)"
        if let made = shapers.withLock({ $0[key] }) { return made }
        let made = readShaper(path: path, index: index)
        shapers.withLock { $0[key] = made }
        return made
    }
    private static let shapers = Mutex<[String: (font: UInt, upem: Double)]>([:])

    private static func readShaper(path: String, index: Int32) -> (font: UInt, upem: Double) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return (0, 0) }
        defer { hb_blob_destroy(blob) }
        // The upper 16 bits of fontconfig's index name a variable font's instance: not used here.
        guard let face = hb_face_create(blob, UInt32(index & 0xFFFF)) else { return (0, 0) }
        defer { hb_face_destroy(face) }
        let upem = hb_face_get_upem(face)
        guard upem > 0, hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return (0, 0) }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        return (UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(font))), Double(upem))
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
        guard let buffer = hb_buffer_create() else { return nil }
        defer { hb_buffer_destroy(buffer) }
        let language = style.language.flatMap { tag in tag.withCString { hb_language_from_string($0, -1) } }
        // One line of text: its glyphs at pen positions from the line's start, in visual order.
        func run(_ s: Substring) -> (glyphs: [ShapedGlyph], width: Double) {
            let scalars = Array(s.unicodeScalars)
            var out: [ShapedGlyph] = []
            var pen = 0.0
            let codepoints = scalars.map(\.value)
            // Text before the combining marks (Latin, its punctuation and digits): no mark, no
            // right-to-left, nothing kerned or joined: each character's glyph from the font's
            // character map at its advance, what HarfBuzz would give with kerning and
            // ligatures off, at a fraction of the cost (most labels are such text).
            let simple = codepoints.allSatisfy { $0 < 0x300 }
            for r in Self.visualRuns(scalars, fallbacks, simple: simple) {
                let shaper = r.slot < fallbacks.shapers.count ? fallbacks.shapers[r.slot] : 0
                if simple, shaper != 0, let hb = OpaquePointer(bitPattern: shaper) {
                    let k = size / fallbacks.unitsPerEm[r.slot]
                    for i in r.start..<r.end {
                        var glyph: hb_codepoint_t = 0
                        if hb_font_get_nominal_glyph(hb, codepoints[i], &glyph) == 0 { glyph = 0 }
                        var advance = Double(hb_font_get_glyph_h_advance(hb, glyph)) * k
                        if advance != 0 { advance += spacing }
                        out.append(ShapedGlyph(index: UInt(glyph), font: r.slot, x: pen, y: 0, advance: advance, cluster: i))
                        pen += advance
                    }
                } else if shaper != 0, let hb = OpaquePointer(bitPattern: shaper) {
                    hb_buffer_clear_contents(buffer)
                    // The whole line as context (Arabic joins across a change of font), the run as the item.
                    hb_buffer_add_utf32(buffer, codepoints, Int32(codepoints.count), UInt32(r.start), Int32(r.end - r.start))
                    hb_buffer_set_direction(buffer, r.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
                    hb_buffer_set_script(buffer, r.script)
                    // The label's language picks the font's forms for it (`locl`: a Serbian б);
                    // unknown, HarfBuzz takes the process's locale.
                    if let language { hb_buffer_set_language(buffer, language) }
                    hb_buffer_guess_segment_properties(buffer)
                    if Self.isPlain(r.script) {
                        var features = Self.plainFeatures
                        hb_shape(hb, buffer, &features, UInt32(features.count))
                    } else {
                        hb_shape(hb, buffer, nil, 0)
                    }
                    var count: UInt32 = 0
                    guard let infos = hb_buffer_get_glyph_infos(buffer, &count), count > 0,
                          let positions = hb_buffer_get_glyph_positions(buffer, nil) else { continue }
                    let k = size / fallbacks.unitsPerEm[r.slot]
                    for i in 0..<Int(count) {
                        let p = positions[i]
                        var advance = Double(p.x_advance) * k
                        if advance != 0 { advance += spacing }
                        let offset = Double(p.x_offset) * k
                        out.append(ShapedGlyph(index: UInt(infos[i].codepoint), font: r.slot, x: pen + offset, y: -Double(p.y_offset) * k,
                                               advance: advance, cluster: Int(infos[i].cluster), offset: offset))
                        pen += advance
                    }
                } else {
                    // No HarfBuzz font: cairo's own character-to-glyph mapping, left to right.
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars[r.start..<r.end])
                    guard let f = scaled(r.slot) ?? scaled(0) else { continue }
                    var raw: UnsafeMutablePointer<cairo_glyph_t>? = nil
                    var count: Int32 = 0
                    guard cairo_scaled_font_text_to_glyphs(f, 0, 0, text, -1, &raw, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
                          let raw, count > 0 else { continue }
                    defer { cairo_glyph_free(raw) }
                    for i in 0..<Int(count) {
                        var single = raw[i]
                        var te = cairo_text_extents_t()
                        cairo_scaled_font_glyph_extents(f, &single, 1, &te)
                        let advance = te.x_advance + spacing
                        out.append(ShapedGlyph(index: UInt(raw[i].index), font: r.slot, x: pen, y: 0, advance: advance,
                                               cluster: r.start + min(i, r.end - r.start - 1)))
                        pen += advance
                    }
                }
            }
            return (out, pen)
        }
        var lines: [(glyphs: [ShapedGlyph], width: Double)] = []
        if wrap && style.maxWidth > 0 {
            lines = wrapped(text, limit: style.maxWidth * size, language: style.language, run)
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
            glyphs += line.glyphs.map { g in
                var g = g
                g.x += shift
                g.y += y
                return g
            }
        }
        return ShapedText(glyphs: glyphs, minX: 0, minY: -fe.ascent, maxX: widest,
                          maxY: Double(lines.count - 1) * lineHeight + fe.descent)
    }

    /// A point label's lines at most `limit` px wide where the text allows (`LabelLineBreaks`:
    /// Unicode's break opportunities, balanced as MapLibre balances them), each shaped and
    /// ordered whole by `run`, without the spaces around it. Text that fits on one line and has
    /// no line feed is one line, shaped once.
    private func wrapped(_ text: String, limit: Double, language: String?,
                         _ run: (Substring) -> (glyphs: [ShapedGlyph], width: Double)) -> [(glyphs: [ShapedGlyph], width: Double)] {
        var lines: [(glyphs: [ShapedGlyph], width: Double)] = []
        func add(_ s: Substring) {
            let trimmed = Self.trimmed(s)
            guard !trimmed.isEmpty else { return }
            var line = run(trimmed)
            // Clusters count characters within a line: each line gets its own range.
            for i in line.glyphs.indices { line.glyphs[i].cluster += lines.count << 24 }
            if !line.glyphs.isEmpty { lines.append(line) }
        }
        let whole = Self.trimmed(Substring(text))
        let mandatory = whole.unicodeScalars.contains { [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }
        if !mandatory {
            let one = run(whole)
            if one.width <= limit {
                if !one.glyphs.isEmpty { lines.append(one) }
                return lines
            }
        }
        guard let segments = LabelLineBreaks.segments(String(whole), locale: language ?? ""), segments.count > 1 else {
            add(whole)
            return lines
        }
        let full = segments.map { run($0.text).width }
        let ink = segments.enumerated().map { i, s in
            let t = Self.trimmed(s.text, leading: false)
            return t.unicodeScalars.count == s.text.unicodeScalars.count ? full[i] : run(t).width
        }
        let breaks = LabelLineBreaks.balanced(ink: ink, full: full, hard: segments.map(\.hard), limit: limit)
        var start = 0
        for end in breaks + [segments.count - 1] {
            var line = Substring()
            for s in segments[start...end] { line += s.text }
            add(line)
            start = end + 1
        }
        return lines
    }

    /// `s` without the white space at its ends (only at its end when not `leading`).
    private static func trimmed(_ s: Substring, leading: Bool = true) -> Substring {
        var scalars = s.unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        if leading { while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() } }
        return Substring(scalars)
    }

    // MARK: runs

    /// A stretch of a line drawn by one font, in one script and one bidi level, from
    /// character `start` to `end` (logical order).
    struct Run {
        var start: Int
        var end: Int
        var slot: Int
        var script: hb_script_t
        var level: Int8
    }

    /// The line's runs in visual order, left to right: characters split by font (each from
    /// the first font of the list that has it; marks and joiners stay with the character
    /// before when its font has them), by script (characters of no script take the one before
    /// them), and by FriBidi's embedding level (Unicode's bidi algorithm, the paragraph's
    /// direction from its first strong character), then the runs reversed as rule L2 says.
    /// `simple`: every character is before U+0300 (Latin script or none, left to right).
    private static func visualRuns(_ scalars: [Unicode.Scalar], _ fallbacks: FallbackList, simple: Bool) -> [Run] {
        let n = scalars.count
        guard n > 0 else { return [] }
        var slots = [Int](repeating: 0, count: n)
        var previous: Int?
        for (i, c) in scalars.enumerated() {
            if let p = previous, attaches(c), p < fallbacks.charsets.count,
               FcCharSetHasChar(OpaquePointer(bitPattern: fallbacks.charsets[p]), FcChar32(c.value)) != 0 || c.properties.isJoinControl {
                slots[i] = p
                continue
            }
            // A character no font has stays with the run it is in (its missing-glyph box).
            if let s = slot(for: c, in: fallbacks) { previous = s }
            slots[i] = previous ?? 0
        }
        if simple {
            var runs: [Run] = []
            var i = 0
            while i < n {
                var j = i + 1
                while j < n && slots[j] == slots[i] { j += 1 }
                runs.append(Run(start: i, end: j, slot: slots[i], script: HB_SCRIPT_LATIN, level: 0))
                i = j
            }
            return runs
        }
        let funcs = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(funcs, $0.value) }
        func isReal(_ s: hb_script_t) -> Bool { s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN }
        var last: hb_script_t?
        for i in 0..<n {
            if isReal(scripts[i]) { last = scripts[i] } else if let last { scripts[i] = last }
        }
        if let first = scripts.first(where: isReal) {
            for i in 0..<n where !isReal(scripts[i]) { scripts[i] = first }
        }
        var levels = [Int8](repeating: 0, count: n)
        // Text without a right-to-left or bidi-control character is all left to right.
        if scalars.contains(where: { $0.value >= 0x0590 }) {
            let chars = scalars.map { FriBidiChar($0.value) }
            var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
            var brackets = [FriBidiBracketType](repeating: 0, count: n)
            fribidi_get_bidi_types(chars, FriBidiStrIndex(n), &types)
            fribidi_get_bracket_types(chars, FriBidiStrIndex(n), types, &brackets)
            var base = meridian_fribidi_par_on()
            if fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels) == 0 {
                levels = [Int8](repeating: 0, count: n)
            }
        }
        var runs: [Run] = []
        var i = 0
        while i < n {
            var j = i + 1
            while j < n && slots[j] == slots[i] && scripts[j] == scripts[i] && levels[j] == levels[i] { j += 1 }
            runs.append(Run(start: i, end: j, slot: slots[i], script: scripts[i], level: levels[i]))
            i = j
        }
        // L2: from the highest level down to the lowest odd one, reverse every stretch of runs
        // at that level or higher (each run's glyphs come out of HarfBuzz in visual order).
        guard let highest = levels.max(), highest > 0, let lowest = levels.min() else { return runs }
        var level = Int(highest)
        let stop = Int(lowest) | 1
        while level >= stop {
            var a = 0
            while a < runs.count {
                guard Int(runs[a].level) >= level else { a += 1; continue }
                var b = a
                while b < runs.count && Int(runs[b].level) >= level { b += 1 }
                runs[a..<b].reverse()
                a = b
            }
            level -= 1
        }
        return runs
    }

    /// Marks and joiners: drawn with the character they follow.
    private static func attaches(_ c: Unicode.Scalar) -> Bool {
        // Nothing before the combining diacritics attaches (most text: one comparison, not a
        // look-up of the character's properties).
        if c.value < 0x300 { return false }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return c.properties.isJoinControl || c.properties.isVariationSelector
        }
    }

    /// Scripts that read well one glyph per character (and whose advances MapLibre's layout
    /// and the earlier per-character layout used): shaped without kerning or optional
    /// ligatures, so their labels keep that layout. Every other script gets its font's full
    /// shaping.
    static func isPlain(_ s: hb_script_t) -> Bool {
        [HB_SCRIPT_LATIN, HB_SCRIPT_GREEK, HB_SCRIPT_CYRILLIC, HB_SCRIPT_ARMENIAN, HB_SCRIPT_GEORGIAN, HB_SCRIPT_HAN,
         HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_BOPOMOFO, HB_SCRIPT_HANGUL, HB_SCRIPT_COMMON,
         HB_SCRIPT_INHERITED, HB_SCRIPT_UNKNOWN].contains(s)
    }

    /// Kerning and optional ligatures off, over the whole buffer.
    static let plainFeatures: [hb_feature_t] = ["kern", "liga", "clig"].map { name in
        hb_feature_t(tag: name.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }, value: 0, start: 0, end: UInt32.max)
    }
}
