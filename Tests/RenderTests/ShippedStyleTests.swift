import CCairo
import Foundation
import Geo
import Style
import Tiles
import XCTest
@testable import Render

/// Each shipped style, drawn over the shipped files (or fixtures in its schema), checked by
/// pixels at known places.
final class ShippedStyleTests: XCTestCase {
    private func file(_ name: String) throws -> MBTilesSource {
        try MBTilesSource(path: ShippedDataTests.dataDirectory.appendingPathComponent(name).path)
    }

    /// The colour at the centre of a small synchronous frame looking at `c`.
    private func colour(at c: (Double, Double), zoom: Double, _ rasterizer: TileRasterizer) throws -> UInt32? {
        var renderer = MapRenderer(cache: TileCache(rasterizer: rasterizer, scale: 1))
        renderer.showsScaleBar = false
        renderer.showsAttribution = false
        let image = try XCTUnwrap(RasterImage(width: 16, height: 16))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        renderer.drawSynchronously(MapCamera(center: Coordinate(latitude: c.0, longitude: c.1), zoom: zoom,
                                             size: ViewSize(width: 16, height: 16)), into: cr)
        return image.rgb(x: 8, y: 8)
    }

    func testTheShippedFilesGetTheWorldAndOpenMapTilesStyles() throws {
        let auto = AutomaticStyle.make(for: [try file("world.mbtiles"), try file("helsinki.mbtiles")])
        XCTAssertEqual(auto.style.schema, "world+openmaptiles")
        XCTAssertEqual(auto.notices, [])
        XCTAssertNil(auto.sources[0].bounds)
        XCTAssertNotNil(auto.sources[1].bounds, "the city covers the world only within its bounds")
    }

    func testOpenMapTilesHelsinkiByPixels() throws {
        let r = TileRasterizer(sources: [try file("world.mbtiles"), try file("helsinki.mbtiles")])
        // Places found in the data at z17 (each the middle of a uniform 4x4 px patch).
        XCTAssertEqual(try colour(at: (60.16450, 24.93852), zoom: 17, r), 0xDBD2CA, "a building")
        XCTAssertEqual(try colour(at: (60.16499, 24.94334), zoom: 17, r), 0xCFE5C0, "a park")
        XCTAssertEqual(try colour(at: (60.16598, 24.94395), zoom: 17, r), 0xFCE6B0, "a primary road")
        XCTAssertEqual(try colour(at: (60.17338, 24.94395), zoom: 17, r), 0xA8CBE0, "water")
        XCTAssertEqual(try colour(at: (60.16450, 24.93791), zoom: 17, r), 0xF2EFE9, "land: the background, no land layer")
        // Buildings are not drawn zoomed out (the style's minzoom 13 is Meridian's 14).
        XCTAssertNotEqual(try colour(at: (60.16450, 24.93852), zoom: 13, r), 0xDBD2CA)
    }

    func testWorldStyleByPixels() throws {
        let r = TileRasterizer(sources: [try file("world.mbtiles")])
        XCTAssertEqual(try colour(at: (45, -30), zoom: 4, r), Palette.water, "the Atlantic")
        XCTAssertEqual(try colour(at: (51, 10.5), zoom: 6, r), Palette.land, "central Germany")
        XCTAssertEqual(try colour(at: (-1.8, 33.2), zoom: 6, r), Palette.water, "Lake Victoria (south of the border across it)")
        XCTAssertEqual(try colour(at: (20, 15), zoom: 2, r), Palette.land, "the Sahara at the world view (Meridian z2 = style z1)")
    }

    /// A street crossing over a tunnel and under a bridge, in the OpenMapTiles schema.
    private func crossings() -> VectorTile {
        VectorTile(layers: [Fixture.layer("transportation", [
            Fixture.line([(-100, 1024), (4196, 1024)], props: ["class": .string("motorway"), "brunnel": .string("tunnel")]),
            Fixture.line([(-100, 3072), (4196, 3072)], props: ["class": .string("motorway"), "brunnel": .string("bridge")]),
            Fixture.line([(2048, -100), (2048, 4196)], props: ["class": .string("primary")]),
        ])])
    }

    func testTunnelsGoUnderStreetsFadedAndBridgesOverWithCasings() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: crossings())])
        let image = try XCTUnwrap(r.render(TileID(z: 16, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(image.rgb(x: 128, y: 64), 0xFCE6B0, "the street is drawn over the tunnel")
        XCTAssertEqual(image.rgb(x: 128, y: 192), 0xF7CC8F, "the bridge is drawn over the street")
        let tunnel = try XCTUnwrap(image.rgb(x: 40, y: 64))
        XCTAssertNotEqual(tunnel, 0xF7CC8F, "the tunnel is faded, not a surface road")
        XCTAssertNotEqual(tunnel, 0xF2EFE9, "but it is drawn")
        // The bridge's casing shows at its edge, darker than the road and the land.
        let edge = (180..<192).compactMap { image.rgb(x: 40, y: $0) }.first { $0 != 0xF2EFE9 && $0 != 0xF7CC8F }
        XCTAssertNotNil(edge, "a casing line above the bridge")
    }

    func testBoundariesAreDrawnByAdminLevel() throws {
        let tile = VectorTile(layers: [Fixture.layer("boundary", [
            Fixture.line([(1024, -100), (1024, 4196)], props: ["admin_level": .int(2)]),
            Fixture.line([(3072, -100), (3072, 4196)], props: ["admin_level": .int(4)]),
        ]), Fixture.layer("water", [])])
        let image = try XCTUnwrap(TileRasterizer(sources: [FixtureSource(every: tile)]).render(TileID(z: 8, x: 0, y: 0), scale: 1)).image
        let land: UInt32 = 0xF2EFE9
        let country = (0..<256).filter { image.rgb(x: 64, y: $0) != land }.count
        let region = (0..<256).filter { image.rgb(x: 192, y: $0) != land && image.rgb(x: 191, y: $0) != land }.count
        XCTAssertEqual(country, 256, "a country border is solid")
        XCTAssertGreaterThan(region, 20, "a regional border is drawn")
        XCTAssertLessThan(region, 240, "and dashed")
    }

    func testAFileOfNoKnownSchemaGetsTheGenericStyleAndANotice() throws {
        // Mapbox Streets' layer names.
        let tile = VectorTile(layers: [
            Fixture.layer("landuse_overlay", [Fixture.rect(0, 0, 2048, 2048)]),
            Fixture.layer("road", [Fixture.line([(-100, 3072), (4196, 3072)])]),
        ])
        let source = FixtureSource(every: tile)
        let auto = AutomaticStyle.make(for: [source])
        XCTAssertEqual(auto.style.schema, "generic")
        XCTAssertEqual(auto.notices.count, 1)
        XCTAssertTrue(auto.notices[0].contains("match no schema"), auto.notices[0])
        let image = try XCTUnwrap(TileRasterizer(sources: auto.sources, style: auto.style).render(TileID(z: 12, x: 0, y: 0), scale: 1)).image
        let ground = try XCTUnwrap(image.rgb(x: 200, y: 60))
        XCTAssertNotEqual(image.rgb(x: 60, y: 60), ground, "the polygon shows")
        XCTAssertNotEqual(image.rgb(x: 200, y: 192), ground, "the line shows")
    }

    func testACityFileCoversTheWorldFileWithinItsBounds() throws {
        // The world says sea everywhere here; the city (OpenMapTiles, no sea polygons) has data
        // in the tile's west half only.
        let world = FixtureSource(every: VectorTile(layers: [Fixture.layer("land", []), Fixture.layer("coastline", [
            Fixture.line([(1000, -100), (1000, 4196)]),
        ])]))
        let city = FixtureSource(every: VectorTile(layers: [Fixture.layer("building", [Fixture.rect(100, 100, 400, 400)]),
                                                            Fixture.layer("water", [])]))
        var auto = AutomaticStyle.make(for: [world, city])
        let tile = TileID(z: 14, x: 9000, y: 4000)
        // Bounds: the tile's west half.
        let n = 16384.0
        let west = Double(tile.x) / n * 360 - 180, east = (Double(tile.x) + 0.5) / n * 360 - 180
        func lat(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / n))) * 180 / Double.pi }
        auto.sources[1].bounds = (west, lat(Double(tile.y) + 1), east, lat(Double(tile.y)))
        let image = try XCTUnwrap(TileRasterizer(sources: auto.sources, style: auto.style).render(tile, scale: 1)).image
        XCTAssertEqual(image.rgb(x: 62, y: 200), 0xF2EFE9, "the city's ground, not the world's sea or coastline")
        XCTAssertEqual(image.rgb(x: 200, y: 200), Palette.water, "the world's sea outside the city")
    }
}
