import Tiles
import XCTest
@testable import Render

/// A tile far heavier than any real one (100 000 vertices in one polygon and one line) is
/// drawn, not refused and not crashed on; how long it takes is the benchmark's business.
final class HugeTileTests: XCTestCase {
    static let vertices = 100_000

    /// A comb over the left half of the tile: teeth 2048 units tall, the polygon closing along
    /// the bottom, so its interior still covers known pixels.
    static func comb() -> VectorFeature {
        var ring: [TilePoint] = []
        ring.reserveCapacity(vertices + 3)
        for i in 0..<vertices {
            let x = Int32(i * 2048 / vertices)
            ring.append(TilePoint(x: x, y: i % 2 == 0 ? 0 : 2048))
        }
        ring += [TilePoint(x: 2048, y: 4096), TilePoint(x: 0, y: 4096), ring[0]]
        return VectorFeature(type: .polygon, parts: [ring], properties: [:])
    }

    static func zigzagRoad() -> VectorFeature {
        let points = (0..<vertices).map { i in TilePoint(x: Int32(2200 + (i % 1000)), y: Int32(i * 4096 / vertices)) }
        return VectorFeature(type: .lineString, parts: [points], properties: ["class": .string("primary")])
    }

    func testAHundredThousandVertexTileIsDrawnWithLandWhereThePolygonIs() throws {
        // The world style's land under the OpenMapTiles style's road.
        let r = TileRasterizer(sources: [FixtureSource(every: VectorTile(layers: [Fixture.layer("land", [Self.comb()])])),
                                         FixtureSource(every: VectorTile(layers: [Fixture.layer("transportation", [Self.zigzagRoad()])]))])
        let rendered = try XCTUnwrap(r.render(TileID(z: 10, x: 1, y: 1), scale: 2))
        XCTAssertEqual(rendered.errors, [])
        // The solid part under the teeth is land; the right edge, beyond every vertex, is sea.
        XCTAssertEqual(rendered.image.rgb(x: 100, y: 400), Palette.land)
        XCTAssertEqual(rendered.image.rgb(x: 500, y: 256), Palette.water)
    }

    func testAHundredThousandVertexTileIsDrawnAtEveryZoom() throws {
        let tile = VectorTile(layers: [Fixture.layer("land", [Self.comb()])])
        let r = TileRasterizer(sources: [FixtureSource(every: tile)])
        // Several zooms of the same heavy data, as a fast zoom-out would ask for.
        for z in [0, 5, 14] {
            let rendered = try XCTUnwrap(r.render(TileID(z: z, x: 0, y: 0), scale: 1))
            XCTAssertEqual(rendered.image.rgb(x: 50, y: 200), Palette.land, "zoom \(z)")
        }
    }
}
