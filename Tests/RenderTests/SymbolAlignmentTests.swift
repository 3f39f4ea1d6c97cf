import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// How symbols turn and move with the map: `icon-rotation-alignment`, `icon-keep-upright`,
/// `icon-translate(-anchor)`, `text-rotation-alignment`, `text-keep-upright`, `text-rotate`,
/// `text-translate(-anchor)`, by the pixels drawn and the state dump's `map.labels`, on a
/// north-up and a turned map. At bearing 90 the map's east points up the screen.
/// The icons' turns were checked against MapLibre Native (pymgl 0.5.0, the same quad image on
/// GeoJSON, 2026-12-02): a map-aligned point icon at bearing 90 (red and green below, blue and
/// yellow above), an icon along a line running west (half turned; with `icon-keep-upright` as on a
/// line running east) and a `viewport` icon along a line running south (level), as asserted here.
final class SymbolAlignmentTests: XCTestCase {
    var dir: URL!
    var quad: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-align-\(getpid())-\(UUID().uuidString)")
        // 16 x 8: top half red (left) | blue, bottom half green | yellow (LayerPaintTests).
        quad = try LayerPaintTests.quadSprite(dir)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// One symbol layer over `features` (source layer "pois" of tile 4/8/8, the view's middle),
    /// drawn at `bearing` in a 512 x 512 view; its image and labels.
    func draw(_ layout: String, paint: String = "", _ features: [VectorFeature], bearing: Double = 0, checkNotes: Bool = true) throws
        -> (image: RasterImage, labels: [MapLabel]) {
        let json = """
        {"version": 8, "sprite": "\(quad!)", "sources": {"s": {"type": "vector"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
          {"id": "sym", "type": "symbol", "source": "s", "source-layer": "pois",
           "layout": {\(layout)}, "paint": {"text-color": "#000000"\(paint.isEmpty ? "" : ", " + paint)}}]}
        """
        let style = try Style.parse(Array(json.utf8), path: "/nowhere/style.json")
        if checkNotes { XCTAssertEqual(style.notes, [], "every property used is supported") }
        return try Self.draw(style, features, bearing: bearing)
    }

    /// `style` over `features` (source "s", source layer "pois" of tile 4/8/8, the view's
    /// middle) drawn at `bearing` in a 512 x 512 view; its image and labels.
    static func draw(_ style: Style, _ features: [VectorFeature], bearing: Double = 0) throws -> (image: RasterImage, labels: [MapLabel]) {
        let tile = VectorTile(layers: [Fixture.layer("pois", features)])
        let source = FixtureSource(every: VectorTile(layers: []), tiles: [TileID(z: 4, x: 8, y: 8): tile])
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [StyledSource(id: "s", source: source)], style: style),
                                             scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        var camera = LabelPlacerTests.camera(zoom: 4, size: ViewSize(width: 512, height: 512))
        camera.bearing = bearing
        let image = try XCTUnwrap(RasterImage(width: 512, height: 512))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        r.drawSynchronously(camera, into: cr)
        cairo_destroy(cr)
        return (image, r.labels(for: camera))
    }

    let centre = SpriteIconTests.poi(2048, 2048, icon: "quad")

    func color(_ image: RasterImage, _ x: Int, _ y: Int) -> Character { LayerPaintTests.quadColor(image.rgb(x: x, y: y)) }

    func testAPointIconTurnsWithTheMapOnlyWhenAlignedToIt() throws {
        // Level on screen by default (`auto` is `viewport` at points), whatever the bearing.
        let level = try draw(#""icon-image": "quad""#, [centre], bearing: 90)
        let box = try XCTUnwrap(level.labels.first?.icon).box
        XCTAssertEqual(box.width, 16, accuracy: 0.01)
        XCTAssertEqual(box.height, 8, accuracy: 0.01)
        XCTAssertEqual(color(level.image, 252, 254), "R")
        XCTAssertEqual(color(level.image, 260, 254), "B")
        // `map` at bearing 0: the same as level.
        let north = try draw(#""icon-image": "quad", "icon-rotation-alignment": "map""#, [centre])
        XCTAssertEqual(try XCTUnwrap(north.labels.first?.icon).box.width, 16, accuracy: 0.01)
        XCTAssertEqual(color(north.image, 252, 254), "R")
        // `map` at bearing 90: its x-axis east, up the screen; the image's left (red, green) below
        // the anchor, its top (red, blue) on the left.
        let turned = try draw(#""icon-image": "quad", "icon-rotation-alignment": "map""#, [centre], bearing: 90)
        let tbox = try XCTUnwrap(turned.labels.first?.icon).box
        XCTAssertEqual(tbox.width, 8, accuracy: 0.01)
        XCTAssertEqual(tbox.height, 16, accuracy: 0.01)
        XCTAssertEqual(color(turned.image, 254, 260), "R", "the tail below, top half left")
        XCTAssertEqual(color(turned.image, 258, 260), "G")
        XCTAssertEqual(color(turned.image, 254, 252), "B", "the head above")
        XCTAssertEqual(color(turned.image, 258, 252), "Y")
        // `icon-rotate` is then counted from the map's east: 90 more points it back along the screen's x.
        let both = try draw(#""icon-image": "quad", "icon-rotation-alignment": "map", "icon-rotate": 90"#, [centre], bearing: 90)
        XCTAssertEqual(try XCTUnwrap(both.labels.first?.icon).box.width, 16, accuracy: 0.01)
        XCTAssertEqual(color(both.image, 252, 254), "R")
        // `icon-pitch-alignment` is accepted (the map never tilts) and changes nothing.
        let pitched = try draw(#""icon-image": "quad", "icon-pitch-alignment": "map""#, [centre], bearing: 90)
        XCTAssertEqual(color(pitched.image, 252, 254), "R")
    }

    func testIconsAlongALineFollowItUnlessViewportAlignedAndKeepUprightFlipsThem() throws {
        let layout = #""symbol-placement": "line", "symbol-spacing": 100, "icon-image": "quad""#
        // South along the tile's middle column: turned a quarter clockwise by default (`auto` is `map` along lines).
        let south = Fixture.line([(2048, 0), (2048, 4096)])
        let along = try draw(layout, [south])
        let first = try XCTUnwrap(along.labels.min { $0.anchor.y < $1.anchor.y })
        XCTAssertEqual(try XCTUnwrap(first.icon).box.width, 8, accuracy: 0.01)
        // `viewport`: level on screen at the same spots.
        let level = try draw(layout + #", "icon-rotation-alignment": "viewport""#, [south])
        let l = try XCTUnwrap(level.labels.min { $0.anchor.y < $1.anchor.y })
        XCTAssertEqual(l.anchor.y, first.anchor.y, accuracy: 0.01)
        let box = try XCTUnwrap(l.icon).box
        XCTAssertEqual(box.width, 16, accuracy: 0.01)
        XCTAssertEqual(box.height, 8, accuracy: 0.01)
        XCTAssertEqual(color(level.image, 252, Int(l.anchor.y) - 2), "R")
        XCTAssertEqual(color(level.image, 260, Int(l.anchor.y) - 2), "B")
        // West: turned half round, so the head (blue) points west…
        let west = Fixture.line([(4096, 2048), (0, 2048)])
        let back = try draw(layout, [west])
        let b = try XCTUnwrap(back.labels.first)
        let x = Int(b.anchor.x.rounded())
        XCTAssertEqual(color(back.image, x - 4, 258), "B", "the head west, the image's top below")
        XCTAssertEqual(color(back.image, x + 4, 258), "R")
        // …unless kept upright: then it reads as on a line running east (top up, head east).
        let upright = try draw(layout + #", "icon-keep-upright": true"#, [west])
        let u = try XCTUnwrap(upright.labels.first { abs($0.anchor.x - b.anchor.x) < 0.01 })
        XCTAssertEqual(color(upright.image, x - 4, 254), "R")
        XCTAssertEqual(color(upright.image, x + 4, 254), "B")
        XCTAssertEqual(color(upright.image, x - 4, 258), "G")
        XCTAssertEqual(u.anchor.y, 256, accuracy: 0.01)
        // A line running east is not flipped.
        let east = try draw(layout + #", "icon-keep-upright": true"#, [Fixture.line([(0, 2048), (4096, 2048)])])
        let e = try XCTUnwrap(east.labels.first)
        XCTAssertEqual(color(east.image, Int(e.anchor.x.rounded()) - 4, 254), "R")
    }

    func testIconTranslateMovesWhatIsDrawnNotWhereItCollides() throws {
        let moved = try draw(#""icon-image": "quad""#, paint: #""icon-translate": [20, 10]"#, [centre])
        let label = try XCTUnwrap(moved.labels.first)
        let icon = try XCTUnwrap(label.icon)
        XCTAssertEqual(icon.box.x, 256 - 8 + 20, accuracy: 0.01)
        XCTAssertEqual(icon.box.y, 256 - 4 + 10, accuracy: 0.01)
        XCTAssertEqual(icon.collisionBox.x, 256 - 8 - 2, accuracy: 0.01, "placed where it was, as MapLibre does")
        XCTAssertEqual(color(moved.image, 252 + 20, 254 + 10), "R")
        XCTAssertEqual(color(moved.image, 252, 254), ".")
        // `map` (the default anchor) on a turned map: along the map's east, up the screen at 90.
        let turned = try draw(#""icon-image": "quad""#, paint: #""icon-translate": [20, 0]"#, [centre], bearing: 90)
        let tbox = try XCTUnwrap(turned.labels.first?.icon).box
        XCTAssertEqual(tbox.x, 256 - 8, accuracy: 0.01)
        XCTAssertEqual(tbox.y, 256 - 4 - 20, accuracy: 0.01)
        XCTAssertEqual(color(turned.image, 252, 254 - 20), "R")
        // `viewport`: along the screen's x whatever the bearing.
        let screen = try draw(#""icon-image": "quad""#, paint: #""icon-translate": [20, 0], "icon-translate-anchor": "viewport""#,
                              [centre], bearing: 90)
        XCTAssertEqual(try XCTUnwrap(screen.labels.first?.icon).box.x, 256 - 8 + 20, accuracy: 0.01)
        XCTAssertEqual(color(screen.image, 252 + 20, 254), "R")
    }

    func ink(_ image: RasterImage) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var b: (Int, Int, Int, Int)?
        for y in 0..<512 {
            for x in 0..<512 where image.rgb(x: x, y: y) != 0xFFFFFF {
                b = b.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return b.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    func testTextRotateAndMapAlignedTextTurnAPointLabel() throws {
        let name = VectorFeature(type: .point, parts: [[TilePoint(x: 2048, y: 2048)]], properties: ["name": .string("Harbour")])
        let text = #""text-field": "{name}", "text-size": 16"#
        let level = try draw(text, [name], bearing: 90)
        let l = try XCTUnwrap(level.labels.first)
        XCTAssertGreaterThan(l.box.width, 2 * l.box.height, "level on screen at points by default")
        let li = try XCTUnwrap(ink(level.image))
        XCTAssertGreaterThan(li.maxX - li.minX, 2 * (li.maxY - li.minY))
        // `text-rotate: 90`: a quarter clockwise, drawn and boxed upright-tall.
        let rotated = try draw(text + #", "text-rotate": 90"#, [name])
        let r = try XCTUnwrap(rotated.labels.first)
        XCTAssertGreaterThan(r.box.height, 2 * r.box.width)
        XCTAssertEqual(r.box.height, l.box.width, accuracy: 0.01)
        let ri = try XCTUnwrap(ink(rotated.image))
        XCTAssertGreaterThan(ri.maxY - ri.minY, 2 * (ri.maxX - ri.minX), "the glyphs are drawn turned")
        XCTAssertTrue(r.collisionBoxes.allSatisfy { $0.height > $0.width })
        // `text-rotation-alignment: map` at bearing 90: along the map's east, up the screen.
        let mapped = try draw(text + #", "text-rotation-alignment": "map""#, [name], bearing: 90)
        let m = try XCTUnwrap(mapped.labels.first)
        XCTAssertGreaterThan(m.box.height, 2 * m.box.width)
        let mi = try XCTUnwrap(ink(mapped.image))
        XCTAssertGreaterThan(mi.maxY - mi.minY, 2 * (mi.maxX - mi.minX))
        // Turned against the clock (east is up): the text's start is at the bottom, so
        // it reads upward; against `text-rotate: 90`, read downward, the ink is mirrored
        // through the anchor, so the two do not coincide pixel for pixel.
        var same = 0, total = 0
        for y in 200..<312 {
            for x in 200..<312 where rotated.image.rgb(x: x, y: y) != 0xFFFFFF {
                total += 1
                if mapped.image.rgb(x: x, y: y) == rotated.image.rgb(x: x, y: y) { same += 1 }
            }
        }
        XCTAssertGreaterThan(total, 30)
        XCTAssertLessThan(Double(same) / Double(total), 0.8)
    }

    func testTextAlongALineKeepsUprightUnlessToldAndViewportAlignmentLevelsIt() throws {
        let west = Fixture.line([(4096, 2048), (0, 2048)])
        let text = #""symbol-placement": "line", "text-field": "Westward Road", "text-size": 14"#
        // By default text along a line running west is turned to read left to right.
        let upright = try draw(text, [west])
        let u = try XCTUnwrap(upright.labels.first)
        XCTAssertFalse(u.glyphs.isEmpty)
        XCTAssertTrue(u.glyphs.allSatisfy { abs($0.angle) < 1 }, "\(u.glyphs.map(\.angle))")
        // `text-keep-upright: false`: it runs the way the line does, upside down.
        let headlong = try draw(text + #", "text-keep-upright": false"#, [west])
        let h = try XCTUnwrap(headlong.labels.first)
        XCTAssertTrue(h.glyphs.allSatisfy { abs(abs($0.angle) - 180) < 1 }, "\(h.glyphs.map(\.angle))")
        XCTAssertNotEqual(ink(headlong.image).map { $0.minY }, nil)
        // `text-rotation-alignment: viewport` on a line running south: level text at the anchors.
        let south = Fixture.line([(2048, 0), (2048, 4096)])
        let along = try draw(text, [south])
        let a = try XCTUnwrap(along.labels.first)
        XCTAssertGreaterThan(a.box.height, 2 * a.box.width, "along the line: tall")
        let level = try draw(text + #", "text-rotation-alignment": "viewport""#, [south])
        let v = try XCTUnwrap(level.labels.first)
        XCTAssertGreaterThan(v.box.width, 2 * v.box.height, "level: wide")
        XCTAssertEqual(v.anchor.x, 256, accuracy: 0.01)
        let vi = try XCTUnwrap(ink(level.image))
        XCTAssertGreaterThan(vi.maxX - vi.minX, 2 * (vi.maxY - vi.minY))
        // `viewport-glyph`: the glyphs stay along the line (tall) but each is level.
        let glyphs = try draw(text + #", "text-rotation-alignment": "viewport-glyph""#, [south])
        let g = try XCTUnwrap(glyphs.labels.first)
        XCTAssertGreaterThan(g.box.height, 2 * g.box.width)
    }

    func testTextTranslateMovesTheDrawnTextNotItsCollisionBox() throws {
        let name = VectorFeature(type: .point, parts: [[TilePoint(x: 2048, y: 2048)]], properties: ["name": .string("Pier")])
        let text = #""text-field": "{name}", "text-size": 16"#
        let plain = try draw(text, [name])
        let moved = try draw(text, paint: #""text-translate": [0, 40]"#, [name])
        let p = try XCTUnwrap(plain.labels.first), m = try XCTUnwrap(moved.labels.first)
        XCTAssertEqual(m.box.y, p.box.y + 40, accuracy: 0.01)
        XCTAssertEqual(m.collisionBoxes.first?.y ?? 0, p.collisionBoxes.first?.y ?? 1, accuracy: 0.01)
        let pi = try XCTUnwrap(ink(plain.image)), mi = try XCTUnwrap(ink(moved.image))
        XCTAssertEqual(mi.minY, pi.minY + 40)
        XCTAssertEqual(mi.minX, pi.minX)
    }

    func testNonsenseAlignmentsAndTranslatesStillDrawTheSymbol() throws {
        let poi = SpriteIconTests.poi(2048, 2048, icon: "quad", name: "Odd")
        let odd = try draw(#""icon-image": "{icon}", "text-field": "{name}", "text-anchor": "top", "text-offset": [0, 1], "#
                           + #""icon-rotation-alignment": 7, "text-rotation-alignment": "sideways", "icon-keep-upright": "yes", "#
                           + #""text-rotate": "x""#,
                           paint: #""icon-translate": "east", "icon-translate-anchor": ["x"]"#,
                           [poi], bearing: 33, checkNotes: false)
        let label = try XCTUnwrap(odd.labels.first)
        let box = try XCTUnwrap(label.icon).box
        XCTAssertEqual(box.width, 16, accuracy: 0.01, "level")
        XCTAssertEqual(box.x, 256 - 8, accuracy: 0.01, "unmoved")
        XCTAssertNotNil(ink(odd.image))
        // A translate past any screen is held to 4096 px: the text is drawn off the view, and
        // the label (shown only whole) with it; nothing else breaks.
        let far = try draw(#""icon-image": "{icon}", "text-field": "{name}""#, paint: #""text-translate": [1e308, -1e308]"#,
                           [poi], checkNotes: false)
        XCTAssertTrue(far.labels.isEmpty)
    }
}
