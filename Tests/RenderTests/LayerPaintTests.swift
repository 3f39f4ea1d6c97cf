import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Paint properties beyond colour and width, by pixels of one drawn tile (256 px at scale 1,
/// tile units / 16 = px): `line-gap-width`, `*-translate`, `*-sort-key`, `fill-pattern`,
/// `line-pattern`; and `*-translate-anchor: viewport` on a turned frame.
final class LayerPaintTests: XCTestCase {
    /// A tile drawn with one layer over `features` in source layer "shapes" on white.
    func tile(_ layerJSON: String, _ features: [VectorFeature], sprite: Bool = false, spriteBase: String? = nil,
              id: TileID = TileID(z: 4, x: 8, y: 8)) throws -> RasterImage {
        let base = spriteBase ?? (sprite ? SpriteIconTests.spriteBase : nil)
        let spriteMember = base.map { "\"sprite\": \"\($0)\"," } ?? ""
        let json = """
        {"version": 8, \(spriteMember) "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
                    {"id": "it", "source": "s", "source-layer": "shapes", \(layerJSON)}]}
        """
        let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
        XCTAssertEqual(style.notes, [], "every property used is supported")
        let source = FixtureSource(every: VectorTile(layers: [Fixture.layer("shapes", features)]))
        let r = TileRasterizer(sources: [StyledSource(id: "s", source: source)], style: style)
        return try XCTUnwrap(r.render(id, scale: 1)).image
    }

    func testAGapWidthDrawsTwoLinesEitherSideOfTheGap() throws {
        let road = Fixture.line([(0, 2048), (4096, 2048)])
        let image = try tile(##""type": "line", "paint": {"line-color": "#0000FF", "line-width": 2, "line-gap-width": 6}"##, [road])
        // The line's middle (y 128) is the gap; each casing 2 px wide at 3…5 px from it.
        XCTAssertEqual(image.rgb(x: 100, y: 128), 0xFFFFFF, "the gap")
        XCTAssertEqual(image.rgb(x: 100, y: 124), 0x0000FF, "the casing above")
        XCTAssertEqual(image.rgb(x: 100, y: 132), 0x0000FF, "the casing below")
        XCTAssertEqual(image.rgb(x: 100, y: 120), 0xFFFFFF, "outside")
    }

    func testTranslateMovesTheLayer() throws {
        let square = Fixture.rect(1024, 1024, 3072, 3072)
        let plain = try tile(##""type": "fill", "paint": {"fill-color": "#FF0000"}"##, [square])
        let moved = try tile(##""type": "fill", "paint": {"fill-color": "#FF0000", "fill-translate": [10, -5]}"##, [square])
        // The square spans px 64…192; moved 10 right and 5 up.
        XCTAssertEqual(plain.rgb(x: 66, y: 100), 0xFF0000)
        XCTAssertEqual(moved.rgb(x: 66, y: 100), 0xFFFFFF)
        XCTAssertEqual(moved.rgb(x: 76, y: 100), 0xFF0000)
        XCTAssertEqual(moved.rgb(x: 100, y: 189), 0xFFFFFF, "its bottom edge moved up")
        XCTAssertEqual(moved.rgb(x: 198, y: 100), 0xFF0000, "its right edge moved right")
        let line = try tile(##""type": "line", "paint": {"line-color": "#00FF00", "line-width": 2, "line-translate": [0, 8]}"##,
                            [Fixture.line([(0, 2048), (4096, 2048)])])
        XCTAssertEqual(line.rgb(x: 50, y: 128), 0xFFFFFF)
        XCTAssertEqual(line.rgb(x: 50, y: 136), 0x00FF00)
    }

    func testSortKeysOrderFeaturesWithinALayer() throws {
        // Red comes first in the data but has the higher key: drawn last, so on top.
        let red = Fixture.rect(0, 0, 3000, 3000, props: ["c": .string("#FF0000"), "k": .int(2)])
        let blue = Fixture.rect(1000, 1000, 4096, 4096, props: ["c": .string("#0000FF"), "k": .int(1)])
        let sorted = try tile(##""type": "fill", "layout": {"fill-sort-key": ["get", "k"]}, "paint": {"fill-color": ["get", "c"]}"##, [red, blue])
        XCTAssertEqual(sorted.rgb(x: 128, y: 128), 0xFF0000, "the higher key on top")
        let unsorted = try tile(##""type": "fill", "paint": {"fill-color": ["get", "c"]}"##, [red, blue])
        XCTAssertEqual(unsorted.rgb(x: 128, y: 128), 0x0000FF, "without a key, data order")
        // Lines and circles too.
        let a = Fixture.line([(0, 2048), (4096, 2048)], props: ["c": .string("#FF0000"), "k": .int(5)])
        let b = Fixture.line([(2048, 0), (2048, 4096)], props: ["c": .string("#0000FF"), "k": .int(-1)])
        let lines = try tile(##""type": "line", "layout": {"line-sort-key": ["get", "k"]}, "paint": {"line-color": ["get", "c"], "line-width": 6}"##, [a, b])
        XCTAssertEqual(lines.rgb(x: 128, y: 128), 0xFF0000)
        let p = { (c: String, k: Int64) in VectorFeature(type: .point, parts: [[TilePoint(x: 2048, y: 2048)]], properties: ["c": .string(c), "k": .int(k)]) }
        let dots = try tile(##""type": "circle", "layout": {"circle-sort-key": ["get", "k"]}, "paint": {"circle-color": ["get", "c"], "circle-radius": 5}"##,
                            [p("#FF0000", 3), p("#0000FF", 0)])
        XCTAssertEqual(dots.rgb(x: 128, y: 128), 0xFF0000)
    }

    func testAFillExtrusionIsDrawnFlatInItsColour() throws {
        // A building footprint (px 64…192) with a height: seen from straight above, its roof.
        let building = Fixture.rect(1024, 1024, 3072, 3072)
        let layer = ##""type": "fill-extrusion", "paint": {"fill-extrusion-color": "#AA3300", "fill-extrusion-height": 30}"##
        let image = try tile(layer, [building])
        for (x, y) in [(66, 66), (128, 128), (189, 189), (66, 189)] {
            XCTAssertEqual(image.rgb(x: x, y: y), 0xAA3300, "inside the footprint at \(x), \(y)")
        }
        XCTAssertEqual(image.rgb(x: 60, y: 128), 0xFFFFFF, "outside it")
        XCTAssertEqual(image.rgb(x: 196, y: 128), 0xFFFFFF)
        // Its opacity blends it with the ground: half of #AA3300 over white.
        let faded = try tile(##""type": "fill-extrusion", "paint": {"fill-extrusion-color": "#AA3300", "fill-extrusion-opacity": 0.5}"##, [building])
        let c = try XCTUnwrap(faded.rgb(x: 128, y: 128))
        for (got, want) in [(c >> 16 & 0xFF, 0xD4), (c >> 8 & 0xFF, 0x99), (c & 0xFF, 0x80)] {
            XCTAssertEqual(Double(got), Double(want), accuracy: 2, String(c, radix: 16))
        }
    }

    func testAFillOutlineColourDrawsTheRingInThatColour() throws {
        // The square's edges at px 64.5 and 191.5: a 1 px outline covers columns and rows 64 and 191.
        let square = Fixture.rect(1032, 1032, 3064, 3064)
        let image = try tile(##""type": "fill", "paint": {"fill-color": "#FFFF00", "fill-outline-color": "#0000FF"}"##, [square])
        XCTAssertEqual(image.rgb(x: 128, y: 128), 0xFFFF00, "the inside in the fill colour")
        for (x, y) in [(64, 128), (191, 128), (128, 64), (128, 191)] {
            XCTAssertEqual(image.rgb(x: x, y: y), 0x0000FF, "the outline at \(x), \(y)")
        }
        XCTAssertEqual(image.rgb(x: 62, y: 128), 0xFFFFFF, "outside the ring")
        XCTAssertEqual(image.rgb(x: 66, y: 128), 0xFFFF00, "inside the ring")
        // Without the property no ring: the edge pixel is the fill's half-covered yellow.
        let plain = try tile(##""type": "fill", "paint": {"fill-color": "#FFFF00"}"##, [square])
        XCTAssertEqual(Double(try XCTUnwrap(plain.rgb(x: 64, y: 128)) & 0xFF), 0x80, accuracy: 3)
    }

    /// The hospital icon's disc red, as scripts/data/make-sprite.py paints it.
    func isRed(_ c: UInt32?) -> Bool {
        guard let c else { return false }
        return abs(Int(c >> 16 & 0xFF) - 0xD0) < 20 && abs(Int(c >> 8 & 0xFF) - 0x3A) < 20 && abs(Int(c & 0xFF) - 0x3A) < 20
    }

    func testFillPatternRepeatsTheSpriteImageAcrossTileEdges() throws {
        let all = Fixture.rect(-64, -64, 4160, 4160)
        let layer = ##""type": "fill", "paint": {"fill-pattern": "hospital"}"##
        let image = try tile(layer, [all], sprite: true)
        // One 17 px repeat: red disc and white cross appear, and the image repeats every 17 px.
        let row = (0..<256).map { image.rgb(x: $0, y: 5) ?? 0 }
        XCTAssertTrue(row.contains(where: isRed), "the icon's red")
        for x in 0..<(256 - 17) { XCTAssertEqual(row[x], row[x + 17], "x \(x)") }
        // The tile to the east continues the repeat: its first column is the one after this tile's last.
        let east = try tile(layer, [all], sprite: true, id: TileID(z: 4, x: 9, y: 8))
        for y in stride(from: 0, to: 256, by: 7) {
            XCTAssertEqual(east.rgb(x: 0, y: y), image.rgb(x: 256 - 17, y: y), "y \(y)")
        }
        // An image the sprite lacks draws nothing (white background stays).
        let missing = try tile(##""type": "fill", "paint": {"fill-pattern": "no-such-image"}"##, [all], sprite: true)
        XCTAssertEqual(missing.rgb(x: 100, y: 100), 0xFFFFFF)
    }

    func testLinePatternStrokesWithTheSpriteImage() throws {
        let road = Fixture.line([(0, 2048), (4096, 2048)])
        let image = try tile(##""type": "line", "paint": {"line-pattern": "hospital", "line-width": 12}"##, [road], sprite: true)
        let band = (0..<256).flatMap { x in (123...133).map { image.rgb(x: x, y: $0) } }
        XCTAssertTrue(band.contains(where: isRed), "the icon's red along the line")
        XCTAssertEqual(image.rgb(x: 100, y: 100), 0xFFFFFF, "nothing off the line")
    }

    /// A sprite with one 16 x 8 image, "quad": its top half red (left 8 columns) and blue, its
    /// bottom half green and yellow, written into `dir`; returns the base path.
    static func quadSprite(_ dir: URL) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let surface = try XCTUnwrap(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 8))
        defer { cairo_surface_destroy(surface) }
        let cr = try XCTUnwrap(cairo_create(surface))
        for (x, y, r, g, b) in [(0.0, 0.0, 1.0, 0.0, 0.0), (8, 0, 0, 0, 1), (0, 4, 0, 1, 0), (8, 4, 1, 1, 0)] {
            cairo_set_source_rgb(cr, r, g, b)
            cairo_rectangle(cr, x, y, 8, 4)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        let base = dir.appendingPathComponent("quad").path
        XCTAssertEqual(cairo_surface_write_to_png(surface, base + ".png"), CAIRO_STATUS_SUCCESS)
        try Data(#"{"quad": {"x": 0, "y": 0, "width": 16, "height": 8, "pixelRatio": 1}}"#.utf8).write(to: URL(fileURLWithPath: base + ".json"))
        return base
    }

    func quadColor(_ c: UInt32?) -> Character { Self.quadColor(c) }

    /// The quad image's colour names: R, B, G, Y, "." for white, "?" otherwise.
    static func quadColor(_ c: UInt32?) -> Character {
        switch c {
        case 0xFF0000: return "R"
        case 0x0000FF: return "B"
        case 0x00FF00: return "G"
        case 0xFFFF00: return "Y"
        case 0xFFFFFF: return "."
        default: return "?"
        }
    }

    /// Checked against MapLibre Native (pymgl 0.5.0) drawing the same image on GeoJSON lines:
    /// the image starts at the line's first vertex, repeats every image width along the line,
    /// turns with it, has its top on the right of travel and its height stretched to the width.
    func testLinePatternRunsAlongEachLineFromItsStart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-quad-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try Self.quadSprite(dir)
        func draw(_ line: VectorFeature, width: Double) throws -> RasterImage {
            try tile(##""type": "line", "paint": {"line-pattern": "quad", "line-width": \##(width)}"##, [line], spriteBase: base)
        }
        // East from x 40 (tile units / 16 = px), 8 wide about y 128: the image's top (red, blue)
        // on the right of travel (below), its left edge at the start, every 16 px.
        let east = try draw(Fixture.line([(640, 2048), (4000, 2048)]), width: 8)
        for k in 0..<12 {
            XCTAssertEqual(quadColor(east.rgb(x: 42 + 16 * k, y: 130)), "R", "x \(42 + 16 * k)")
            XCTAssertEqual(quadColor(east.rgb(x: 50 + 16 * k, y: 130)), "B")
            XCTAssertEqual(quadColor(east.rgb(x: 42 + 16 * k, y: 126)), "G", "the bottom half on the left of travel")
            XCTAssertEqual(quadColor(east.rgb(x: 50 + 16 * k, y: 126)), "Y")
        }
        XCTAssertEqual(quadColor(east.rgb(x: 30, y: 128)), ".", "nothing before the start")
        // The same line run west: the image turned half round, from its start at x 250.
        let west = try draw(Fixture.line([(4000, 2048), (640, 2048)]), width: 8)
        XCTAssertEqual(quadColor(west.rgb(x: 247, y: 126)), "R", "top half above (right of travel west)")
        XCTAssertEqual(quadColor(west.rgb(x: 239, y: 126)), "B")
        XCTAssertEqual(quadColor(west.rgb(x: 247, y: 130)), "G")
        // South: the top half on the west side, the repeat running down the line.
        let south = try draw(Fixture.line([(2048, 640), (2048, 4000)]), width: 8)
        XCTAssertEqual(quadColor(south.rgb(x: 126, y: 42)), "R")
        XCTAssertEqual(quadColor(south.rgb(x: 126, y: 50)), "B")
        XCTAssertEqual(quadColor(south.rgb(x: 130, y: 42)), "G")
        XCTAssertEqual(quadColor(south.rgb(x: 126, y: 42 + 160)), "R")
        // Round a corner the distance runs on: 40 px east, then south, so y px down the second leg
        // (which starts at y 40) is y px along the line (not y - 40, as a fresh start would give).
        let bent = try draw(Fixture.line([(640, 640), (1280, 640), (1280, 2560)]), width: 8)
        XCTAssertEqual(quadColor(bent.rgb(x: 42, y: 42)), "R")
        for d in [50, 58, 66, 74, 82] {
            XCTAssertEqual(quadColor(bent.rgb(x: 78, y: d)), d % 16 < 8 ? "R" : "B", "\(d) px along")
        }
        // 16 wide: the image squeezed across it (MapLibre shows 5 of its px each side of the
        // middle over the 8.5-px outset, so it repeats every 13.6 px: pymgl draws 122–126 G and
        // 129–133 R down x 108, blends at 121, 127–128 and 134, the repeat's R at 120 and G at 135);
        // the repeat along still 16 px.
        let wide = try draw(Fixture.line([(640, 2048), (4000, 2048)]), width: 16)
        for y in 122...126 { XCTAssertEqual(quadColor(wide.rgb(x: 42, y: y)), "G", "y \(y)") }
        for y in 129...133 { XCTAssertEqual(quadColor(wide.rgb(x: 42, y: y)), "R", "y \(y)") }
        XCTAssertEqual(quadColor(wide.rgb(x: 42, y: 134)), "?", "the repeat's edge blends")
        // 4 wide: the image at its own size, only its middle rows shown (126–127 G, 128–129 R).
        let thin = try draw(Fixture.line([(640, 2048), (4000, 2048)]), width: 4)
        for y in [126, 127] { XCTAssertEqual(quadColor(thin.rgb(x: 42, y: y)), "G", "y \(y)") }
        for y in [128, 129] { XCTAssertEqual(quadColor(thin.rgb(x: 42, y: y)), "R", "y \(y)") }
        XCTAssertEqual(quadColor(wide.rgb(x: 58, y: 130)), "R")
        XCTAssertEqual(quadColor(wide.rgb(x: 50, y: 130)), "B")
    }

    /// `line-offset` and `line-gap-width` apply to a patterned line as to a plain one: moved
    /// right of travel, or two strokes either side of the gap with the image spanning both.
    func testLinePatternTakesOffsetAndGapWidth() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-quad-gap-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try Self.quadSprite(dir)
        let east = Fixture.line([(640, 2048), (4000, 2048)])
        // 8 wide, 10 px right of travel east (down): the band 134…142, top half (red) below 138.
        let offset = try tile(##""type": "line", "paint": {"line-pattern": "quad", "line-width": 8, "line-offset": 10}"##,
                              [east], spriteBase: base)
        XCTAssertEqual(quadColor(offset.rgb(x: 42, y: 128)), ".", "nothing on the line itself")
        XCTAssertEqual(quadColor(offset.rgb(x: 42, y: 140)), "R")
        XCTAssertEqual(quadColor(offset.rgb(x: 50, y: 140)), "B")
        XCTAssertEqual(quadColor(offset.rgb(x: 42, y: 136)), "G")
        XCTAssertEqual(quadColor(offset.rgb(x: 42, y: 144)), ".")
        // Negative: left of travel (up), the image still with its top on the right of travel.
        let left = try tile(##""type": "line", "paint": {"line-pattern": "quad", "line-width": 8, "line-offset": -10}"##,
                            [east], spriteBase: base)
        XCTAssertEqual(quadColor(left.rgb(x: 42, y: 120)), "R")
        XCTAssertEqual(quadColor(left.rgb(x: 42, y: 116)), "G")
        XCTAssertEqual(quadColor(left.rgb(x: 42, y: 128)), ".")
        // Gap 8, width 8: strokes at 116…124 and 132…140, the gap white. MapLibre Native (pymgl
        // 0.5.0, the same image on a GeoJSON line) draws, row by row down x 108 (a red column):
        // 116 R, 117–118 blends, 119–123 G, gap, 132–136 R, 137–138 blends, 139 G: the image
        // centred on the line repeating every 20 px across (outset 12.5 px showing 5 px of it
        // each side), so each stroke shows both halves.
        let gap = try tile(##""type": "line", "paint": {"line-pattern": "quad", "line-width": 8, "line-gap-width": 8}"##,
                           [east], spriteBase: base)
        for y in [125, 128, 131] { XCTAssertEqual(quadColor(gap.rgb(x: 42, y: y)), ".", "the gap at y \(y)") }
        for y in [116, 132, 133, 134, 135, 136] { XCTAssertEqual(quadColor(gap.rgb(x: 42, y: y)), "R", "y \(y)") }
        for y in [119, 120, 121, 122, 123, 139] { XCTAssertEqual(quadColor(gap.rgb(x: 42, y: y)), "G", "y \(y)") }
        XCTAssertEqual(quadColor(gap.rgb(x: 50, y: 134)), "B")
        XCTAssertEqual(quadColor(gap.rgb(x: 50, y: 121)), "Y")
        XCTAssertEqual(quadColor(gap.rgb(x: 42, y: 114)), ".")
        XCTAssertEqual(quadColor(gap.rgb(x: 42, y: 141)), ".")
    }

    /// Dashes honour `line-offset` and `line-gap-width` as solid lines do.
    func testADashedLineTakesOffsetAndGapWidth() throws {
        let east = Fixture.line([(0, 2048), (4096, 2048)])
        let image = try tile(##""type": "line", "paint": {"line-color": "#0000FF", "line-width": 2, "line-offset": 10, "line-dasharray": [4, 4]}"##, [east])
        let row = (0..<256).map { image.rgb(x: $0, y: 138) }
        XCTAssertTrue(row.contains(0x0000FF) && row.contains(0xFFFFFF), "dashes 10 px below the line")
        XCTAssertEqual((0..<256).filter { image.rgb(x: $0, y: 128) != 0xFFFFFF }.count, 0, "none on it")
        let gap = try tile(##""type": "line", "paint": {"line-color": "#0000FF", "line-width": 2, "line-gap-width": 6, "line-dasharray": [4, 4]}"##, [east])
        for y in [124, 132] {
            let r = (0..<256).map { gap.rgb(x: $0, y: y) }
            XCTAssertTrue(r.contains(0x0000FF) && r.contains(0xFFFFFF), "dashed casing at y \(y)")
        }
        XCTAssertEqual((0..<256).filter { gap.rgb(x: $0, y: 128) != 0xFFFFFF }.count, 0, "the gap")
    }

    /// The map's frame at `bearing` over one red square in the middle of tile 4/8/8 (view px
    /// 192…320 at bearing 0), its layer `paint` given.
    func turnedFrame(_ paint: String, bearing: Double) throws -> (image: RasterImage, renderer: MapRenderer) {
        let json = """
        {"version": 8, "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
                    {"id": "it", "type": "fill", "source": "s", "source-layer": "shapes", "paint": {\(paint)}}]}
        """
        let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
        XCTAssertEqual(style.notes, [])
        let tile = VectorTile(layers: [Fixture.layer("shapes", [Fixture.rect(1024, 1024, 3072, 3072)])])
        let source = FixtureSource(every: VectorTile(layers: []), tiles: [TileID(z: 4, x: 8, y: 8): tile])
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [StyledSource(id: "s", source: source)], style: style), scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        let image = try XCTUnwrap(RasterImage(width: 512, height: 512))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        r.drawSynchronously(camera(bearing: bearing), into: cr)
        cairo_destroy(cr)
        return (image, r)
    }

    /// A 512 x 512 view of tile 4/8/8's middle at `bearing`.
    func camera(bearing: Double) -> MapCamera {
        var c = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 512, height: 512))
        c.bearing = bearing
        return c
    }

    func testAViewportTranslateMovesAlongTheScreenOnATurnedMap() throws {
        let red: UInt32 = 0xFF0000, white: UInt32 = 0xFFFFFF
        // At bearing 90 (east up) the square, centred on the view, turns onto itself.
        let viewport = try turnedFrame(##""fill-color": "#FF0000", "fill-translate": [20, 0], "fill-translate-anchor": "viewport""##, bearing: 90)
        XCTAssertEqual(viewport.image.rgb(x: 335, y: 256), red, "moved 20 px right on screen")
        XCTAssertEqual(viewport.image.rgb(x: 200, y: 256), white)
        XCTAssertEqual(viewport.image.rgb(x: 256, y: 196), red, "not up")
        XCTAssertEqual(viewport.image.rgb(x: 256, y: 316), red)
        // Anchored to the map, the same translate is 20 px east: up on this screen.
        let map = try turnedFrame(##""fill-color": "#FF0000", "fill-translate": [20, 0]"##, bearing: 90)
        XCTAssertEqual(map.image.rgb(x: 256, y: 175), red, "moved 20 px east, which is up")
        XCTAssertEqual(map.image.rgb(x: 256, y: 316), white)
        XCTAssertEqual(map.image.rgb(x: 335, y: 256), white)
        // At 30 degrees too: the turned square (half-side 64 along its axis u, east turned 30
        // degrees counter-clockwise) is centred 20 px right of the view's centre.
        let thirty = try turnedFrame(##""fill-color": "#FF0000", "fill-translate": [20, 0], "fill-translate-anchor": "viewport""##, bearing: 30)
        let u = (x: cos(Double.pi / 6), y: -sin(Double.pi / 6))
        for (d, expected) in [(60.0, red), (-60, red), (70, white), (-70, white)] {
            let x = Int((276.5 + d * u.x).rounded(.down)), y = Int((256.5 + d * u.y).rounded(.down))
            XCTAssertEqual(thirty.image.rgb(x: x, y: y), expected, "\(d) px along the square's axis from (276, 256)")
        }
        // Only such a style draws its tiles per bearing; at bearing 0 the key is the plain one.
        XCTAssertEqual(thirty.renderer.tiles(for: camera(bearing: 30.4)).first?.bearing, 30)
        XCTAssertEqual(map.renderer.tiles(for: camera(bearing: 30.4)).first?.bearing, 0)
    }
}
