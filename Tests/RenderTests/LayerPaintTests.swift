import CCairo
import Foundation
import Style
import Tiles
import XCTest
@testable import Render

/// Paint properties beyond colour and width, by pixels of one drawn tile (256 px at scale 1,
/// tile units / 16 = px): `line-gap-width`, `*-translate`, `*-sort-key`, `fill-pattern`,
/// `line-pattern`.
final class LayerPaintTests: XCTestCase {
    /// A tile drawn with one layer over `features` in source layer "shapes" on white.
    func tile(_ layerJSON: String, _ features: [VectorFeature], sprite: Bool = false, id: TileID = TileID(z: 4, x: 8, y: 8)) throws -> RasterImage {
        let spriteMember = sprite ? "\"sprite\": \"\(SpriteIconTests.spriteBase)\"," : ""
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
}
