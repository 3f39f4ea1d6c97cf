import CCairo
import Foundation
import Geo
import Tiles
import XCTest
@testable import Render

/// Tiles at their own size, and the kept turned frame of a rotated pan, are copied straight
/// into an image frame's pixels through pixman (`FramePixels`), not drawn through cairo: every frame must come out byte for byte as cairo drew it, north up and
/// turned, settled and moving, mid-pinch (scaled tiles, still cairo's), under a clip cutting
/// through tiles, into an opaque and a transparent frame, and with stand-ins for missing tiles.
/// A settled frame drawn from cold tiles (`drawSynchronously`) has its tiles copied by the
/// threads that draw them (`EarlyTileCopies`): those frames must be cairo's bytes too.
final class TileCopyTests: XCTestCase {
    private func source(_ name: String) throws -> MBTilesSource {
        try MBTilesSource(path: ShippedDataTests.dataDirectory.appendingPathComponent(name).path)
    }

    private func renderer(_ sources: [any VectorTileSource], direct: Bool) -> MapRenderer {
        MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: 1),
                    labelsStraightIntoPixels: true, tilesStraightIntoPixels: direct)
    }

    /// A frame larger than the view, filled with a half-transparent colour, so the view's
    /// edges and anything drawn past them show.
    private struct Frame {
        let image: RasterImage
        let cr: OpaquePointer
        init(opaque: Bool, clip: (Double, Double, Double, Double)?) throws {
            image = try XCTUnwrap(RasterImage(width: 780, height: 560, opaque: opaque))
            cr = try XCTUnwrap(cairo_create(image.surface))
            cairo_set_source_rgba(cr, 0.2, 0.4, 0.6, 0.5)
            cairo_paint(cr)
            if let clip {
                cairo_rectangle(cr, clip.0, clip.1, clip.2, clip.3)
                cairo_clip(cr)
            }
        }
        func bytes() -> [UInt8] { image.bytes() }
        var stride: Int { Int(cairo_image_surface_get_stride(image.surface)) }
        func close() { cairo_destroy(cr) }
    }

    /// Whether two frames' bytes are the same (memcmp: the tests run unoptimised).
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { p in b.withUnsafeBytes { q in memcmp(p.baseAddress!, q.baseAddress!, a.count) == 0 } }
    }

    /// The pixel box (x0, y0, x1, y1) around the bytes that differ, for the failure message.
    private static func box(_ a: [UInt8], _ b: [UInt8], stride: Int) -> (Int, Int, Int, Int)? {
        var out: (Int, Int, Int, Int)?
        for i in a.indices where a[i] != b[i] {
            let x = (i % stride) / 4, y = i / stride
            out = out.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
        }
        return out
    }

    private static let origin = ScreenPoint(x: 37, y: 23)

    /// Draws the same frames with `direct` and `cairo` (settled, then panned while moving,
    /// then settled again), comparing every frame; returns how many frames changed from the
    /// one before (the pans must move the map, or the comparison proves little).
    @discardableResult
    private func compare(_ direct: MapRenderer, _ cairo: MapRenderer, _ camera: MapCamera, opaque: Bool = true,
                         clip: (Double, Double, Double, Double)? = nil, what: String,
                         file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let a = try Frame(opaque: opaque, clip: clip), b = try Frame(opaque: opaque, clip: clip)
        defer { a.close(); b.close() }
        var moved = camera
        var previous: [UInt8] = []
        var changes = 0
        for step in 0..<6 {
            if step == 0 {
                direct.drawSynchronously(moved, into: a.cr, at: Self.origin)
                cairo.drawSynchronously(moved, into: b.cr, at: Self.origin)
                // Every tile the pan (and a turned pan's kept frame) needs, drawn whole now: a
                // moving frame never waits for tiles, so otherwise each renderer would show
                // whichever had arrived.
                var around = camera
                around.size = ViewSize(width: camera.size.width + 400, height: camera.size.height + 400)
                for r in [direct, cairo] { r.cache.renderNow(r.tiles(for: around)) }
            } else {
                let d = [3.0, 3, -2, 7, 0][step - 1]
                moved.pan(by: ScreenPoint(x: d, y: d / 2 + 1))
                // The last frame settles where the pan stopped.
                let moving = step < 5
                direct.draw(moved, into: a.cr, at: Self.origin, moving: moving)
                cairo.draw(moved, into: b.cr, at: Self.origin, moving: moving)
            }
            let pa = a.bytes(), pb = b.bytes()
            let differing = Self.same(pa, pb) ? 0 : zip(pa, pb).count(where: { $0 != $1 })
            XCTAssertEqual(differing, 0, "\(what), frame \(step): bytes differing from cairo's, in \(Self.box(pa, pb, stride: a.stride) as Any)",
                           file: file, line: line)
            if !previous.isEmpty, !Self.same(previous, pb) { changes += 1 }
            previous = pb
        }
        return changes
    }

    func testTilesCopiedStraightIntoTheFrameAreTheSamePixelsAsCairoDrewThem() throws {
        let sources: [any VectorTileSource] = [try source("world.mbtiles"), try source("helsinki.mbtiles")]
        let direct = renderer(sources, direct: true), cairo = renderer(sources, direct: false)
        let size = ViewSize(width: 700, height: 500)
        let views = [
            MapCamera(center: Coordinate(latitude: 60.17, longitude: 24.944), zoom: MapRenderer.crispZoom(13.3, scale: 1), size: size),
            MapCamera(center: Coordinate(latitude: 52, longitude: 15), zoom: MapRenderer.crispZoom(4.4, scale: 1), size: size),
            // The whole world and the area past its poles: the background shows.
            MapCamera(center: Coordinate(latitude: 20, longitude: 0), zoom: 1, size: size),
        ]
        for view in views {
            let name = "z\(view.zoom)"
            XCTAssertGreaterThan(try compare(direct, cairo, view, what: "\(name) north up"), 2)
            var turned = view
            turned.bearing = 37
            XCTAssertGreaterThan(try compare(direct, cairo, turned, what: "\(name) bearing 37"), 2)
            try compare(direct, cairo, view, opaque: false, what: "\(name) transparent frame")
            try compare(direct, cairo, view, clip: (100, 90, 301.5, 257), what: "\(name) clipped (a half-pixel edge: cairo's)")
            try compare(direct, cairo, view, clip: (100, 90, 301, 257), what: "\(name) clipped")
            try compare(direct, cairo, turned, clip: (100, 90, 301, 257), what: "\(name) bearing 37 clipped")
            var pinched = view
            pinched.zoom += 0.3
            try compare(direct, cairo, pinched, what: "\(name) mid-pinch")
        }
        XCTAssertGreaterThan(direct.straightCopies.value, 500, "the tiles went straight into the frames")
        XCTAssertEqual(cairo.straightCopies.value, 0)
        // The settled frames' tiles were copied by the threads that drew them (drawSynchronously).
        // (Each view's first frame draws its tiles; the later ones find them cached.)
        XCTAssertGreaterThan(direct.copiesAsDrawnCount.value, 10, "tiles copied as they were drawn")
        XCTAssertEqual(cairo.copiesAsDrawnCount.value, 0)
        direct.cache.shutDown()
        cairo.cache.shutDown()
    }

    /// Stand-ins: some tiles of the grid cached (copied), the rest shown from their cached
    /// parent scaled up (cairo), drawn over one another in the frame's order.
    func testFramesWithStandInsAreTheSamePixelsAsCairoDrewThem() throws {
        func tiles(_ z: Int) -> [TileID: VectorTile] {
            var out: [TileID: VectorTile] = [:]
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    // A different square in every tile, so a tile copied to the wrong place shows.
                    let k = Int32((x * 7 + y * 13) % 16)
                    out[TileID(z: z, x: x, y: y)] = VectorTile(layers: [Fixture.layer("land", [Fixture.rect(k * 200, k * 150, k * 200 + 1200, k * 150 + 900)])])
                }
            }
            return out
        }
        let all = tiles(2).merging(tiles(3)) { a, _ in a }
        let camera = MapCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, size: ViewSize(width: 700, height: 500))
        var frames: [[UInt8]] = []
        var sources: [FixtureSource] = []
        for direct in [true, false] {
            let source = FixtureSource(tiles: all, gatedZoom: 3)
            sources.append(source)
            let r = renderer([source], direct: direct)
            r.cache.renderNow((0..<4).flatMap { x in (0..<4).map { TileID(z: 2, x: x, y: $0) } })
            // Three of the z3 tiles through the gate; the rest stay missing.
            source.open(3)
            r.cache.renderNow([TileID(z: 3, x: 3, y: 3), TileID(z: 3, x: 4, y: 4), TileID(z: 3, x: 2, y: 4)])
            let f = try Frame(opaque: true, clip: nil)
            defer { f.close() }
            let report = r.draw(camera, into: f.cr, at: Self.origin, moving: true)
            XCTAssertEqual(report.exactTiles, 3)
            XCTAssertGreaterThan(report.visibleTiles, report.exactTiles)
            frames.append(f.bytes())
            XCTAssertEqual(r.straightCopies.value > 0, direct)
        }
        XCTAssertTrue(Self.same(frames[0], frames[1]), "bytes differing from cairo's with stand-ins, in \(Self.box(frames[0], frames[1], stride: 780 * 4) as Any)")
        for s in sources { s.open(64) }
    }

    /// A settled frame from cold tiles, one of which cannot be read (damaged data): it is drawn
    /// from its nearest readable ancestor, on a drawing thread like the others, with the error
    /// noted, and copied into the frame as it is drawn. The frame must be cairo's bytes.
    /// (A tile whose image cannot be made at all, the fallback that paints the background and
    /// copies every tile again, needs an allocation to fail and is not played here.)
    func testAFrameWithADamagedTileIsTheSamePixelsAsCairoDrewIt() throws {
        var all: [TileID: VectorTile] = [:]
        for z in [2, 3] {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let k = Int32((x * 7 + y * 13 + z) % 16)
                    all[TileID(z: z, x: x, y: y)] = VectorTile(layers: [Fixture.layer("land", [Fixture.rect(k * 200, k * 150, k * 200 + 1200, k * 150 + 900)])])
                }
            }
        }
        let damaged = TileID(z: 3, x: 3, y: 3)
        // A north-up view inside the world (no background past the poles), so the early copies apply.
        let camera = MapCamera(center: Coordinate(latitude: 20, longitude: -10), zoom: 3, size: ViewSize(width: 700, height: 500))
        var frames: [[UInt8]] = []
        var reports: [FrameReport] = []
        var early: [Int] = []
        for direct in [true, false] {
            let r = renderer([FixtureSource(tiles: all, failingTiles: [damaged])], direct: direct)
            r.cache.renderNow((0..<4).flatMap { x in (0..<4).map { TileID(z: 2, x: x, y: $0) } })
            let f = try Frame(opaque: true, clip: nil)
            defer { f.close() }
            reports.append(r.drawSynchronously(camera, into: f.cr, at: Self.origin))
            frames.append(f.bytes())
            early.append(r.copiesAsDrawnCount.value)
            r.cache.shutDown()
        }
        XCTAssertTrue(camera.visibleTiles(tileZoom: 3).contains { $0.unwrappedX == damaged.x && $0.y == damaged.y },
                      "the damaged tile is in view")
        XCTAssertTrue(reports[0].isComplete, "the damaged tile drawn from its ancestor, like any other: \(reports[0])")
        XCTAssertEqual(early[0], reports[0].visibleTiles, "every tile, the damaged one too, copied as it was drawn")
        XCTAssertEqual(early[1], 0)
        XCTAssertTrue(Self.same(frames[0], frames[1]),
                      "bytes differing from cairo's with a damaged tile, in \(Self.box(frames[0], frames[1], stride: 780 * 4) as Any)")
    }
}
