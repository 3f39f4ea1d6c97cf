import Geo
import Tiles
import XCTest
@testable import Render

/// A city file layered over the world file wins where it has data, its names included: the
/// world's name for a place the city file names too is not shown beside it.
final class LayeredLabelTests: XCTestCase {
    func testACityNamedByBothFilesIsNamedOnceAtEveryZoom() throws {
        let r = try LabelPlacerTests.shippedRenderer()
        for zoom in stride(from: 3.0, through: 16, by: 1) {
            let camera = MapCamera(center: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: zoom, size: ViewSize(width: 1024, height: 768))
            try LabelPlacerTests.frame(r, camera)
            let named = r.labels(for: camera).filter { $0.text == "Helsinki" && $0.layer != "poi" }
            // Named by the world file at z3-5 (the city file has no places there), by the city
            // file from z6, and never by both (at z12 the two points are about 40 px apart and
            // did not collide).
            XCTAssertEqual(named.count, 1, "z\(zoom): \(named.map { "\($0.layer) at \($0.anchor)" })")
            XCTAssertEqual(named.first?.layer, zoom < 6 ? "places" : "place-city", "z\(zoom)")
        }
    }
}
