import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// How many of the labels MapLibre Native places for the shipped styles Meridian places at the
/// same spot: a figure (printed per view, recorded in docs/MAP-ENGINE.md, "Against MapLibre"),
/// held to the floor measured when it was written so a placement change that loses agreement
/// shows up.
///
/// pymgl has no query for placed symbols, so MapLibre's labels are found in its pixels: it
/// draws only the symbol layers, halos and icons off, over black, each text in its own colour
/// (a `match` on the text), with glyphs made here from the very font Meridian uses, each a
/// solid box of the glyph's advance by the font's ascent and descent. A label is then one
/// rectangle (or a bent run of them) of one colour: its centre is MapLibre's text box centre,
/// compared with the centre of Meridian's `map.labels` box for the same text.
///
/// Needs the python of scripts/maplibre-venv.sh (`MapLibreReference`).
final class MapLibreLabelComparisonTests: XCTestCase {
    struct View {
        var name: String
        var lat: Double, lon: Double, zoom: Double
        /// Matched share measured when the comparison was written; the test allows 0.1 less.
        var floor: Double
    }

    static let views = [
        View(name: "europe", lat: 52, lon: 15, zoom: 5, floor: 0.89),
        View(name: "helsinki-z13", lat: 60.17, lon: 24.94, zoom: 13, floor: 1),
        View(name: "helsinki-centre", lat: 60.170, lon: 24.944, zoom: 15, floor: 0.96),
        View(name: "helsinki-street", lat: 60.1685, lon: 24.9425, zoom: 17, floor: 0.5),
    ]
    static let size = (width: 1024, height: 768)
    /// Centres this close (px) count as the same anchor.
    static let tolerance = 4.0

    func testMapLibresPlacedLabelsAreMostlyWhereMeridianPlacesThem() throws {
        _ = try MapLibreReference.python()   // fails at once, before Meridian's placements, without MapLibre
        let repo = ShippedDataTests.dataDirectory.deletingLastPathComponent()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-maplibre-labels-\(getpid())")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let files = ["world", "helsinki"].map { repo.appendingPathComponent("data/\($0).mbtiles").path }
        let styles = ["world", "openmaptiles"].map { repo.appendingPathComponent("data/styles/\($0).json").path }
        // Kept beside the pictures when asked for them, to try MapLibre by hand.
        let glyphs = ProcessInfo.processInfo.environment["MERIDIAN_MAPLIBRE_PNG_DIR"].map { URL(fileURLWithPath: $0).appendingPathComponent("glyphs") }
            ?? out.appendingPathComponent("glyphs")
        for stack in try Self.fontStacks(styles) { try GlyphBoxes.write(stack: stack, into: glyphs) }

        // Meridian's placement of each view, from scratch (nothing shown before).
        let sources = try files.map { try MBTilesSource(path: $0) as any VectorTileSource }
        let auto = AutomaticStyle.make(for: sources)
        let size = ViewSize(width: Double(Self.size.width), height: Double(Self.size.height))
        var ours: [[MapLabel]] = []
        var everything: [[MapLabel]] = []
        var texts = Set<String>()
        for v in Self.views {
            let renderer = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: auto.sources, style: auto.style), scale: 1))
            let camera = MapCamera(center: Coordinate(latitude: v.lat, longitude: v.lon), zoom: v.zoom, size: size)
            // Labels whose text gave way to their icon show no text: not text labels to compare.
            let settled = renderer.settledLabels(for: camera)
            everything.append(settled)
            ours.append(settled.filter { !($0.icon?.alone ?? false) })
            for set in renderer.cache.renderNowWithLabels(renderer.tiles(for: camera)).labels.values {
                for c in set.candidates where !c.text.isEmpty { texts.insert(c.text) }
            }
        }
        // One colour per text: one channel at 255 and two free, so a glyph's antialiased edge
        // (every channel scaled down) never reads as another text's colour.
        let ordered = texts.sorted()
        XCTAssertLessThan(ordered.count, Self.capacity, "more texts than colours")
        var colors: [String: String] = [:]
        for (i, t) in ordered.enumerated() { colors[t] = Self.hex(Self.color(i)) }
        let job: [String: Any] = [
            "layers": zip(styles, files).map { [$0, $1] }, "sizes": [[Self.size.width, Self.size.height]],
            "views": Self.views.map { [$0.name, $0.lat, $0.lon, $0.zoom] as [Any] }, "mode": "render", "out": out.path,
            "labels": ["glyphs": "file://\(glyphs.path)/{fontstack}/{range}.pbf", "colors": colors, "fallback": "#ffffff"],
        ]
        XCTAssertEqual(try MapLibreReference.run("scripts/bench/maplibre_render.py", input: try JSONSerialization.data(withJSONObject: job)), 0,
                       "maplibre_render.py")

        var allMatched = 0, allTheirs = 0, allOurs = 0
        for (v, (mine, all)) in zip(Self.views, zip(ours, everything)) {
            let rgba = try Data(contentsOf: out.appendingPathComponent("\(Self.size.width)x\(Self.size.height)-\(v.name).rgba"))
            XCTAssertEqual(rgba.count, Self.size.width * Self.size.height * 4)
            if let dir = ProcessInfo.processInfo.environment["MERIDIAN_MAPLIBRE_PNG_DIR"] {
                try rgba.write(to: URL(fileURLWithPath: "\(dir)/maplibre-labels-\(v.name).rgba"))
                // Every label, icons alone included, with its layer and icon.
                let json = all.map { l -> [String: Any] in
                    var d: [String: Any] = ["text": l.text, "layer": l.layer, "box": [l.box.x, l.box.y, l.box.width, l.box.height],
                                            "collision": l.collisionBoxes.map { [$0.x, $0.y, $0.width, $0.height] }]
                    if let i = l.icon { d["icon"] = ["image": i.image, "alone": i.alone, "box": [i.box.x, i.box.y, i.box.width, i.box.height]] as [String: Any] }
                    return d
                }
                try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: "\(dir)/meridian-labels-\(v.name).json"))
                let found = Self.labels(in: rgba, width: Self.size.width, height: Self.size.height, texts: ordered)
                let theirs = found.map { ["text": $0.text, "box": [$0.minX, $0.minY, $0.maxX - $0.minX + 1, $0.maxY - $0.minY + 1]] as [String: Any] }
                try JSONSerialization.data(withJSONObject: theirs).write(to: URL(fileURLWithPath: "\(dir)/maplibre-labels-\(v.name).json"))
            }
            let found = Self.labels(in: rgba, width: Self.size.width, height: Self.size.height, texts: ordered)
            // MapLibre shows labels cut by the view's edge; Meridian shows a label only whole
            // (docs/MAP-ENGINE.md): those are counted apart.
            let theirs = found.filter { $0.minX > 0 && $0.minY > 0 && $0.maxX < Self.size.width - 1 && $0.maxY < Self.size.height - 1 }
            let r = Self.match(theirs: theirs, ours: mine)
            allMatched += r.matched; allTheirs += theirs.count; allOurs += mine.count
            print(String(format: "maplibre-labels %@: %d of MapLibre's %d labels placed by Meridian within %.0f px (%.0f %%); same text elsewhere %d; Meridian places %d (MapLibre's %d cut by the edge not counted)",
                         v.name, r.matched, theirs.count, Self.tolerance, 100 * r.share, r.elsewhere, mine.count, found.count - theirs.count))
            for line in r.misses.prefix(12) { print("  miss \(v.name): \(line)") }
            print("  Meridian's unmatched by layer: \(r.extra.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); icons shown without their text (not compared): \(all.count - mine.count)")
            XCTAssertGreaterThan(theirs.count, 0, "\(v.name): MapLibre placed no label the colours could find")
            XCTAssertGreaterThanOrEqual(r.share, v.floor - 0.1, "\(v.name): share of MapLibre's labels Meridian places alike")
        }
        print("maplibre-labels all: \(allMatched) of MapLibre's \(allTheirs); Meridian places \(allOurs)")
    }

    // MARK: colours

    /// Levels per free channel: MapLibre blends small text's edges (and, below about 12 px,
    /// its whole body) towards the black behind, which scales every channel alike, so the
    /// free channels are read as a share of the full one, in steps coarse enough for that.
    static let levels = 32
    /// Free channels stay at most 220, well below the full one's 255.
    static let step = 7
    static var capacity: Int { 3 * levels * levels }

    /// One channel full, two free: the full channel tells a pixel of text from its blend with black.
    static func color(_ i: Int) -> (r: Int, g: Int, b: Int) {
        let free = i % (levels * levels)
        let a = (free / levels) * step + 3, b = (free % levels) * step + 3
        switch i / (levels * levels) {
        case 0: return (255, a, b)
        case 1: return (a, 255, b)
        default: return (a, b, 255)
        }
    }

    /// The text index of a pixel, -1 for the fallback (white), nil for background or a pixel
    /// too faint to read.
    static func index(r: Int, g: Int, b: Int) -> Int? {
        let full = max(r, g, b)
        guard full >= 160 else { return nil }
        if min(r, g, b) >= full - 16 { return -1 }
        func level(_ v: Int) -> Int { min(max(Int(((Double(v) * 255 / Double(full) - 3) / Double(step)).rounded()), 0), levels - 1) }
        // Which channel is the full one: the largest, and the other two must sit below it.
        if r == full && g < full - 16 && b < full - 16 { return level(g) * levels + level(b) }
        if g == full && r < full - 16 && b < full - 16 { return levels * levels + level(r) * levels + level(b) }
        if b == full && r < full - 16 && g < full - 16 { return 2 * levels * levels + level(r) * levels + level(g) }
        return nil
    }

    static func hex(_ c: (r: Int, g: Int, b: Int)) -> String { String(format: "#%02x%02x%02x", c.r, c.g, c.b) }

    // MARK: MapLibre's labels from its pixels

    struct Found {
        var text: String
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        var pixels: Int
        var centre: (x: Double, y: Double) { (Double(minX + maxX + 1) / 2, Double(minY + maxY + 1) / 2) }
    }

    /// Each run of one text's colour, pixels at most `gap` apart joined (glyph boxes of one
    /// label touch; the same name twice lies a symbol spacing apart). The fallback colour
    /// (a text Meridian never made a candidate of) counts as a label no one can match.
    static func labels(in rgba: Data, width: Int, height: Int, texts: [String], gap: Int = 2) -> [Found] {
        var owner = [Int32](repeating: -2, count: width * height)
        rgba.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt8.self)
            for k in 0..<(width * height) {
                if let i = index(r: Int(px[4 * k]), g: Int(px[4 * k + 1]), b: Int(px[4 * k + 2])), i < texts.count {
                    owner[k] = Int32(i)
                }
            }
        }
        var seen = [Bool](repeating: false, count: width * height)
        var out: [Found] = []
        var stack: [Int] = []
        for start in 0..<(width * height) where owner[start] != -2 && !seen[start] {
            let who = owner[start]
            seen[start] = true
            stack.append(start)
            var f = Found(text: who < 0 ? "\u{FFFD}" : texts[Int(who)], minX: width, minY: height, maxX: -1, maxY: -1, pixels: 0)
            while let k = stack.popLast() {
                let x = k % width, y = k / width
                f.minX = min(f.minX, x); f.maxX = max(f.maxX, x); f.minY = min(f.minY, y); f.maxY = max(f.maxY, y)
                f.pixels += 1
                for ny in max(0, y - gap)...min(height - 1, y + gap) {
                    for nx in max(0, x - gap)...min(width - 1, x + gap) {
                        let n = ny * width + nx
                        if !seen[n] && owner[n] == who {
                            seen[n] = true
                            stack.append(n)
                        }
                    }
                }
            }
            // Specks (a lone edge pixel that happened to be exact) are no label.
            if f.pixels >= 8 { out.append(f) }
        }
        return out
    }

    /// MapLibre's labels that Meridian places with the same text within `tolerance` px, each of
    /// Meridian's labels used once, nearest first.
    static func match(theirs: [Found], ours: [MapLabel]) -> (matched: Int, elsewhere: Int, share: Double, misses: [String], extra: [String: Int]) {
        var byText: [String: [(x: Double, y: Double)]] = [:]
        for l in ours { byText[l.text, default: []].append((l.box.x + l.box.width / 2, l.box.y + l.box.height / 2)) }
        var pairs: [(d: Double, a: Int, b: String, bi: Int)] = []
        for (a, f) in theirs.enumerated() {
            for (bi, c) in (byText[f.text] ?? []).enumerated() {
                pairs.append((hypot(c.x - f.centre.x, c.y - f.centre.y), a, f.text, bi))
            }
        }
        pairs.sort { $0.d < $1.d }
        var usedA = Set<Int>(), usedB = Set<String>()
        var matched = 0
        var nearest: [Int: Double] = [:]
        for p in pairs {
            nearest[p.a] = min(nearest[p.a] ?? .infinity, p.d)
            let key = p.b + "\u{1}\(p.bi)"
            guard p.d <= tolerance, !usedA.contains(p.a), !usedB.contains(key) else { continue }
            usedA.insert(p.a); usedB.insert(key)
            matched += 1
        }
        var misses: [String] = []
        var elsewhere = 0
        for (a, f) in theirs.enumerated() where !usedA.contains(a) {
            if let d = nearest[a] { elsewhere += 1; misses.append(String(format: "%@ at (%.0f, %.0f): Meridian's nearest %.1f px away", f.text, f.centre.x, f.centre.y, d)) }
            else { misses.append(String(format: "%@ at (%.0f, %.0f): not placed by Meridian", f.text, f.centre.x, f.centre.y)) }
        }
        // Meridian's labels MapLibre has nowhere near, by layer.
        var extra: [String: Int] = [:]
        var index: [String: Int] = [:]
        for l in ours {
            let bi = index[l.text, default: 0]
            index[l.text] = bi + 1
            if !usedB.contains(l.text + "\u{1}\(bi)") { extra[l.layer, default: 0] += 1 }
        }
        return (matched, elsewhere, theirs.isEmpty ? 0 : Double(matched) / Double(theirs.count), misses, extra)
    }

    // MARK: glyphs

    /// Every `text-font` stack the styles name (MapLibre asks for the names joined by commas).
    static func fontStacks(_ styles: [String]) throws -> Set<String> {
        var out = Set<String>()
        for path in styles {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            for layer in json?["layers"] as? [[String: Any]] ?? [] {
                guard layer["type"] as? String == "symbol" else { continue }
                let fonts = (layer["layout"] as? [String: Any])?["text-font"] as? [String] ?? ["Open Sans Regular", "Arial Unicode MS Regular"]
                out.insert(fonts.joined(separator: ","))
            }
        }
        return out
    }
}

/// Glyph range files (MapLibre's glyph PBFs) in which every glyph the font Meridian would use
/// for the stack has is a solid box: its advance wide, the font's ascent plus descent tall,
/// with the metrics cairo gives Meridian at MapLibre's 24 px em. MapLibre places text from
/// these metrics (advances, the 24 px em), so its placement is the one real glyphs would get;
/// only the drawing differs, which is what makes each label a findable rectangle.
enum GlyphBoxes {
    static let em = 24.0
    /// MapLibre's glyph bitmaps carry this many px of border.
    static let border = 3
    static let ranges = 0..<48

    static func write(stack: String, into directory: URL) throws {
        let first = stack.split(separator: ",").first.map(String.init) ?? stack
        let mapped = SymbolLayout.fontconfig(first)
        var style = TextStyle()
        style.fontFamilies = [mapped.family]
        style.bold = mapped.bold
        style.italic = mapped.italic
        guard let font = LabelFonts.shared.font(style, size: em) else { throw CocoaError(.featureUnsupported) }
        defer { cairo_scaled_font_destroy(font) }
        var fe = cairo_font_extents_t()
        cairo_scaled_font_extents(font, &fe)
        let height = Int(fe.ascent.rounded() + fe.descent.rounded())
        // MapLibre's `top` counts from one em above the baseline (node-fontnik's convention).
        let top = Int(fe.ascent.rounded() - em)
        let dir = directory.appendingPathComponent(stack)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for r in ranges {
            let lo = r * 256, hi = lo + 255
            var glyphs = Data()
            for cp in lo...hi {
                guard let scalar = Unicode.Scalar(cp), cp >= 0x20, !(0x7F..<0xA0).contains(cp) else { continue }
                var raw: UnsafeMutablePointer<cairo_glyph_t>? = nil
                var count: Int32 = 0
                guard cairo_scaled_font_text_to_glyphs(font, 0, 0, String(Character(scalar)), -1, &raw, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
                      let raw, count == 1 else { continue }
                defer { cairo_glyph_free(raw) }
                guard raw[0].index != 0 else { continue }
                var te = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(font, raw, 1, &te)
                let width = max(Int(te.x_advance.rounded()), 1)
                var g = Data()
                g.field(1, varint: UInt64(cp))
                g.field(2, bytes: box(width: width, height: height))
                g.field(3, varint: UInt64(width))
                g.field(4, varint: UInt64(height))
                g.field(5, sint: 0)
                g.field(6, sint: Int64(top))
                g.field(7, varint: UInt64(te.x_advance.rounded()))
                glyphs.field(3, bytes: g)
            }
            var stackMessage = Data()
            stackMessage.field(1, bytes: Data(stack.utf8))
            stackMessage.field(2, bytes: Data("\(lo)-\(hi)".utf8))
            stackMessage.append(glyphs)
            var file = Data()
            file.field(1, bytes: stackMessage)
            try file.write(to: dir.appendingPathComponent("\(lo)-\(hi).pbf"))
        }
    }

    /// A signed distance field that is "inside" over the whole glyph box, "outside" on the border.
    static func box(width: Int, height: Int) -> Data {
        let w = width + 2 * border, h = height + 2 * border
        var d = Data(count: w * h)
        for y in border..<(border + height) {
            for x in border..<(border + width) { d[y * w + x] = 255 }
        }
        return d
    }
}

private extension Data {
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            append(UInt8(v & 0x7F | 0x80))
            v >>= 7
        }
        append(UInt8(v))
    }
    mutating func field(_ n: Int, varint v: UInt64) {
        varint(UInt64(n << 3))
        varint(v)
    }
    mutating func field(_ n: Int, sint v: Int64) { field(n, varint: UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
    mutating func field(_ n: Int, bytes: Data) {
        varint(UInt64(n << 3 | 2))
        varint(UInt64(bytes.count))
        append(bytes)
    }
}
