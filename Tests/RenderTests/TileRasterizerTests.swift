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
        XCTAssertEqual(out.errors.first?.message, "damaged tile data")
        XCTAssertEqual(out.errors.first?.tile, TileID(z: 5, x: 3, y: 3))
    }

    func testATileThatCannotBeReadIsDrawnFromItsNearestReadableAncestor() throws {
        // Zooms 3 and 4 are damaged; 2/0/0 (land in its west half) reads.
        let source = FixtureSource(tiles: [TileID(z: 2, x: 0, y: 0): Fixture.halfLand], failingZooms: [3, 4])
        let r = TileRasterizer(sources: [source])
        let west = try XCTUnwrap(r.render(TileID(z: 4, x: 1, y: 0), scale: 1))
        let east = try XCTUnwrap(r.render(TileID(z: 4, x: 3, y: 0), scale: 1))
        XCTAssertEqual(west.image.rgb(x: 128, y: 128), Palette.land, "the ancestor's land, not a blank square")
        XCTAssertEqual(east.image.rgb(x: 128, y: 128), Palette.water)
        XCTAssertEqual(west.errors, [TileFailure(source: "fixture", tile: TileID(z: 4, x: 1, y: 0), message: "damaged tile data")])
        XCTAssertTrue(source.requested.contains(TileID(z: 2, x: 0, y: 0)))
    }

    func testAPlaceNameIsNotPaintedIntoTheTileButBecomesACandidateAtItsPoint() throws {
        let places = VectorTile(layers: [Fixture.layer("places", [
            VectorFeature(type: .point, parts: [[TilePoint(x: 1024, y: 2048)]],
                          properties: ["name": .string("Helsinki"), "rank": .int(1), "capital": .int(1)]),
        ])])
        let r = TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand), FixtureSource(every: places)])
        let out = try XCTUnwrap(r.render(TileID(z: 5, x: 0, y: 0), scale: 1))
        // No text in the tile's pixels: the screen-wide placer draws it over the map.
        let dark = (0..<256).flatMap { x in (0..<256).map { (x, $0) } }.filter { p in
            (out.image.rgb(x: p.0, y: p.1) ?? 0xFFFFFF) & 0xFF < 0x80
        }
        XCTAssertEqual(dark.count, 0)
        // The world style's `places` layer names it; 1024/4096 of tile 5/0/0 (8 world units
        // wide) is world x 2, y 4.
        let c = try XCTUnwrap(out.labels.candidates.first)
        XCTAssertEqual(out.labels.candidates.count, 1)
        XCTAssertEqual(c.text, "Helsinki")
        XCTAssertEqual(c.layerID, "places")
        XCTAssertEqual(c.anchor.x, 2, accuracy: 1e-9)
        XCTAssertEqual(c.anchor.y, 4, accuracy: 1e-9)
        var unlabelled = r
        unlabelled.extractsLabels = false
        XCTAssertTrue(try XCTUnwrap(unlabelled.render(TileID(z: 5, x: 0, y: 0), scale: 1)).labels.candidates.isEmpty)
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

    /// The hairline's own rounding (no C library call) puts segment ends on the pixels
    /// `rounded()` did, halves and their neighbours included, so lines land where they did.
    func testHairlineRoundingIsTheLibraryRounding() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 181.5, -1, 4097.5]
        for v in values { values += [v.nextUp, v.nextDown] }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(Int64(bitPattern: state) >> 40) / 1024)
        }
        for v in values {
            XCTAssertEqual(HairlineCanvas.roundedHalfAway(v).bitPattern, v.rounded().bitPattern, "\(v)")
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
