import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Place names in the shipped OpenMapTiles style: where two collide, the bigger class wins,
/// whatever order the tile lists them in; within a class the first the tile lists, as
/// MapLibre Native places this style (it has no `symbol-sort-key`: adding `rank` as one
/// turns MapLibre's own order across tiles, and the MapLibre label figure drops at z13).
final class PlaceRankTests: XCTestCase {
    static func place(_ name: String, _ placeClass: String) -> VectorFeature {
        // All at one point, the middle of the tile: every pair collides.
        VectorFeature(type: .point, parts: [[TilePoint(x: 2048, y: 2048)]], properties: ["name": .string(name), "class": .string(placeClass)])
    }

    /// The names placed by the shipped OpenMapTiles style for `places` (its `place` layer) in
    /// tile 14/9000/4000, viewed at z14 centred on it.
    func placed(_ places: [VectorFeature]) throws -> [String] {
        let dir = try XCTUnwrap(ShippedStyles.directory())
        let style = try ShippedStyles.load(dir + "/openmaptiles.json")
        let id = TileID(z: 14, x: 9000, y: 4000)
        let source = FixtureSource(every: VectorTile(layers: []), tiles: [id: VectorTile(layers: [Fixture.layer("place", places)])])
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [StyledSource(id: "openmaptiles", source: source)], style: style),
                                             scale: 1))
        r.showsScaleBar = false
        r.showsAttribution = false
        var camera = LabelPlacerTests.camera(zoom: 14, size: ViewSize(width: 512, height: 512))
        camera.center = WorldPoint(x: (Double(id.x) + 0.5) / 64, y: (Double(id.y) + 0.5) / 64)
        try LabelPlacerTests.frame(r, camera)
        return r.labels(for: camera).map(\.text)
    }

    func testTheBiggerClassWinsWhereTwoPlaceNamesCollide() throws {
        // Listed smallest first, so the tile's order would give the neighbourhood.
        var places = [Self.place("Nook", "neighbourhood"), Self.place("Subville", "suburb"),
                      Self.place("Townton", "town"), Self.place("Bigcity", "city")]
        for winner in ["Bigcity", "Townton", "Subville", "Nook"] {
            XCTAssertEqual(try placed(places), [winner], "among \(places.count)")
            places.removeLast()
        }
        let a = Self.place("Alpha", "suburb"), b = Self.place("Beta", "suburb")
        XCTAssertEqual(try placed([a, b]), ["Alpha"])
        XCTAssertEqual(try placed([b, a]), ["Beta"])
    }
}
