import Geo
import Tiles
import XCTest
@testable import Render

/// Water names from the shipped OpenMapTiles style over the shipped Helsinki file (tilemaker's
/// OpenMapTiles `water_name` layer): a lake's name is placed at its point, in the style's text
/// colour with its white halo, wherever no label placed before it takes its place.
final class WaterNameTests: XCTestCase {
    /// Töölönlahti's point, as tilemaker wrote it: tile 14/9326/4741, (3650, 2566) of 4096.
    static let lake: Coordinate = {
        let unit = WebMercator.tileSize / Double(1 << 14)
        return WebMercator.coordinate(WorldPoint(x: (9326 + 3650 / 4096.0) * unit, y: (4741 + 2566 / 4096.0) * unit))
    }()

    func testALakeIsNamedAtItsPointInTheStylesColoursAtEveryZoom() throws {
        let r = try LabelPlacerTests.shippedRenderer()
        for zoom in [15.0, 16, 17, 18] {
            let camera = MapCamera(center: Self.lake, zoom: zoom, size: ViewSize(width: 768, height: 512))
            let image = try LabelPlacerTests.frame(r, camera)
            let labels = r.labels(for: camera)
            guard let name = labels.first(where: { $0.text == "Töölönlahti" }) else {
                // Only where a label of a layer placed before it (street names are above water
                // names in the style) takes its place: at z15 and z16, Linnunlauluntie along the
                // lake's shore, as in MapLibre's order of placement.
                XCTAssertLessThan(zoom, 17, "the lake is named at z\(zoom)")
                XCTAssertTrue(labels.contains { $0.layer == "street-name" && $0.collisionBoxes.contains { b in
                    b.x < 384 + 50 && b.x + b.width > 384 - 50 && b.y < 256 + 10 && b.y + b.height > 256 - 10 } },
                    "z\(zoom): the name gives way only to a street name over its point")
                continue
            }
            XCTAssertEqual(name.layer, "water-name")
            // A point label centred on its point, which is the view's centre.
            XCTAssertLessThan(hypot(name.box.x + name.box.width / 2 - 384, name.box.y + name.box.height / 2 - 256), 3,
                              "z\(zoom): the name sits on the lake's point")
            // The style's text colour #4A7A9C in the text, and its white halo around the glyphs
            // (the lake under the name is the water colour, not white).
            var ink = 0, halo = 0
            let x0 = Int(name.box.x) - 2, x1 = Int(name.box.x + name.box.width) + 2
            let y0 = Int(name.box.y) - 2, y1 = Int(name.box.y + name.box.height) + 2
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let c = image.rgb(x: x, y: y) ?? 0
                    let r8 = Int((c >> 16) & 0xFF), g8 = Int((c >> 8) & 0xFF), b8 = Int(c & 0xFF)
                    if abs(r8 - 0x4A) + abs(g8 - 0x7A) + abs(b8 - 0x9C) < 30 { ink += 1 }
                    if r8 > 0xF4 && g8 > 0xF4 && b8 > 0xF4 { halo += 1 }
                }
            }
            XCTAssertGreaterThan(ink, 20, "z\(zoom): text in the style's colour")
            XCTAssertGreaterThan(halo, 40, "z\(zoom): a white halo")
        }
    }
}
