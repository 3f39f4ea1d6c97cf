import Gestures
import Input
import XCTest

/// Velocity estimation and the closed-form glide.
final class VelocityMomentumTests: XCTestCase {
    func testASteadyMovementHasItsExactSpeed() {
        var v = VelocityTracker()
        for i in 0...12 { v.add(Point(x: Double(i) * 4, y: Double(i) * -2), at: Double(i) * 8) }
        let velocity = v.velocity(at: 96)
        XCTAssertEqual(velocity.x, 500, accuracy: 1e-6)
        XCTAssertEqual(velocity.y, -250, accuracy: 1e-6)
    }

    func testOnlyTheLastHundredMillisecondsCount() {
        var v = VelocityTracker()
        // Slow for 200 ms, then fast for 100 ms.
        for i in 0...25 { v.add(Point(x: Double(i) * 0.8, y: 0), at: Double(i) * 8) }
        let base = 25 * 0.8
        for i in 1...12 { v.add(Point(x: base + Double(i) * 8, y: 0), at: 200 + Double(i) * 8) }
        XCTAssertEqual(v.velocity(at: 296).x, 1000, accuracy: 1e-6)
    }

    func testAFingerThatRestedHasNoVelocity() {
        var v = VelocityTracker()
        for i in 0...12 { v.add(Point(x: Double(i) * 4, y: 0), at: Double(i) * 8) }
        XCTAssertNotEqual(v.velocity(at: 96 + GestureConstants.velocityRestTime).x, 0)
        XCTAssertEqual(v.velocity(at: 96 + GestureConstants.velocityRestTime + 1), .zero)
    }

    func testSamplesBeforeAPauseDoNotCount() {
        var v = VelocityTracker()
        // Fast for 40 ms, then the finger stops for 50 ms, then creeps on for 16 ms and lifts.
        for i in 0...5 { v.add(Point(x: Double(i) * 16, y: 0), at: Double(i) * 8) }
        v.add(Point(x: 81, y: 0), at: 90)
        v.add(Point(x: 82, y: 0), at: 98)
        v.add(Point(x: 83, y: 0), at: 106)
        XCTAssertEqual(v.velocity(at: 106).x, 125, accuracy: 1e-6, "only the creep after the pause: 1 px per 8 ms")
    }

    func testOneSampleIsNoVelocity() {
        var v = VelocityTracker()
        v.add(Point(x: 10, y: 10), at: 0)
        XCTAssertEqual(v.velocity(at: 0), .zero)
    }

    func testAGlideEndsInTheSamePlaceAt60And120Hz() throws {
        let glide = try XCTUnwrap(Momentum(velocity: Point(x: 0, y: 2000), at: 1000))
        func run(hz: Double) -> [Double: Double] {
            var y = 0.0, last = 0.0
            var atCommonTimes: [Double: Double] = [:]
            var frame = 0
            while true {
                let t = 1000 + Double(frame) * 1000 / hz
                let now = glide.offset(at: t).y
                y += now - last // what a renderer applying per-frame deltas sees
                last = now
                if frame % Int(hz / 60) == 0 { atCommonTimes[(t * 1000).rounded() / 1000] = y }
                if glide.isFinished(at: t) { break }
                frame += 1
            }
            return atCommonTimes
        }
        let at60 = run(hz: 60), at120 = run(hz: 120)
        XCTAssertFalse(at60.isEmpty)
        for (t, y) in at60 {
            guard let other = at120[t] else { continue }
            XCTAssertEqual(y, other, accuracy: 1e-9, "at \(t) ms")
        }
        XCTAssertEqual(glide.totalOffset.y, 2 * 500 * (1 - 50.0 / 2000), accuracy: 1e-9, "v0·τ·(1 − vmin/v0)")
    }

    func testAGlideSlowsDownAndStops() throws {
        let glide = try XCTUnwrap(Momentum(velocity: Point(x: 3000, y: 0), at: 0))
        XCTAssertEqual(glide.velocity(at: 0).x, 3000, accuracy: 1e-9)
        XCTAssertLessThan(glide.velocity(at: 500).x, 3000 / 2.7)
        XCTAssertEqual(glide.velocity(at: glide.endTime), .zero)
        XCTAssertEqual(glide.offset(at: glide.endTime + 5000), glide.totalOffset)
    }

    func testSlowReleasesDoNotGlideAndWildOnesAreCapped() throws {
        XCTAssertNil(Momentum(velocity: Point(x: 30, y: 0), at: 0))
        let wild = try XCTUnwrap(Momentum(velocity: Point(x: 0, y: -50_000), at: 0))
        XCTAssertEqual(wild.initialVelocity.y, -GestureConstants.maximumFlingVelocity, accuracy: 1e-9)
    }
}
