import Tiles
import XCTest
@testable import Render

final class TileRasterizerTests: XCTestCase {
    func testLandIsLandColourAndSeaIsWaterColour() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)])
        let tile = try XCTUnwrap(r.render(TileID(z: 3, x: 4, y: 2), scale: 1))
        XCTAssertEqual(tile.image.rgb(x: 60, y: 128), Palette.land)
        XCTAssertEqual(tile.image.rgb(x: 200, y: 128), Palette.water)
    }

    func testOpenMapTilesParksWaterAndBuildingsGetTheirColours() throws {
        let city = VectorTile(layers: [
            Fixture.layer("park", [Fixture.rect(0, 0, 1024, 1024)]),
            Fixture.layer("water", [Fixture.rect(3072, 0, 4096, 1024)]),
            Fixture.layer("building", [Fixture.rect(0, 3072, 1024, 4096)]),
        ])
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand), FixtureSource(every: city)])
        let high = try XCTUnwrap(r.render(TileID(z: 15, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(high.rgb(x: 30, y: 30), Palette.park)
        XCTAssertEqual(high.rgb(x: 230, y: 30), Palette.water)
        XCTAssertEqual(high.rgb(x: 30, y: 230), Palette.building)
        // Buildings are left out when zoomed out: the same spot shows the land under them.
        let low = try XCTUnwrap(r.render(TileID(z: 12, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(low.rgb(x: 30, y: 230), Palette.land)
    }

    /// Rows of a column that show the road's fill colour exactly (fully covered pixels).
    private func roadThickness(scale: Double) throws -> Int {
        let road = VectorTile(layers: [Fixture.layer("transportation", [
            Fixture.line([(-100, 2048), (4196, 2048)], props: ["class": .string("motorway")]),
        ])])
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand), FixtureSource(every: road)])
        let image = try XCTUnwrap(r.render(TileID(z: 16, x: 0, y: 0), scale: scale)).image
        let column = image.width / 4
        return (0..<image.height).filter { image.rgb(x: column, y: $0) == Palette.motorway }.count
    }

    func testLinesKeepTheirLogicalWidthAtEveryBufferScale() throws {
        let one = try roadThickness(scale: 1)
        let two = try roadThickness(scale: 2)
        let oneAndHalf = try roadThickness(scale: 1.5)
        XCTAssertGreaterThan(one, 4)
        XCTAssertEqual(Double(two), Double(one) * 2, accuracy: 2, "a scale-2 tile draws the road twice as many pixels wide")
        XCTAssertEqual(Double(oneAndHalf), Double(one) * 1.5, accuracy: 2)
    }

    func testScaleTwoTilesHaveTwiceThePixels() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)])
        XCTAssertEqual(try XCTUnwrap(r.render(TileID(z: 1, x: 0, y: 0), scale: 2)).image.width, 512)
        XCTAssertEqual(try XCTUnwrap(r.render(TileID(z: 1, x: 0, y: 0), scale: 1.5)).image.width, 384)
    }

    func testPastTheSourcesDeepestLevelTheParentTileIsDrawnScaledUp() throws {
        // The data stops at z2; its tile 2/0/0 is land on the west half.
        let source = FixtureSource(tiles: [TileID(z: 2, x: 0, y: 0): Fixture.halfLand], maxZoom: 2)
        let r = TileRasterizer(sources: [source])
        // 4/1/0 lies in the west half of 2/0/0, 4/3/0 in its east half.
        let west = try XCTUnwrap(r.render(TileID(z: 4, x: 1, y: 0), scale: 1)).image
        let east = try XCTUnwrap(r.render(TileID(z: 4, x: 3, y: 0), scale: 1)).image
        XCTAssertEqual(west.rgb(x: 128, y: 128), Palette.land)
        XCTAssertEqual(east.rgb(x: 128, y: 128), Palette.water)
        // One level past the data works the same way: 3/0/0 is the parent's north-west quarter.
        let middle = try XCTUnwrap(r.render(TileID(z: 3, x: 0, y: 0), scale: 1)).image
        XCTAssertEqual(middle.rgb(x: 10, y: 10), Palette.land)
        XCTAssertTrue(source.requested.contains(TileID(z: 2, x: 0, y: 0)), "the deepest level is read")
    }

    func testADamagedTileIsReportedAndTheOtherSourcesStillDrawn() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand), FixtureSource(failing: true)])
        let out = try XCTUnwrap(r.render(TileID(z: 5, x: 3, y: 3), scale: 1))
        XCTAssertEqual(out.image.rgb(x: 60, y: 60), Palette.land)
        XCTAssertEqual(out.errors.count, 1)
        XCTAssertTrue(out.errors[0].contains("damaged tile data"), out.errors[0])
    }

    func testAPlaceNameIsDrawnCentredOnItsPoint() throws {
        let places = VectorTile(layers: [Fixture.layer("places", [
            VectorFeature(type: .point, parts: [[TilePoint(x: 1024, y: 2048)]],
                          properties: ["name": .string("Helsinki"), "rank": .int(1), "capital": .int(1)]),
        ])])
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand), FixtureSource(every: places)])
        let image = try XCTUnwrap(r.render(TileID(z: 5, x: 0, y: 0), scale: 1)).image
        // The world style centres the name on the place at (64, 128): dark pixels on both sides.
        let dark = { (xs: Range<Int>) in xs.flatMap { x in (118..<138).map { (x, $0) } }.filter { p in
            (image.rgb(x: p.0, y: p.1) ?? 0xFFFFFF) & 0xFF < 0x80
        }.count }
        XCTAssertGreaterThan(dark(36..<64), 10)
        XCTAssertGreaterThan(dark(64..<92), 10)
        XCTAssertEqual(dark(100..<180), 0, "nothing far right of it")
    }

    func testNothingIsDrawnBetweenTwoPlaceDots() throws {
        let city = { (x: Int32, y: Int32, name: String) in
            VectorFeature(type: .point, parts: [[TilePoint(x: x, y: y)]], properties: ["name": .string(name), "rank": .int(1)])
        }
        let tile = VectorTile(layers: [
            Fixture.layer("land", [Fixture.rect(-100, -100, 4196, 4196)]),
            Fixture.layer("places", [city(800, 800, "Alpha"), city(3000, 3000, "Beta")]),
        ])
        let image = try XCTUnwrap(TileRasterizer(sources: [FixtureSource(every: tile)]).render(TileID(z: 6, x: 1, y: 1), scale: 1)).image
        // Alpha's name is centred at (50, 50), Beta's at (187, 187): the open country between
        // them (around (140, 121)) shows only land, no stray stroke joining the two.
        let between = (136...144).flatMap { x in (117...125).compactMap { image.rgb(x: x, y: $0) } }
        XCTAssertEqual(Set(between), [Palette.land])
    }

    func testHairlineBordersAreThinAndFollowTheirLine() throws {
        let tile = VectorTile(layers: [
            Fixture.layer("land", [Fixture.rect(-100, -100, 4196, 4196)]),
            Fixture.layer("boundaries", [Fixture.line([(2048, -100), (2048, 4196)])]),
        ])
        // At z4 a border is 0.8 px: drawn as a hairline, one pixel column (two where it
        // straddles a pixel edge), in border colour blended with the land.
        let image = try XCTUnwrap(TileRasterizer(sources: [FixtureSource(every: tile)]).render(TileID(z: 4, x: 3, y: 3), scale: 1)).image
        for y in [10, 128, 250] {
            let touched = (120..<136).filter { image.rgb(x: $0, y: y) != Palette.land }
            XCTAssertFalse(touched.isEmpty, "the border shows in row \(y)")
            XCTAssertTrue(touched.allSatisfy { $0 == 127 || $0 == 128 }, "only next to x = 128, not \(touched)")
        }
    }

    func testOpenSeaTilesShareOneBackgroundImage() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: VectorTile(layers: [Fixture.layer("land", [])]))])
        let a = try XCTUnwrap(r.render(TileID(z: 5, x: 1, y: 1), scale: 1)).image
        let b = try XCTUnwrap(r.render(TileID(z: 5, x: 2, y: 9), scale: 1)).image
        XCTAssertTrue(a === b, "one image, not one per tile")
        XCTAssertEqual(a.rgb(x: 100, y: 100), Palette.water)
    }

    func testTheSameTileDrawsTheSameBytesEveryTime() throws {
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)])
        let a = try XCTUnwrap(r.render(TileID(z: 6, x: 10, y: 20), scale: 1.5)).image.bytes()
        let b = try XCTUnwrap(r.render(TileID(z: 6, x: 10, y: 20), scale: 1.5)).image.bytes()
        XCTAssertEqual(a, b)
    }
}
