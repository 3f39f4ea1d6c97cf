import CCairo

/// A font the page's text is set in: DejaVu Sans at a size, regular or bold.
struct PageFont: Hashable, Sendable {
    var size: Double
    var bold = false

    /// Makes `cr`'s current font this one.
    func select(_ cr: OpaquePointer) {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }
}

/// Setting text to a width: a paragraph wraps at spaces and keeps one font size (a word longer
/// than the width gets a line of its own and is cut at the edge); a one-line label that does
/// not fit ends in "…". Widths are cairo's advances for the font, in logical px.
enum PageText {
    /// The paragraphs under the header.
    static let intro = ["Scroll the page with one finger, even over the map.",
                        "Move and zoom the map with two fingers; double-tap, or double-tap and drag, to zoom. Drag the pins."]
    static let introFont = PageFont(size: 16)
    /// The paragraphs after the list ("" is a blank line between them).
    static let about = ["Streets and buildings: OpenStreetMap (ODbL), a central Helsinki extract.",
                        "Coasts, countries and places: Natural Earth (public domain).",
                        "Everything is read from MBTiles or PMTiles files on this device; nothing goes online.",
                        "",
                        "Keyboard: +/- zoom, Tab moves between targets, Return activates, arrows pan the map once it has focus, "
                            + "Page Up/Down and Space scroll."]
    static let aboutFont = PageFont(size: 15)
    /// Lines of paragraph text are this far apart, in logical px.
    static let lineHeight = 24.0

    /// `text`'s advance in `font`, measured with `cr` (its font is changed).
    static func width(_ text: String, _ font: PageFont, _ cr: OpaquePointer) -> Double {
        font.select(cr)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// `paragraph` broken into lines no wider than `width` in `font`, at spaces.
    static func wrap(_ paragraph: String, _ font: PageFont, width: Double, _ cr: OpaquePointer) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || PageText.width(candidate, font, cr) <= width {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines
    }

    /// Every paragraph of `paragraphs` wrapped; an empty one stays one blank line.
    static func wrap(_ paragraphs: [String], _ font: PageFont, width: Double, _ cr: OpaquePointer) -> [String] {
        paragraphs.flatMap { $0.isEmpty ? [""] : wrap($0, font, width: width, cr) }
    }

    /// `label` as it fits in `width`: whole, or cut at a character and ended with "…".
    static func fit(_ label: String, _ font: PageFont, width: Double, _ cr: OpaquePointer) -> String {
        guard PageText.width(label, font, cr) > width else { return label }
        var chars = Array(label)
        while !chars.isEmpty {
            chars.removeLast()
            let s = String(chars).trimmingSuffixSpaces() + "…"
            if PageText.width(s, font, cr) <= width { return s }
        }
        return "…"
    }

    /// Runs `body` with a cairo context for measuring (a 1×1 image surface, nothing drawn).
    static func measuring<T>(_ body: (OpaquePointer) -> T) -> T {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let cr = cairo_create(surface)!
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        return body(cr)
    }
}

private extension String {
    func trimmingSuffixSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
