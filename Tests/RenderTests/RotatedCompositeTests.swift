import CCairo
import Geo
import Tiles
import XCTest
@testable import Render

/// Rotated frames: the same tiles, turned about the view's centre, with no seams and nothing
/// missing in the corners.
extension MapRendererTests {
    /// At bearing 90 (east up) the frame is the north-up frame turned a quarter counter-clockwise,
    /// pixel for pixel: rotated (x, y) shows what the flat frame shows at (W − 1 − y, x).
    func testAQuarterTurnIsTheNorthUpFrameTurnedPixelForPixel() throws {
        let renderer = plainRenderer(FixtureSource(every: Fixture.halfLand))
        let flat = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 4, size: ViewSize(width: 400, height: 300))
        let turned = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 4, size: ViewSize(width: 300, height: 400), bearing: 90)
        _ = try frame(renderer, flat, moving: false, sync: true)
        _ = try frame(renderer, turned, moving: false, sync: true)
        let (a, _) = try frame(renderer, flat, moving: true)
        let (b, report) = try frame(renderer, turned, moving: true)
        XCTAssertTrue(report.isComplete)
        var mismatches = 0
        for y in 0..<400 {
            for x in 0..<300 where b.rgb(x: x, y: y) != a.rgb(x: 399 - y, y: x) { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0)
        // The fixture puts land in each tile's west half: with east up, west is down, so a
        // column down the middle crosses land and water, a row does not change.
        let column = (0..<400).map { b.rgb(x: 150, y: $0) }
        XCTAssertTrue(column.contains(Palette.land) && column.contains(Palette.water))
        XCTAssertEqual(Set((0..<300).map { b.rgb(x: $0, y: 10) }).count, 1)
    }

    /// At 37° (and others) every pixel of the view is map: with land on every tile's whole
    /// square, any other colour is a missing corner (background) or a seam between tiles,
    /// moving and settled.
    func testATurnedFrameHasNoSeamsAndNoEmptyCorners() throws {
        let allLand = VectorTile(layers: [Fixture.layer("land", [Fixture.rect(0, 0, 4096, 4096)])])
        let renderer = plainRenderer(FixtureSource(every: allLand))
        for bearing in [37.0, 180, 323.5] {
            let camera = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 4.3, size: ViewSize(width: 512, height: 320), bearing: bearing)
            let settled = try frame(renderer, camera, moving: false, sync: true)
            XCTAssertTrue(settled.1.isComplete)
            let (moving, _) = try frame(renderer, camera, moving: true)
            for (name, image) in [("settled", settled.0), ("moving", moving)] {
                var other = 0
                for y in 0..<320 {
                    for x in 0..<512 where image.rgb(x: x, y: y) != Palette.land { other += 1 }
                }
                XCTAssertEqual(other, 0, "bearing \(bearing), \(name): pixels that are not land")
            }
        }
    }
}
