import CCairo
import Foundation
import Geo
import Tiles
import XCTest
@testable import Render

/// A label's halo is its glyph mask painted at eight offsets in the halo colour. Painted through
/// pixman directly (`LabelLayer.haloStraightIntoPixels`), the frames must be byte for byte what
/// `cairo_mask_surface` made, at every scale and with the shipped styles' halo colours.
final class HaloPixelTests: XCTestCase {
    override func tearDown() {
        LabelLayer.haloStraightIntoPixels = true
        super.tearDown()
    }

    private func frame(_ camera: MapCamera, scale: Double, direct: Bool) throws -> [UInt8] {
        LabelLayer.haloStraightIntoPixels = direct
        let data = ShippedDataTests.dataDirectory
        let sources: [any VectorTileSource] = [try MBTilesSource(path: data.appendingPathComponent("world.mbtiles").path),
                                               try MBTilesSource(path: data.appendingPathComponent("helsinki.mbtiles").path)]
        let r = MapRenderer(cache: TileCache(rasterizer: TileRasterizer(sources: sources), scale: scale))
        defer { r.cache.shutDown() }
        let w = Int((camera.size.width * scale).rounded(.up)), h = Int((camera.size.height * scale).rounded(.up))
        let image = try XCTUnwrap(RasterImage(width: w, height: h))
        let cr = try XCTUnwrap(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        r.drawSynchronously(camera, into: cr)
        XCTAssertGreaterThan(r.labels(for: camera).count, 3, "labels were placed")
        return image.bytes()
    }

    func testHalosPaintedThroughPixmanAreTheBytesCairoPainted() throws {
        let views = [
            MapCamera(center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: MapRenderer.crispZoom(16.5, scale: 1),
                      size: ViewSize(width: 700, height: 500)),
            MapCamera(center: Coordinate(latitude: 52, longitude: 15), zoom: MapRenderer.crispZoom(4.4, scale: 1),
                      size: ViewSize(width: 700, height: 500)),
        ]
        for view in views {
            for scale in [1.0, 1.5, 2.0] {
                var camera = view
                camera.zoom = MapRenderer.crispZoom(view.zoom, scale: scale)
                let pixman = try frame(camera, scale: scale, direct: true)
                let cairo = try frame(camera, scale: scale, direct: false)
                let differing = zip(pixman, cairo).count(where: { $0 != $1 })
                XCTAssertEqual(pixman.count, cairo.count)
                XCTAssertEqual(differing, 0, "z\(camera.zoom) at scale \(scale): bytes differing from cairo's halos")
            }
        }
    }
}
