import Foundation
import Tiles
import XCTest
@testable import Render

/// Shipped tiles filled by `PolygonFiller` look like the same tiles filled by cairo (as the
/// painter did before, with `CAIRO_ANTIALIAS_FAST`, here with the same nonzero rule).
///
/// They differ only in edge pixels, by how much of a pixel each counts as covered: cairo's
/// fast mode samples a 4×4 grid per pixel (17 levels, off by up to about a quarter of a pixel
/// for an edge running along a sample row), the filler takes the exact area. A quarter of the
/// strongest contrast between neighbouring fills (land 0xF2 against water 0xA8 in red: 74)
/// is 19 levels; slivers thinner than the grid (the tips of narrow lakes) differ by up to 32.
/// So: no pixel differs by more than 40 (it never turns into the other fill's colour), the
/// mean difference stays under 0.6 of a level, and under 8 % of the pixels (edges) differ by
/// more than 2. Measured: at most 32, mean at most 0.45, at most 5.5 % beyond 2.
final class FillerMatchesCairoTests: XCTestCase {
    private func source(_ name: String) throws -> MBTilesSource {
        try MBTilesSource(path: ShippedDataTests.dataDirectory.appendingPathComponent(name).path)
    }

    /// How two renderings of one tile differ; per pixel, the largest channel difference.
    struct Difference {
        var largest = 0
        /// Pixels differing by more than 2 levels (more than blending rounds by).
        var beyondQuantization = 0
        var sum = 0
    }

    private func compare(_ a: RasterImage, _ b: RasterImage) -> Difference {
        var d = Difference()
        for y in 0..<a.height {
            for x in 0..<a.width {
                guard let p = a.rgb(x: x, y: y), let q = b.rgb(x: x, y: y) else { continue }
                var diff = 0
                for shift: UInt32 in [16, 8, 0] {
                    let channelA = Int((p >> shift) & 0xFF), channelB = Int((q >> shift) & 0xFF)
                    diff = max(diff, abs(channelA - channelB))
                }
                d.largest = max(d.largest, diff)
                d.sum += diff
                if diff > 2 { d.beyondQuantization += 1 }
            }
        }
        return d
    }

    private func check(_ tiles: [TileID], sources: [any VectorTileSource], scale: Double) throws {
        let ours = TileRasterizer(sources: sources)
        var reference = TileRasterizer(sources: sources)
        reference.fillsWithCairo = true
        // Set to a directory to look at both renderings side by side.
        let directory = ProcessInfo.processInfo.environment["MERIDIAN_FILL_PNG_DIR"]
        for tile in tiles {
            let a = try XCTUnwrap(ours.render(tile, scale: scale)).image
            let b = try XCTUnwrap(reference.render(tile, scale: scale)).image
            let d = compare(a, b)
            let count = a.width * a.height
            XCTAssertLessThanOrEqual(d.largest, 40, "\(tile) at scale \(scale)")
            XCTAssertLessThan(Double(d.sum) / Double(count), 0.6, "\(tile) at scale \(scale)")
            XCTAssertLessThan(Double(d.beyondQuantization) / Double(count), 0.08, "\(tile) at scale \(scale)")
            if let directory {
                _ = a.writePNG(to: "\(directory)/\(tile.z)-\(tile.x)-\(tile.y)@\(scale)-filler.png")
                _ = b.writePNG(to: "\(directory)/\(tile.z)-\(tile.x)-\(tile.y)@\(scale)-cairo.png")
            }
        }
    }

    func testContinentTilesOverEuropeLookAsCairoDrawsThem() throws {
        let world = try source("world.mbtiles")
        let tiles = [TileID(z: 3, x: 4, y: 2), TileID(z: 3, x: 4, y: 1), TileID(z: 4, x: 8, y: 5), TileID(z: 4, x: 8, y: 4),
                     TileID(z: 4, x: 9, y: 4), TileID(z: 5, x: 16, y: 10), TileID(z: 5, x: 17, y: 9), TileID(z: 5, x: 16, y: 11)]
        try check(tiles, sources: [world], scale: 1)
        try check([TileID(z: 4, x: 8, y: 5)], sources: [world], scale: 2)
    }

    func testHelsinkiStreetTilesLookAsCairoDrawsThem() throws {
        let sources: [any VectorTileSource] = [try source("world.mbtiles"), try source("helsinki.mbtiles")]
        let tiles = [TileID(z: 14, x: 9327, y: 4742), TileID(z: 15, x: 18654, y: 9484), TileID(z: 15, x: 18655, y: 9484),
                     TileID(z: 16, x: 37308, y: 18969), TileID(z: 16, x: 37309, y: 18969)]
        try check(tiles, sources: sources, scale: 1)
        try check([TileID(z: 15, x: 18654, y: 9484)], sources: sources, scale: 2)
    }
}
