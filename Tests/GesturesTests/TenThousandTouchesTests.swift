import Gestures
import Input
import XCTest

/// Ten thousand fingers at once on the composed page (a stuck digitizer, a palm, a broken
/// driver): nothing crashes, no finger is kept after it lifts, the map stays finite, and the
/// page answers an ordinary pinch right after.
final class TenThousandTouchesTests: XCTestCase {
    static let count: Int32 = 10_000

    private func spot(_ page: ComposedPage, _ id: Int32) -> Point {
        page.inWindow(map: Point(x: 20 + Double(id % 700), y: 20 + Double(id / 700 % 500)))
    }

    func testTenThousandFingersDownMovedAndLiftedLeaveThePageWorking() {
        let page = ComposedPage()
        let input = Driver(root: page.window)
        input.frame((0..<Self.count).map { .down(id: $0, at: spot(page, $0)) })
        input.wait(16)
        input.frame((0..<Self.count).map { .moved(id: $0, to: spot(page, $0) + Point(x: 5, y: 3)) })
        input.wait(16)
        input.frame((0..<Self.count).map { .up(id: $0, at: spot(page, $0) + Point(x: 5, y: 3)) })
        input.wait(1000)
        XCTAssertTrue(page.mapZoom.isFinite)
        XCTAssertTrue(page.mapOffset.x.isFinite && page.mapOffset.y.isFinite)

        // Everything lifted: an ordinary pinch is recognized again.
        let logged = page.log.count
        let zoom = page.mapZoom
        let a = page.inWindow(map: Point(x: 100, y: 300)), b = a + Point(x: 100, y: 0)
        input.frame([.down(id: 0, at: a), .down(id: 1, at: b)])
        input.dragTogether([(0, -50, 0), (1, 50, 0)])
        input.up(0)
        input.up(1)
        input.wait(1000)
        XCTAssertTrue(page.log[logged...].contains("mapPinch"), "\(page.log)")
        XCTAssertGreaterThan(page.mapZoom, zoom)
    }

    func testTenThousandFingersCancelledAtOnceLeaveNothingBehind() {
        let page = ComposedPage()
        let input = Driver(root: page.window)
        input.frame((0..<Self.count).map { .down(id: $0, at: spot(page, $0)) })
        input.wait(16)
        input.cancel()
        input.wait(1000)
        input.down(0, 400, 1150)
        input.drag(0, by: 0, -200)
        input.up(0)
        XCTAssertEqual(page.scrollY, 188, accuracy: 1e-9, "the page scrolls as if nothing had happened")
    }
}
