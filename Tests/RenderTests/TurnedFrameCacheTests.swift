import CCairo
import Geo
import Tiles
import XCTest
@testable import Render

/// Moving rotated frames copied from the kept turned frame show what turning each frame
/// afresh shows.
extension MapRendererTests {
    /// Pixels of `a` and `b` (same size) that differ, comparing `a` at (x + dx, y + dy).
    private func mismatches(_ a: RasterImage, _ b: RasterImage, dx: Int = 0, dy: Int = 0) -> Int {
        var n = 0
        for y in 2..<(b.height - 2) {
            for x in 2..<(b.width - 2) where a.rgb(x: x + dx, y: y + dy) != b.rgb(x: x, y: y) { n += 1 }
        }
        return n
    }

    private func pannedFrames(bearing: Double, pans: [ScreenPoint], turns: Int) throws -> [(kept: RasterImage, fresh: RasterImage, report: FrameReport)] {
        let kept = plainRenderer(FixtureSource(every: Fixture.halfLand))
        var fresh = kept
        fresh.keepsTurnedFrames = false
        var camera = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 4, size: ViewSize(width: 300, height: 200), bearing: bearing)
        var wide = camera
        wide.size = ViewSize(width: 900, height: 800)
        kept.cache.renderNow(kept.tiles(for: wide))
        _ = try frame(kept, camera, moving: true)
        var out: [(RasterImage, RasterImage, FrameReport)] = []
        for pan in pans {
            camera.pan(by: pan)
            let (a, report) = try frame(kept, camera, moving: true)
            let (b, _) = try frame(fresh, camera, moving: true)
            out.append((a, b, report))
        }
        // Turned again only when the pan went past the margin.
        XCTAssertEqual(kept.turnedFrame.turns, turns)
        return out
    }

    /// At bearing 90 a whole-pixel pan is a whole-pixel move of the unturned tiles too, so the
    /// copied frame must equal the freshly turned one exactly, within the margin and past it.
    func testAKeptQuarterTurnedFrameMovedByAPanEqualsAFreshTurn() throws {
        let frames = try pannedFrames(bearing: 90, pans: [ScreenPoint(x: 7, y: -5), ScreenPoint(x: -20, y: 31), ScreenPoint(x: 90, y: 0)], turns: 2)
        for (i, f) in frames.enumerated() {
            XCTAssertTrue(f.report.isComplete)
            XCTAssertEqual(mismatches(f.kept, f.fresh), 0, "pan \(i)")
        }
        // The frames do move: a wrong offset would not pass.
        XCTAssertGreaterThan(mismatches(frames[0].kept, frames[1].fresh), 100)
    }

    /// Pixels of `a` (compared at x + dx, y + dy) whose colour is not at the same place in `b`,
    /// and of those, the ones whose colour is not within one pixel of it either.
    private func nearMismatches(_ a: RasterImage, _ b: RasterImage, dx: Int = 0, dy: Int = 0) -> (differ: Int, far: Int) {
        var differ = 0, far = 0
        for y in 4..<(b.height - 4) {
            for x in 4..<(b.width - 4) {
                let c = a.rgb(x: x + dx, y: y + dy)
                guard c != b.rgb(x: x, y: y) else { continue }
                differ += 1
                let near = (-1...1).contains { j in (-1...1).contains { i in b.rgb(x: x + i, y: y + j) == c } }
                if !near { far += 1 }
            }
        }
        return (differ, far)
    }

    /// At 37° a whole-pixel pan moves the unturned tiles by a fraction of a pixel, and a fresh
    /// nearest-pixel turn rounds their place to the buffer's pixels anew (up to half a pixel
    /// either way), so along the land/water edges it may pick the neighbouring pixel. The copied
    /// frame must match it up to that: every other pixel equal, and any differing one showing a
    /// colour found within one pixel of the same place; a frame three pixels off fails that.
    func testAKeptTurnedFrameMovedByAPanMatchesAFreshTurnAt37Degrees() throws {
        let frames = try pannedFrames(bearing: 37, pans: [ScreenPoint(x: 3, y: 2), ScreenPoint(x: -11, y: 4), ScreenPoint(x: 80, y: -70),
                                                          ScreenPoint(x: 2.4, y: -1.5)], turns: 2)
        let pixels = 292 * 192
        // A full-size view at a crisp zoom, as the bench pans it: turned once.
        var big = MapCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: MapRenderer.crispZoom(4.3, scale: 1),
                            size: ViewSize(width: 1920, height: 1200), bearing: 37)
        let renderer = plainRenderer(FixtureSource(every: Fixture.halfLand))
        var wide = big
        wide.size = ViewSize(width: 2200, height: 1500)
        renderer.cache.renderNow(renderer.tiles(for: wide))
        for i in 0..<10 {
            big.pan(by: ScreenPoint(x: i < 5 ? 3 : -3, y: i < 5 ? 1.5 : -1.5))
            XCTAssertTrue(try frame(renderer, big, moving: true).1.isComplete)
        }
        XCTAssertEqual(renderer.turnedFrame.turns, 1)
        for (i, f) in frames.enumerated() {
            XCTAssertTrue(f.report.isComplete)
            let near = nearMismatches(f.kept, f.fresh)
            XCTAssertEqual(near.far, 0, "pan \(i)")
            XCTAssertLessThan(near.differ, pixels / 50, "pan \(i)")
            let off = nearMismatches(f.kept, f.fresh, dx: 3)
            XCTAssertGreaterThan(off.far, 100, "pan \(i): a frame 3 px off")
        }
    }
}
