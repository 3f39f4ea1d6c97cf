import CCairo
import Geo
import Tiles
import XCTest
@testable import Render

final class MapRendererTests: XCTestCase {
    /// A 512x512 view on the equator at zoom 3: it shows tiles 3/3..4/3..4. With land on the
    /// west half of every tile, view x 0..128 and 256..384 are land when drawn from z3 tiles,
    /// while the z2 parents put land at 256..512 and sea at 0..256.
    let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: ViewSize(width: 512, height: 512))

    func frame(_ renderer: MapRenderer, _ camera: MapCamera, moving: Bool, sync: Bool = false) throws -> (RasterImage, FrameReport) {
        let image = try XCTUnwrap(RasterImage(width: Int(camera.size.width), height: Int(camera.size.height)))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        let report = sync ? renderer.drawSynchronously(camera, into: cr) : renderer.draw(camera, into: cr, moving: moving)
        return (image, report)
    }

    func plainRenderer(_ source: FixtureSource, scale: Double = 1) -> MapRenderer {
        var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [source]), scale: scale))
        r.showsScaleBar = false
        r.showsAttribution = false
        return r
    }

    func testUntilItsTilesArriveTheMapShowsTheCachedParentLevelScaledUp() throws {
        let source = FixtureSource(every: Fixture.halfLand, gatedZoom: 3)
        let renderer = plainRenderer(source)
        renderer.cache.renderNow([TileID(z: 2, x: 1, y: 1), TileID(z: 2, x: 2, y: 1), TileID(z: 2, x: 1, y: 2), TileID(z: 2, x: 2, y: 2)])

        let (first, report) = try frame(renderer, camera, moving: true)
        XCTAssertEqual(report.exactTiles, 0)
        XCTAssertEqual(report.visibleTiles, 4)
        XCTAssertEqual(first.rgb(x: 448, y: 256), Palette.land, "the parent's land, not blank background")
        XCTAssertEqual(first.rgb(x: 64, y: 256), Palette.water)

        source.open(4)
        XCTAssertTrue(eventually { renderer.tiles(for: camera).allSatisfy(renderer.cache.contains) })
        let (second, done) = try frame(renderer, camera, moving: false)
        XCTAssertTrue(done.isComplete)
        XCTAssertEqual(second.rgb(x: 64, y: 256), Palette.land)
        XCTAssertEqual(second.rgb(x: 448, y: 256), Palette.water)
    }

    func testAfterZoomingOutTheCachedChildrenStandInForTheMissingTiles() throws {
        let source = FixtureSource(every: Fixture.halfLand, gatedZoom: 3)
        let renderer = plainRenderer(source)
        renderer.cache.renderNow((6...9).flatMap { x in (6...9).map { TileID(z: 4, x: x, y: $0) } })
        let (image, _) = try frame(renderer, camera, moving: true)
        // z4 tile 9 puts land at view x 384..448, where the z3 tile (and the background) is sea.
        XCTAssertEqual(image.rgb(x: 420, y: 256), Palette.land)
        XCTAssertEqual(image.rgb(x: 470, y: 256), Palette.water)
        source.open(4)
    }

    func testWithNothingCachedTheFirstFrameIsPlainBackgroundAndAsksForTheTiles() throws {
        let source = FixtureSource(every: Fixture.halfLand, gated: true)
        let renderer = plainRenderer(source)
        let (image, report) = try frame(renderer, camera, moving: true)
        XCTAssertEqual(report.exactTiles, 0)
        XCTAssertEqual(image.rgb(x: 64, y: 256), Palette.background)
        XCTAssertTrue(eventually { source.requested.count >= 2 }, "both workers started on the visible tiles")
        source.open(4)
    }

    func testWhileMovingScaledTilesAreCopiedPixelForPixelAndSmoothedOnceSettled() throws {
        let renderer = plainRenderer(FixtureSource(every: Fixture.halfLand))
        var zoomed = camera
        zoomed.zoom = 3.3
        renderer.cache.renderNow(renderer.tiles(for: zoomed))
        let colours = { (image: RasterImage) in Set((0..<512).compactMap { image.rgb(x: $0, y: 256) }) }
        let moving = colours(try frame(renderer, zoomed, moving: true).0)
        XCTAssertEqual(moving, [Palette.land, Palette.water])
        let settled = colours(try frame(renderer, zoomed, moving: false).0)
        XCTAssertGreaterThan(settled.count, 2, "bilinear filtering blends the land/sea edge")
    }

    func testCrispZoomMovesTheZoomByAHairSoTilesSpanWholePixels() {
        for scale in [1.0, 1.5, 2.0] {
            for zoom in [3.0, 3.3, 3.49, 3.51, 10.7, 16.5] {
                let crisp = MapRenderer.crispZoom(zoom, scale: scale)
                XCTAssertEqual(crisp, zoom, accuracy: 0.004)
                let side = MapRenderer.tileSide(zoom: crisp, scale: scale)
                XCTAssertEqual(side, side.rounded(), accuracy: 1e-6)
                XCTAssertEqual(MapRenderer.crispZoom(crisp, scale: scale), crisp, accuracy: 1e-12)
            }
        }
        XCTAssertEqual(MapRenderer.crispZoom(7, scale: 1.5), 7)
    }

    func testAtACrispFractionalZoomTilesAreDrawnAtTheirOnScreenSizeAndCopied() throws {
        let renderer = plainRenderer(FixtureSource(every: Fixture.halfLand))
        var zoomed = camera
        zoomed.zoom = MapRenderer.crispZoom(3.3, scale: 1)
        XCTAssertEqual(renderer.tilePixelSize(for: zoomed), 315)
        XCTAssertTrue(try frame(renderer, zoomed, moving: false, sync: true).1.isComplete)
        // A synchronous frame draws its edge tiles only in part; here every tile is wanted whole.
        renderer.cache.renderNow(renderer.tiles(for: zoomed))
        let key = try XCTUnwrap(renderer.tiles(for: zoomed).first)
        XCTAssertEqual(renderer.cache.cached(key)?.width, 315)
        // Settled or moving, the frame is a copy of the tiles: no colour that no tile pixel has.
        let tileColours = Set(renderer.tiles(for: zoomed).compactMap { renderer.cache.cached($0) }.flatMap { tile in
            (0..<tile.width).compactMap { tile.rgb(x: $0, y: 100) }
        })
        for moving in [false, true] {
            let image = try frame(renderer, zoomed, moving: moving).0
            XCTAssertTrue(Set((0..<512).compactMap { image.rgb(x: $0, y: 256) }).isSubset(of: tileColours))
        }
    }

    func testUntilCrispTilesArriveTheStandardTilesStandIn() throws {
        let source = FixtureSource(every: Fixture.halfLand, gated: true)
        let renderer = plainRenderer(source)
        var zoomed = camera
        zoomed.zoom = MapRenderer.crispZoom(3.3, scale: 1)
        // The standard z3 tiles were drawn before the pinch settled.
        source.open(100)
        renderer.cache.renderNow(renderer.tiles(for: camera).map(\.tile))
        let standIn = try frame(renderer, zoomed, moving: true).0
        let exact = try frame(renderer, zoomed, moving: false, sync: true).0
        // Same map, same place: the stand-in's land/sea edges are where the exact frame has them.
        let row = { (image: RasterImage) in (0..<512).map { image.rgb(x: $0, y: 256) == Palette.land } }
        let differing = zip(row(standIn), row(exact)).filter { $0 != $1 }.count
        XCTAssertLessThanOrEqual(differing, 4)
    }

    func testTheSynchronousRenderGivesTheSameBytesEveryTime() throws {
        let world = VectorTile(layers: [
            Fixture.layer("land", [Fixture.rect(500, 500, 3000, 3500)]),
            Fixture.layer("boundaries", [Fixture.line([(1000, 0), (1200, 4096)])]),
        ])
        let cam = MapCamera(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 5.4, size: ViewSize(width: 300, height: 200))
        func shot() throws -> [UInt8] {
            var r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: world)]), scale: 1.5),
                                attributions: [MapAttribution(text: MapAttribution.openStreetMap)])
            r.showsScaleBar = true
            let image = try XCTUnwrap(RasterImage(width: 450, height: 300))
            let cr = try XCTUnwrap(cairo_create(image.surface))
            defer { cairo_destroy(cr) }
            cairo_scale(cr, 1.5, 1.5)
            XCTAssertTrue(r.drawSynchronously(cam, into: cr).isComplete)
            return image.bytes()
        }
        let a = try shot(), b = try shot()
        XCTAssertEqual(a, b)
        XCTAssertGreaterThan(Set(a).count, 8, "the frame is not blank")
    }

    func testTheScaleBarShowsARoundDistanceForTheCentreLatitude() {
        let helsinki = MapCamera(center: Coordinate(latitude: 60, longitude: 24.94), zoom: 15, size: ViewSize(width: 800, height: 600))
        // 156543.03 m/px at z0 on the equator, halved at 60° N, over 2^15.
        let (metres, length) = ScaleBar.measure(helsinki)
        XCTAssertEqual(metres, 200)
        XCTAssertEqual(length, 200 / (156_543.034 * 0.5 / 32768), accuracy: 0.01)
        XCTAssertEqual(ScaleBar.label(metres: metres), "200 m")
        let world = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 2, size: ViewSize(width: 800, height: 600))
        XCTAssertEqual(ScaleBar.label(metres: ScaleBar.measure(world).metres), "2000 km")
    }

    func testTheOpenStreetMapCreditShowsOnlyWhileTheCityIsInView() {
        let city = MapAttribution(text: MapAttribution.openStreetMap, bounds: (24.93, 60.16, 24.96, 60.18))
        let nature = MapAttribution(text: "Natural Earth")
        let overHelsinki = MapCamera(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 14, size: ViewSize(width: 800, height: 600))
        let overTokyo = MapCamera(center: Coordinate(latitude: 35.68, longitude: 139.7), zoom: 14, size: ViewSize(width: 800, height: 600))
        XCTAssertEqual(MapAttribution.visible([nature, city], camera: overHelsinki), ["Natural Earth", "© OpenStreetMap contributors"])
        XCTAssertEqual(MapAttribution.visible([nature, city], camera: overTokyo), ["Natural Earth"])
    }

    func testAttributionHTMLFromMetadataBecomesPlainText() {
        let html = #"<a href="https://openmaptiles.org/">&copy; OpenMapTiles</a> <a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>"#
        XCTAssertEqual(MapAttribution.plainText(fromHTML: html), "© OpenMapTiles © OpenStreetMap contributors")
    }

    func testTheAttributionIsDrawnInTheBottomRightCorner() throws {
        var r = plainRenderer(FixtureSource(every: Fixture.halfLand))
        r.showsAttribution = true
        r.attributions = [MapAttribution(text: MapAttribution.openStreetMap)]
        var cam = camera
        cam.zoom = 3
        let (image, _) = try frame(r, cam, moving: false, sync: true)
        let corner = (380..<510).flatMap { x in (495..<510).compactMap { image.rgb(x: x, y: $0) } }
        XCTAssertTrue(corner.contains { $0 & 0xFF < 0x60 }, "dark text pixels in the corner")
    }
}
