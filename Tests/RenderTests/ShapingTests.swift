import CCairo
import Foundation
import Geo
import Style
import XCTest
@testable import Render

/// Label text shaped by HarfBuzz and ordered by FriBidi: Arabic joined, right-to-left text in
/// visual order, Devanagari conjuncts formed, Latin laid out as before. DejaVu Sans (the
/// default family) has Latin, Arabic and Hebrew; Devanagari comes from Lohit Devanagari
/// (scripts/install-deps.sh test installs fonts-lohit-deva).
final class ShapingTests: XCTestCase {
    var style: TextStyle {
        var s = TextStyle()
        s.size = 20
        return s
    }

    func shape(_ text: String) throws -> ShapedText {
        try XCTUnwrap(LabelFonts.shared.shape(text, style: style, wrap: false), text)
    }

    /// The glyph a character gets shaped alone: its isolated form.
    func isolated(_ c: Character) throws -> ShapedGlyph {
        let s = try shape(String(c))
        XCTAssertEqual(s.glyphs.count, 1, "\(c) alone is one glyph")
        return try XCTUnwrap(s.glyphs.first)
    }

    func assertAdvancing(_ s: ShapedText, file: StaticString = #filePath, line: UInt = #line) {
        for (a, b) in zip(s.glyphs, s.glyphs.dropFirst()) where b.advance > 0 && a.advance > 0 {
            XCTAssertGreaterThan(b.x, a.x, "glyphs in visual order, left to right", file: file, line: line)
        }
    }

    func testTheLabelsLanguagePicksTheFontsFormsForIt() throws {
        // DejaVu Sans draws a Serbian and Macedonian б (U+0431) unlike the Russian one (its
        // `locl` feature): a name read from name:sr ("бања", a spa) is shaped as Serbian.
        func glyphs(_ language: String?) throws -> [UInt] {
            var st = style
            st.language = language
            return try XCTUnwrap(LabelFonts.shared.shape("бања", style: st, wrap: false)).glyphs.map(\.index)
        }
        let serbian = try glyphs("sr"), russian = try glyphs("ru")
        XCTAssertNotEqual(serbian.first, russian.first, "Serbian б")
        XCTAssertEqual(Array(serbian.dropFirst()), Array(russian.dropFirst()), "the other letters are the same")
        XCTAssertEqual(try glyphs("mk").first, serbian.first, "Macedonian as Serbian")
        XCTAssertEqual(try glyphs("bg"), russian)
    }

    func testArabicLettersTakeTheirJoinedForms() throws {
        // ب ي ت: three letters that join on both sides: initial, medial and final forms.
        let word = "بيت"
        let joined = try shape(word)
        let alone = try word.map(isolated)
        XCTAssertEqual(joined.glyphs.count, 3)
        // Visual order: the first letter (ب, initial form) is the rightmost glyph.
        let ids = joined.glyphs.map(\.index)
        for (form, letter) in zip(ids.reversed(), alone) {
            XCTAssertNotEqual(form, letter.index, "a joined form, not the isolated one")
        }
        XCTAssertLessThan(joined.width, alone.map(\.advance).reduce(0, +) - 1, "joined letters are narrower than isolated ones side by side")
        assertAdvancing(joined)
    }

    func testArabicIsDrawnAsOneConnectedWord() throws {
        // Drawn without a halo: along the baseline of a joined word every column between its
        // first and last ink has ink (the letters' connecting strokes); the same letters kept
        // apart by zero-width non-joiners (isolated forms) leave gaps.
        var st = style
        st.haloWidth = 0
        func emptyColumns(_ text: String) throws -> Int {
            let shaped = try XCTUnwrap(LabelFonts.shared.shape(text, style: st, wrap: false))
            let (placed, image) = try LabelPlacerTests.pointLabel(text, style: st, shaped: shaped)
            let surface = image.surface
            cairo_surface_flush(surface)
            let stride = Int(cairo_image_surface_get_stride(surface)), w = Int(cairo_image_surface_get_width(surface))
            let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
            // The rows just above the baseline (the anchor's baseline: the first glyph's y).
            let baseline = Int((try XCTUnwrap(placed.glyphs.first).y - image.dy).rounded())
            let inked = (0..<w).map { x in ((baseline - 6)...(baseline + 1)).contains { y in data[y * stride + 4 * x + 3] > 64 } }
            guard let first = inked.firstIndex(of: true), let last = inked.lastIndex(of: true) else { return -1 }
            return inked[first...last].filter { !$0 }.count
        }
        XCTAssertEqual(try emptyColumns("بيت"), 0)
        XCTAssertGreaterThan(try emptyColumns("ب\u{200C}ي\u{200C}ت"), 1)
    }

    func testHebrewIsInVisualOrder() throws {
        // שלום: read right to left, so drawn left to right it starts with the last letter.
        let word = "שלום"
        let s = try shape(word)
        let letters = try word.map(isolated)
        XCTAssertEqual(s.glyphs.map(\.index), letters.reversed().map(\.index))
        assertAdvancing(s)
    }

    func testMixedLatinAndArabicAreInVisualOrder() throws {
        let latin = try shape("Cairo").glyphs.map(\.index)
        let alef = try isolated("ا").index  // القاهرة starts with an alef, which never joins to its left
        // A Latin-first label reads left to right, the Arabic word right to left after it.
        let ltr = try shape("Cairo القاهرة")
        XCTAssertEqual(Array(ltr.glyphs.prefix(5).map(\.index)), latin)
        XCTAssertEqual(ltr.glyphs.last?.index, alef, "the Arabic word's first letter is its rightmost")
        assertAdvancing(ltr)
        // An Arabic-first label is a right-to-left line: the Arabic on the right, the Latin left of it.
        let rtl = try shape("القاهرة Cairo")
        XCTAssertEqual(Array(rtl.glyphs.prefix(5).map(\.index)), latin)
        XCTAssertEqual(rtl.glyphs.last?.index, alef)
        assertAdvancing(rtl)
        XCTAssertEqual(rtl.width, ltr.width, accuracy: 0.01)
    }

    func testDevanagariFormsConjunctsAndPutsTheIVowelFirst() throws {
        // हिन्दी: ह ि न ् द ी. The vowel sign ि is drawn before (left of) the consonant it
        // follows, and न with the virama becomes a half form joined to द.
        let word = "हिन्दी"
        let s = try shape(word)
        XCTAssertLessThan(s.glyphs.count, word.unicodeScalars.count, "न + ् make one half form")
        XCTAssertTrue(s.glyphs.allSatisfy { $0.font != 0 }, "drawn by a font that has Devanagari, not DejaVu's missing-glyph box")
        let ha = try shape("ह").glyphs.map(\.index), sign = try shape("ि").glyphs.map(\.index)
        XCTAssertEqual(s.glyphs.count > 1 ? s.glyphs[1].index : nil, ha.first, "ह second from the left")
        XCTAssertFalse(sign.isEmpty)
        XCTAssertNotEqual(s.glyphs.first?.index, ha.first, "the vowel sign first")
        let na = try shape("न").glyphs.map(\.index)
        XCTAssertFalse(s.glyphs.contains { na.contains($0.index) }, "no full न: its half form")
        // क्ष is one conjunct glyph.
        let ksha = try shape("क्ष")
        XCTAssertEqual(ksha.glyphs.count, 1)
        XCTAssertNotEqual(ksha.glyphs.first?.index, try shape("क").glyphs.first?.index)
    }

    func testLatinKeepsOneGlyphPerCharacterAtTheFontsAdvances() throws {
        // What cairo's own mapping gives (the layout before HarfBuzz, and MapLibre's): no
        // kerning (AV, To), no ligatures (ffi), the same glyphs at the same places.
        // Latin alone (the character-map path) and with Cyrillic and Greek (shaped by HarfBuzz).
        for text in ["AVATAR Toffee office Wolf Ærø", "AVATAR Toffee office Wolf Москва Αθήνα"] {
            let s = try shape(text)
            let font = try XCTUnwrap(LabelFonts.shared.font(style, size: style.size))
            defer { cairo_scaled_font_destroy(font) }
            var raw: UnsafeMutablePointer<cairo_glyph_t>? = nil
            var count: Int32 = 0
            XCTAssertEqual(cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &raw, &count, nil, nil, nil), CAIRO_STATUS_SUCCESS)
            defer { cairo_glyph_free(raw) }
            let glyphs = try XCTUnwrap(raw)
            XCTAssertEqual(s.glyphs.count, Int(count))
            XCTAssertEqual(s.glyphs.count, text.unicodeScalars.count)
            for (i, g) in s.glyphs.enumerated() {
                XCTAssertEqual(g.index, UInt(glyphs[i].index), text)
                XCTAssertEqual(g.x, glyphs[i].x, accuracy: 1e-6, text)
                XCTAssertEqual(g.y, 0)
            }
            XCTAssertEqual(s.width, try XCTUnwrap(s.glyphs.last).x + s.glyphs.last!.advance, accuracy: 1e-9)
        }
    }

    func testBidiControlsAndOddTextKeepALayout() throws {
        // A right-to-left override turns Latin letters round: "abc" drawn as "cba".
        let forward = try shape("abc").glyphs.map(\.index)
        let overridden = try shape("\u{202E}abc\u{202C}")
        XCTAssertEqual(overridden.glyphs.filter { $0.advance > 0 }.map(\.index), forward.reversed())
        // Marks with nothing to sit on: glyphs (of no width), and a label image can be drawn.
        let marks = try shape("\u{0301}\u{0301}")
        XCTAssertFalse(marks.glyphs.isEmpty)
        XCTAssertNoThrow(try LabelPlacerTests.pointLabel("\u{0301}\u{0301}", style: style, shaped: marks))
        // Joiners between Latin letters, a long mixed name: glyphs, in order, and a width.
        for text in ["a\u{200D}b\u{200C}c", String(repeating: "مرحبا Hello שלום 123 ", count: 300)] {
            let s = try shape(text)
            XCTAssertFalse(s.glyphs.isEmpty)
            XCTAssertGreaterThan(s.width, 0)
            assertAdvancing(s)
        }
    }

    func testTextAlongALineUsesTheShapedGlyphsAndKeepsClustersTogether() throws {
        let camera = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 512, height: 512))
        func along(_ text: String, _ path: [WorldPoint]) throws -> (ShapedText, PlacedLabel) {
            let shaped = try shape(text)
            // The anchor half way along the path's middle segment.
            let segment = (path.count - 1) / 2
            let a = path[segment], b = path[segment + 1]
            let c = LabelCandidate(layerID: "t", text: text, style: style, shaped: shaped, placement: .line, spacing: 250,
                                   anchor: WorldPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), path: path,
                                   anchorSegment: segment, anchorFraction: 0.5,
                                   priority: LabelPriority(layerIndex: 0, sortKey: 0, featureIndex: 0, x: 0, y: 0), identity: 2)
            return (shaped, try XCTUnwrap(LabelPlacer(camera: camera).layout(c), text))
        }
        // A straight street, digitised either way: the Arabic name's joined glyphs, in the
        // same visual order as a point label's, left to right on screen.
        let street = [WorldPoint(x: 126, y: 136), WorldPoint(x: 146, y: 136)]
        for path in [street, street.reversed()] {
            let (shaped, placed) = try along("شارع بيروت", path)
            XCTAssertEqual(placed.glyphs.map(\.index), shaped.glyphs.map(\.index))
            for (a, b) in zip(placed.glyphs, placed.glyphs.dropFirst()) { XCTAssertLessThan(a.x, b.x) }
            for (p, s) in zip(placed.glyphs, shaped.glyphs) {
                XCTAssertEqual(p.x - placed.glyphs[0].x, s.x - shaped.glyphs[0].x, accuracy: 1e-6, "spaced as shaped")
            }
        }
        // Round a bend: a Devanagari name's clusters (a consonant with its vowel signs and
        // half forms) each turn as one, so a sign never parts from its consonant.
        let bend = (0...20).map { i -> WorldPoint in
            let t = Double(i) / 20 * Double.pi / 3 - Double.pi / 6
            return WorldPoint(x: 136 + 14 * sin(t), y: 150 - 14 * cos(t))
        }
        let (shaped, placed) = try along("हिन्दी नगर", bend)
        XCTAssertEqual(placed.glyphs.map(\.index), shaped.glyphs.map(\.index))
        let clusters = Set(shaped.glyphs.map(\.cluster))
        XCTAssertLessThan(clusters.count, shaped.glyphs.count, "some cluster holds several glyphs")
        XCTAssertEqual(placed.collision.count, clusters.count)
        XCTAssertEqual(placed.clusterAngles.count, clusters.count)
        var angleOf: [Int: Double] = [:]
        for (g, s) in zip(placed.glyphs, shaped.glyphs) {
            if let a = angleOf[s.cluster] { XCTAssertEqual(g.angle, a, "one angle per cluster") } else { angleOf[s.cluster] = g.angle }
        }
        XCTAssertGreaterThan(Set(angleOf.values).count, 3, "the clusters follow the bend")
    }
}
