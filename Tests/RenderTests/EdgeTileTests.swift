import CCairo
import Foundation
import Geo
import Tiles
import XCTest
@testable import Render

/// A cold frame draws its edge tiles only as far as it shows them (`TileArea`), and a later
/// frame that needs more of such a tile draws it whole: what is shown must be the bytes of the
/// tile drawn whole, whichever part was drawn and in which order.
final class EdgeTileTests: XCTestCase {
    private func source(_ name: String) throws -> MBTilesSource {
        try MBTilesSource(path: ShippedDataTests.dataDirectory.appendingPathComponent(name).path)
    }

    /// The pixels of `a` and `b` inside `area` that differ (x, y, a's, b's), at most 5.
    private func differences(_ a: RasterImage, _ b: RasterImage, in area: TileArea) -> [(Int, Int, UInt32, UInt32)] {
        var out: [(Int, Int, UInt32, UInt32)] = []
        for y in area.y0..<area.y1 {
            for x in area.x0..<area.x1 {
                let p = a.rgb(x: x, y: y), q = b.rgb(x: x, y: y)
                if p != q, out.count < 5 { out.append((x, y, p ?? 0, q ?? 0)) }
            }
        }
        return out
    }

    /// Edge parts of a tile of side `n`: strips along each side, the four corners, a middle box
    /// and a one-pixel column.
    private func areas(_ n: Int) -> [TileArea] {
        let a = n / 3, b = 2 * n / 3
        return [TileArea(x0: 0, y0: 0, x1: a, y1: n), TileArea(x0: b, y0: 0, x1: n, y1: n),
                TileArea(x0: 0, y0: 0, x1: n, y1: a), TileArea(x0: 0, y0: b, x1: n, y1: n),
                TileArea(x0: 0, y0: 0, x1: a, y1: a), TileArea(x0: b, y0: 0, x1: n, y1: a),
                TileArea(x0: 0, y0: b, x1: a, y1: n), TileArea(x0: b, y0: b, x1: n, y1: n),
                TileArea(x0: a, y0: a + 7, x1: b - 5, y1: b), TileArea(x0: n / 2, y0: 0, x1: n / 2 + 1, y1: n)]
    }

    private func checkParts(_ tiles: [TileID], sources: [any VectorTileSource], pixelSize: Int, scale: Double = 1,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let rasterizer = TileRasterizer(sources: sources)
        for tile in tiles {
            let whole = try XCTUnwrap(rasterizer.render(tile, pixelSize: pixelSize, scale: scale))
            XCTAssertNil(whole.area)
            for area in areas(pixelSize) {
                let part = try XCTUnwrap(rasterizer.render(tile, pixelSize: pixelSize, scale: scale, area: area))
                // A blank tile (open sea) is one shared image, whole.
                if part.image === whole.image { continue }
                XCTAssertEqual(part.area, area, "\(tile)", file: file, line: line)
                let diff = differences(part.image, whole.image, in: area)
                XCTAssertTrue(diff.isEmpty, "\(tile)@\(pixelSize)px \(area): \(diff.map { "(\($0.0), \($0.1)) \(String($0.2, radix: 16)) vs \(String($0.3, radix: 16))" })",
                              file: file, line: line)
                XCTAssertEqual(part.labels.candidates.count + part.labels.pieces.count, whole.labels.candidates.count + whole.labels.pieces.count, "\(tile) \(area): the labels are the whole tile's", file: file, line: line)
            }
        }
    }

    func testAContinentTileDrawnInPartHasTheWholeTilesBytesThere() throws {
        let world = try source("world.mbtiles")
        // Coasts, borders (hairlines), lakes (the filler), at the standard and a crisp size.
        try checkParts([TileID(z: 4, x: 8, y: 5), TileID(z: 4, x: 9, y: 4), TileID(z: 5, x: 17, y: 9)], sources: [world], pixelSize: 256)
        try checkParts([TileID(z: 3, x: 4, y: 2)], sources: [world], pixelSize: 331)
        try checkParts([TileID(z: 4, x: 8, y: 5)], sources: [world], pixelSize: 512, scale: 2)
    }

    func testAStreetTileDrawnInPartHasTheWholeTilesBytesThere() throws {
        let sources: [any VectorTileSource] = [try source("world.mbtiles"), try source("helsinki.mbtiles")]
        // Roads with casings through cairo's stroker, dashed paths, buildings; z17 overzoomed.
        try checkParts([TileID(z: 14, x: 9327, y: 4742), TileID(z: 15, x: 18654, y: 9484), TileID(z: 16, x: 37308, y: 18969)],
                       sources: sources, pixelSize: 256)
        try checkParts([TileID(z: 17, x: 74617, y: 37938)], sources: sources, pixelSize: 300)
    }

    /// The shipped views' frame, drawn cold (edge tiles in part), equals the frame composited
    /// from the same tiles drawn whole, and a pan then shows no hole: it equals the panned
    /// frame of a cache that drew every tile whole.
    func testAColdFrameAndAPanAfterItShowWhatWholeTilesShow() throws {
        let sources: [any VectorTileSource] = [try source("world.mbtiles"), try source("helsinki.mbtiles")]
        let views: [(Double, Double, Double)] = [(52, 15, 4), (60.1685, 24.9425, 16.5), (60.2, 24.94, 11)]
        for (lat, lon, z) in views {
            let camera = MapCamera(center: Coordinate(latitude: lat, longitude: lon), zoom: MapRenderer.crispZoom(z, scale: 1),
                                   size: ViewSize(width: 500, height: 300))
            var panned = camera
            panned.pan(by: ScreenPoint(x: 173, y: -121))

            var cold = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
            var whole = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
            cold.showsScaleBar = false; cold.showsAttribution = false
            whole.showsScaleBar = false; whole.showsAttribution = false
            whole.cache.renderNow(whole.tiles(for: camera) + whole.tiles(for: panned))

            let areas = cold.shownAreas(camera)
            XCTAssertFalse(areas.isEmpty, "a 500x300 view has edge tiles")
            let a = try frame(cold, camera, synchronous: true)
            // The edge tiles are cached in part: not shown as whole tiles to other frames.
            for (key, area) in areas {
                XCTAssertEqual(cold.cache.drawnArea(key), area)
                XCTAssertFalse(cold.cache.contains(key))
                XCTAssertNil(cold.cache.cached(key))
            }
            XCTAssertEqual(differing(a, try frame(whole, camera, synchronous: true)), 0, "\(lat), \(lon) z\(z): cold frame")
            // A synchronous pan draws what it needs more of whole, once.
            XCTAssertEqual(differing(try frame(cold, panned, synchronous: true), try frame(whole, panned, synchronous: true)), 0,
                           "\(lat), \(lon) z\(z): panned")
            for key in cold.tiles(for: panned) where cold.cache.drawnArea(key) != nil {
                XCTAssertTrue(cold.cache.drawnArea(key)!.contains(cold.shownAreas(panned)[key] ?? .whole(key.pixelSize)))
            }
        }
    }

    /// Live frames (`draw`, the workers) never show a tile drawn in part: they queue it whole,
    /// and once it lands the frame equals one from whole tiles.
    func testALiveFrameDrawsAPartlyCachedTileWhole() throws {
        let sources: [any VectorTileSource] = [try source("world.mbtiles")]
        let camera = MapCamera(center: Coordinate(latitude: 52, longitude: 15), zoom: 4, size: ViewSize(width: 400, height: 300))
        var cold = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
        cold.showsScaleBar = false; cold.showsAttribution = false
        var whole = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1))
        whole.showsScaleBar = false; whole.showsAttribution = false
        _ = try frame(cold, camera, synchronous: true)
        let partial = cold.tiles(for: camera).filter { cold.cache.drawnArea($0) != nil }
        XCTAssertFalse(partial.isEmpty)
        var panned = camera
        panned.pan(by: ScreenPoint(x: -40, y: 30))
        XCTAssertTrue(eventually {
            _ = try? frame(cold, panned, synchronous: false)
            return cold.tiles(for: panned).allSatisfy { cold.cache.contains($0) }
        }, "the parts are drawn whole by the workers")
        let stillShown = partial.filter(Set(cold.tiles(for: panned)).contains)
        XCTAssertFalse(stillShown.isEmpty)
        XCTAssertTrue(stillShown.allSatisfy { cold.cache.contains($0) && cold.cache.drawnArea($0) == nil })
        XCTAssertEqual(differing(try frame(cold, panned, synchronous: false), try frame(whole, panned, synchronous: true)), 0)
    }

    /// A tile cached whole is never replaced by a part drawn later for one frame.
    func testAPartNeverReplacesAWholeTile() throws {
        let cache = TileCache(rasterizer: TileRasterizer(sources: [FixtureSource(every: Fixture.halfLand)]), scale: 1)
        let key = TileKey(TileID(z: 3, x: 1, y: 2), pixelSize: 256)
        let area = TileArea(x0: 0, y0: 0, x1: 40, y1: 256)
        cache.renderNow([key], areas: [key: area])
        XCTAssertEqual(cache.drawnArea(key), area)
        // A frame needing less of it uses the part; one needing more draws it whole.
        cache.renderNow([key], areas: [key: TileArea(x0: 0, y0: 10, x1: 30, y1: 200)])
        XCTAssertEqual(cache.drawnArea(key), area)
        cache.renderNow([key], areas: [key: TileArea(x0: 0, y0: 0, x1: 41, y1: 256)])
        XCTAssertNil(cache.drawnArea(key))
        XCTAssertTrue(cache.contains(key))
        let image = cache.cached(key)
        cache.renderNow([key], areas: [key: area])
        XCTAssertTrue(cache.cached(key) === image, "the whole tile stays")
    }

    /// How many bytes of two frames differ (a count, not the frames: a failure stays readable).
    private func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count != b.count ? max(a.count, b.count) : zip(a, b).count(where: { $0 != $1 })
    }

    private func frame(_ renderer: MapRenderer, _ camera: MapCamera, synchronous: Bool) throws -> [UInt8] {
        let image = try XCTUnwrap(RasterImage(width: Int(camera.size.width), height: Int(camera.size.height)))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        if synchronous {
            renderer.drawSynchronously(camera, into: cr)
        } else {
            renderer.draw(camera, into: cr, moving: false)
        }
        cairo_surface_flush(image.surface)
        return image.bytes()
    }
}
