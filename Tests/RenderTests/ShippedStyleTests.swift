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

    func testThePMTilesCopyOfHelsinkiGetsTheSameStyleAndPixels() throws {
        let pm = try TileFiles.open(ShippedDataTests.dataDirectory.appendingPathComponent("test/helsinki.pmtiles").path)
        let auto = AutomaticStyle.make(for: [try file("world.mbtiles"), pm])
        XCTAssertEqual(auto.style.schema, "world+openmaptiles")
        let r = TileRasterizer(sources: auto.sources, style: auto.style)
        XCTAssertEqual(try colour(at: (60.16450, 24.93852), zoom: 17, r), 0xDBD2CA, "a building")
        XCTAssertEqual(try colour(at: (60.16598, 24.94395), zoom: 17, r), 0xFCE6B0, "a primary road")
        XCTAssertEqual(try colour(at: (60.17338, 24.94395), zoom: 17, r), 0xA8CBE0, "water")
    }

    /// The same Helsinki extract through tilemaker with the Shortbread config
    /// (data/test/helsinki-shortbread.mbtiles): the Shortbread style, same places, same look.
    func testTheShortbreadBuildOfHelsinkiByPixels() throws {
        let sb = try TileFiles.open(ShippedDataTests.dataDirectory.appendingPathComponent("test/helsinki-shortbread.mbtiles").path)
        let auto = AutomaticStyle.make(for: [try file("world.mbtiles"), sb])
        XCTAssertEqual(auto.style.schema, "world+shortbread")
        XCTAssertEqual(auto.notices, [])
        let r = TileRasterizer(sources: auto.sources, style: auto.style)
        XCTAssertEqual(try colour(at: (60.16450, 24.93852), zoom: 17, r), 0xDBD2CA, "a building")
        XCTAssertEqual(try colour(at: (60.16499, 24.94334), zoom: 17, r), 0xCFE5C0, "a park")
        XCTAssertEqual(try colour(at: (60.16598, 24.94395), zoom: 17, r), 0xFCE6B0, "a primary street")
        XCTAssertEqual(try colour(at: (60.17338, 24.94395), zoom: 17, r), 0xA8CBE0, "water")
        XCTAssertEqual(try colour(at: (60.16450, 24.93791), zoom: 17, r), 0xF2EFE9, "land")
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
            Fixture.layer("poi_label", [VectorFeature(type: .point, parts: [[TilePoint(x: 3072, y: 1024)]],
                                                      properties: ["name": .string("Nowhereville")])]),
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
        // And its names: the point's `name` is placed as a label at its point (a tile 12/128/128
        // spans view px 128…384 each way) and drawn, hanging below it (`text-anchor: top`).
        var renderer = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: auto.sources, style: auto.style), scale: 1))
        renderer.showsScaleBar = false
        renderer.showsAttribution = false
        var camera = LabelPlacerTests.camera(zoom: 12, size: ViewSize(width: 512, height: 512))
        camera.center = WorldPoint(x: 128.5 / 16, y: 128.5 / 16)
        let frame = try XCTUnwrap(RasterImage(width: 512, height: 512))
        let cr = try XCTUnwrap(cairo_create(frame.surface))
        defer { cairo_destroy(cr) }
        renderer.drawSynchronously(camera, into: cr)
        let label = try XCTUnwrap(renderer.labels(for: camera).first { $0.text == "Nowhereville" && abs($0.anchor.x - 320) < 1 },
                                  "\(renderer.labels(for: camera).map(\.text))")
        XCTAssertEqual(label.anchor.y, 192, accuracy: 1)
        XCTAssertGreaterThan(label.box.y, label.anchor.y - 1, "text-anchor top: below its point")
        let ink = (Int(label.box.x)..<Int(label.box.x + label.box.width)).flatMap { x in
            (Int(label.box.y)..<Int(label.box.y + label.box.height)).map { frame.rgb(x: x, y: $0) } }.filter { $0 != frame.rgb(x: 320, y: 100) }
        XCTAssertGreaterThan(ink.count, 20, "its text drawn")
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

    func testACityFileWithoutBoundsCoversTheWorldWhereItsTilesAre() throws {
        // data/test/no-index.mbtiles: Helsinki zooms 0-7 with no `bounds` (and no tiles index).
        let city = try TileFiles.open(ShippedDataTests.dataDirectory.appendingPathComponent("test/no-index.mbtiles").path)
        XCTAssertNil(city.metadata.bounds)
        let auto = AutomaticStyle.make(for: [try file("world.mbtiles"), city])
        let b = try XCTUnwrap(auto.sources[1].bounds, "derived from the tiles present")
        // Its one z7 tile, 7/72/37.
        func lat(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / 128))) * 180 / Double.pi }
        XCTAssertEqual(b.west, 72 / 128 * 360 - 180, accuracy: 1e-9)
        XCTAssertEqual(b.east, 73 / 128 * 360 - 180, accuracy: 1e-9)
        XCTAssertEqual(b.north, lat(37), accuracy: 1e-9)
        XCTAssertEqual(b.south, lat(38), accuracy: 1e-9)
        // Drawn at z8 under a city style that is only a magenta background: its ground covers
        // the city's tile and nothing west of it.
        let dir = try XCTUnwrap(ShippedStyles.directory())
        let world = try ShippedStyles.load(dir + "/world.json")
        let ground = try Style.parse(Array(##"{"version": 8, "sources": {"c": {"type": "vector"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#FF00FF"}}]}"##.utf8), path: "/nowhere/city.json")
        let style = Style.layered([world, ground], name: "test")
        let sources = [StyledSource(id: "0:" + world.sources[0].id, source: try file("world.mbtiles")),
                       StyledSource(id: "1:c", source: city, bounds: AutomaticStyle.bounds(of: city))]
        let r = TileRasterizer(sources: sources, style: style)
        let inside = try XCTUnwrap(r.render(TileID(z: 8, x: 145, y: 75), scale: 1)).image
        let outside = try XCTUnwrap(r.render(TileID(z: 8, x: 143, y: 75), scale: 1)).image
        let magenta = { (img: RasterImage) in (0..<64).flatMap { y in (0..<64).map { (4 * $0, 4 * y) } }.filter { img.rgb(x: $0.0, y: $0.1) == 0xFF00FF }.count }
        XCTAssertEqual(magenta(inside), 64 * 64, "the city's ground over its whole tile")
        XCTAssertEqual(magenta(outside), 0, "no city ground outside it")
    }
}

/// The Shortbread and Protomaps styles on tiles in their schemas: land, water, a road, a
/// building at known pixels.
final class SchemaStyleTests: XCTestCase {
    private func render(_ tile: VectorTile) throws -> RasterImage {
        try XCTUnwrap(TileRasterizer(sources: [FixtureSource(every: tile)]).render(TileID(z: 16, x: 0, y: 0), scale: 1)).image
    }

    func testShortbreadLandWaterRoadAndBuilding() throws {
        let tile = VectorTile(layers: [
            Fixture.layer("ocean", [Fixture.rect(3072, 0, 4196, 4196)]),
            Fixture.layer("land", [Fixture.rect(0, 0, 1024, 1024, props: ["kind": .string("forest")])]),
            Fixture.layer("buildings", [Fixture.rect(0, 3072, 1024, 4096)]),
            Fixture.layer("streets", [Fixture.line([(-100, 2048), (3000, 2048)], props: ["kind": .string("primary")])]),
            Fixture.layer("place_labels", []),
        ])
        XCTAssertEqual(AutomaticStyle.make(for: [FixtureSource(every: tile)]).style.schema, "shortbread")
        let image = try render(tile)
        XCTAssertEqual(image.rgb(x: 128, y: 100), 0xF2EFE9, "land is the background")
        XCTAssertEqual(image.rgb(x: 230, y: 100), Palette.water, "the ocean layer")
        XCTAssertEqual(image.rgb(x: 30, y: 30), 0xC2DCB0, "forest")
        XCTAssertEqual(image.rgb(x: 30, y: 230), 0xDBD2CA, "a building")
        XCTAssertEqual(image.rgb(x: 100, y: 128), 0xFCE6B0, "a primary street")
    }

    func testProtomapsLandWaterRoadAndBuilding() throws {
        let tile = VectorTile(layers: [
            Fixture.layer("earth", [Fixture.rect(-100, -100, 3072, 4196)]),
            Fixture.layer("water", [Fixture.rect(2000, 0, 2500, 1024)]),
            Fixture.layer("buildings", [Fixture.rect(0, 3072, 1024, 4096)]),
            Fixture.layer("roads", [Fixture.line([(-100, 2048), (3000, 2048)], props: ["kind": .string("major_road")])]),
            Fixture.layer("places", []),
        ])
        XCTAssertEqual(AutomaticStyle.make(for: [FixtureSource(every: tile)]).style.schema, "protomaps")
        let image = try render(tile)
        XCTAssertEqual(image.rgb(x: 60, y: 100), 0xF2EFE9, "the earth layer is land")
        XCTAssertEqual(image.rgb(x: 230, y: 100), Palette.water, "beyond the earth: the sea background")
        XCTAssertEqual(image.rgb(x: 140, y: 30), Palette.water, "a water polygon")
        XCTAssertEqual(image.rgb(x: 30, y: 230), 0xDBD2CA, "a building")
        XCTAssertEqual(image.rgb(x: 100, y: 128), 0xFCE6B0, "a major road")
    }

    func testLineOffsetMovesALineToTheRightOfItsDirection() throws {
        let style = try Style.parse(Array("""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "l", "type": "line", "source": "s", "source-layer": "l",
               "paint": {"line-color": "#000000", "line-width": 4, "line-offset": 20}}]}
            """.utf8), path: "offset.json")
        // Westward along y = 128 px: its right is north (up).
        let tile = VectorTile(layers: [Fixture.layer("l", [Fixture.line([(4196, 2048), (-100, 2048)])])])
        let r = TileRasterizer(sources: [StyledSource(id: "s", source: FixtureSource(every: tile))], style: style)
        let image = try XCTUnwrap(r.render(TileID(z: 10, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(image.rgb(x: 128, y: 108), 0x000000, "20 px to the right of travel")
        XCTAssertEqual(image.rgb(x: 128, y: 128), 0xFFFFFF, "not on the line itself")
        XCTAssertEqual(image.rgb(x: 128, y: 148), 0xFFFFFF)
    }

    func testNonsenseValuesDrawNothingBadAndTheLayersAfterThemStillDraw() throws {
        let style = try Style.parse(Array("""
            {"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "c", "type": "circle", "source": "s", "source-layer": "p", "paint": {"circle-radius": -5, "circle-stroke-width": 2}},
              {"id": "d0", "type": "line", "source": "s", "source-layer": "l", "paint": {"line-width": 3, "line-dasharray": [0, 0]}},
              {"id": "d1", "type": "line", "source": "s", "source-layer": "l", "paint": {"line-width": 3, "line-dasharray": [-1, 2, 3]}},
              {"id": "w", "type": "line", "source": "s", "source-layer": "l", "paint": {"line-width": -4, "line-color": "nonsense"}},
              {"id": "f", "type": "fill", "source": "s", "source-layer": "a", "paint": {"fill-color": "#00ff00", "fill-opacity": ["get", "missing"]}}]}
            """.utf8), path: "nonsense.json")
        let tile = VectorTile(layers: [
            Fixture.layer("p", [VectorFeature(type: .point, parts: [[TilePoint(x: 100, y: 100)]])]),
            Fixture.layer("l", [Fixture.line([(0, 3000), (4096, 3000)])]),
            Fixture.layer("a", [Fixture.rect(2048, 0, 4096, 2048)]),
        ])
        let r = TileRasterizer(sources: [StyledSource(id: "s", source: FixtureSource(every: tile))], style: style)
        let image = try XCTUnwrap(r.render(TileID(z: 10, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(image.rgb(x: 200, y: 60), 0x00FF00, "the fill after the nonsense is drawn (opacity falls back to 1)")
    }
}
