import Foundation
import Tiles
import XCTest

/// The area an MBTiles file without `bounds` covers, from the tiles it holds.
final class CoveredBoundsTests: XCTestCase {
    /// The lon/lat box of tiles x0…x1, y0…y1 (XYZ) at `z`.
    static func box(z: Int, x0: Int, x1: Int, y0: Int, y1: Int) -> MBTilesMetadata.Bounds {
        let n = Double(1 << z)
        func lat(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / n))) * 180 / Double.pi }
        return MBTilesMetadata.Bounds(west: Double(x0) / n * 360 - 180, south: lat(Double(y1 + 1)),
                                      east: Double(x1 + 1) / n * 360 - 180, north: lat(Double(y0)))
    }

    func assertClose(_ a: MBTilesMetadata.Bounds?, _ b: MBTilesMetadata.Bounds, file: StaticString = #filePath, line: UInt = #line) {
        guard let a else { return XCTFail("no bounds", file: file, line: line) }
        for (p, q) in [(a.west, b.west), (a.south, b.south), (a.east, b.east), (a.north, b.north)] {
            XCTAssertEqual(p, q, accuracy: 1e-9, "\(a) vs \(b)", file: file, line: line)
        }
    }

    func testTheBoxAroundTheDeepestZoomsTilesWithAndWithoutTheIndex() throws {
        let dir = try TemporaryDirectory()
        let data = [UInt8](repeating: 0, count: 4)
        // An L-shaped city at z14 (and one coarse tile at z10 that covers more).
        let tiles: [(TileID, [UInt8])] = [TileID(z: 10, x: 580, y: 290)].map { ($0, data) }
            + [(9300, 4740), (9301, 4740), (9300, 4741), (9300, 4742)].map { (TileID(z: 14, x: $0.0, y: $0.1), data) }
        let indexed = dir.file("indexed.mbtiles"), bare = dir.file("bare.mbtiles")
        try FixtureMBTiles.write(indexed, metadata: ["format": "pbf", "minzoom": "10", "maxzoom": "14"], tiles: tiles)
        try FixtureMBTiles.write(bare, metadata: ["format": "pbf", "minzoom": "10", "maxzoom": "14"], tiles: tiles, schema: """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """)
        let expected = Self.box(z: 14, x0: 9300, x1: 9301, y0: 4740, y1: 4742)
        let a = try MBTilesSource(path: indexed), b = try MBTilesSource(path: bare)
        XCTAssertNil(a.metadata.bounds)
        XCTAssertFalse(a.lookupsScanTable)
        XCTAssertTrue(b.lookupsScanTable)
        assertClose(a.coveredBounds(), expected)
        assertClose(b.coveredBounds(), expected)
    }

    func testAFileSpreadWiderThan256ColumnsAtItsDeepestZoomUsesAShallowerOne() throws {
        let dir = try TemporaryDirectory()
        let data = [UInt8](repeating: 0, count: 4)
        // Two tiles 1000 columns apart at z12; their parents at z11 are 500 apart, at z10 250.
        let deep = [TileID(z: 12, x: 100, y: 200), TileID(z: 12, x: 1100, y: 203)]
        let tiles = (deep + deep.map { TileID(z: 11, x: $0.x / 2, y: $0.y / 2) } + deep.map { TileID(z: 10, x: $0.x / 4, y: $0.y / 4) })
            .map { ($0, data) }
        let path = dir.file("wide.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["format": "pbf", "minzoom": "10", "maxzoom": "12"], tiles: tiles)
        assertClose(try MBTilesSource(path: path).coveredBounds(), Self.box(z: 10, x0: 25, x1: 275, y0: 50, y1: 50))
    }

    func testTilesOnlyOutsideTheStatedZoomsCoverNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("odd.mbtiles")
        try FixtureMBTiles.write(path, metadata: ["format": "pbf", "minzoom": "12", "maxzoom": "14"],
                                 tiles: [(TileID(z: 5, x: 18, y: 9), [0, 0])])
        XCTAssertNil(try MBTilesSource(path: path).coveredBounds())
    }
}
