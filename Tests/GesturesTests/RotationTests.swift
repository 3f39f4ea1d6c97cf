#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Input
import XCTest
import TestSupport

/// Two-finger rotation: only a deliberate twist starts it, then it follows the fingers exactly,
/// alongside pan and pinch, and fingers landing or lifting never turn anything.
final class RotationTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private lazy var input = Driver(root: root)
    private let centre = Point(x: 400, y: 600)

    /// Where finger `side` (0 or 1) of a pair `distance` px apart is when the line between them
    /// points at `degrees` (clockwise from the x axis, y down), around `c`.
    private func finger(_ side: Int, degrees: Double, distance: Double, around c: Point? = nil) -> Point {
        let c = c ?? centre
        let a = degrees * .pi / 180, r = distance / 2 * (side == 0 ? -1 : 1)
        return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
    }

    private func twoDown(degrees: Double = 0, distance: Double = 300) {
        let a = finger(0, degrees: degrees, distance: distance), b = finger(1, degrees: degrees, distance: distance)
        input.frame([.down(id: 0, at: a), .down(id: 1, at: b)])
    }

    /// Both fingers to the pose (angle, distance, centre) in one frame, 8 ms later.
    private func pose(degrees: Double, distance: Double = 300, around c: Point? = nil) {
        input.wait(8)
        input.frame([.moved(id: 0, to: finger(0, degrees: degrees, distance: distance, around: c)),
                     .moved(id: 1, to: finger(1, degrees: degrees, distance: distance, around: c))])
    }

    private func mapRecognizers() -> (RotationGestureRecognizer, PinchGestureRecognizer, PanGestureRecognizer) {
        let rotation = RotationGestureRecognizer(name: "rotation")
        let pinch = PinchGestureRecognizer(name: "pinch")
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2, maximumTouches: 2)
        for r: GestureRecognizer in [pan, pinch, rotation] { root.addGestureRecognizer(r) }
        pinch.recognizeSimultaneously(with: pan)
        rotation.recognizeSimultaneously(with: pan)
        rotation.recognizeSimultaneously(with: pinch)
        recorder.watch(rotation, pinch, pan)
        return (rotation, pinch, pan)
    }

    func testADeliberateTwistRotatesAndThenFollowsTheFingersExactly() throws {
        let (rotation, _, _) = mapRecognizers()
        var angleAtBegin: Double?
        var current = 0.0
        rotation.action = { r in if r.state == .began { angleAtBegin = current } }
        twoDown()
        for step in 1...40 {
            current = Double(step)
            pose(degrees: current)
        }
        XCTAssertEqual(rotation.state, .changed)
        let begin = try XCTUnwrap(angleAtBegin)
        XCTAssertGreaterThan(begin, GestureConstants.rotationThreshold, "not before the threshold")
        XCTAssertLessThanOrEqual(begin, GestureConstants.rotationThreshold + 1, "as soon as it is passed")
        // From the begin on, one degree of the fingers is one degree of rotation, clockwise positive.
        XCTAssertEqual(rotation.rotation, 40 - begin, accuracy: 1e-9)
        for step in stride(from: 39.0, through: -30, by: -3) { pose(degrees: step) }
        XCTAssertEqual(rotation.rotation, -30 - begin, accuracy: 1e-9, "back past the start, counter-clockwise")
        input.settle()
        XCTAssertTrue(recorder.visible.contains("rotation ended"))
    }

    func testRotationRunsTogetherWithPanAndPinch() {
        let (rotation, pinch, pan) = mapRecognizers()
        twoDown()
        for step in 1...30 {
            let k = Double(step)
            pose(degrees: k, distance: 300 + 4 * k, around: Point(x: centre.x + 2 * k, y: centre.y + k))
        }
        XCTAssertTrue(rotation.state.isActive)
        XCTAssertTrue(pinch.state.isActive)
        XCTAssertTrue(pan.state.isActive)
    }

    func testAPinchWithAngleNoiseNeverRotates() {
        let (rotation, pinch, _) = mapRecognizers()
        twoDown(distance: 200)
        // The line between the fingers wobbles ±8° (far more than a real pinch) while the spread doubles.
        for step in 1...60 {
            let k = Double(step)
            pose(degrees: 8 * sin(k / 3), distance: 200 + 5 * k)
        }
        XCTAssertTrue(pinch.state.isActive)
        XCTAssertEqual(rotation.state, .possible)
        XCTAssertEqual(rotation.rotation, 0)
        input.settle()
        XCTAssertFalse(recorder.visible.contains("rotation began"))
    }

    func testATwoFingerPanWithJitterNeverRotates() {
        let (rotation, _, pan) = mapRecognizers()
        twoDown()
        var random = SplitMix64(seed: 12)
        for step in 1...60 {
            let k = Double(step)
            let c = Point(x: centre.x + 4 * k, y: centre.y - 3 * k)
            input.wait(8)
            // Each finger jitters ±4 px on its own, as real fingers do.
            let a = finger(0, degrees: 0, distance: 300, around: c), b = finger(1, degrees: 0, distance: 300, around: c)
            input.frame([.moved(id: 0, to: Point(x: a.x + random.uniform(-4, 4), y: a.y + random.uniform(-4, 4))),
                         .moved(id: 1, to: Point(x: b.x + random.uniform(-4, 4), y: b.y + random.uniform(-4, 4)))])
        }
        XCTAssertTrue(pan.state.isActive)
        XCTAssertEqual(rotation.state, .possible)
    }

    func testFingersCloseTogetherMustTwistFurther() {
        let (rotation, _, _) = mapRecognizers()
        // 80 px apart: 20° is only 14 px along their circle, under the 25 px arc.
        twoDown(distance: 80)
        for step in 1...20 { pose(degrees: Double(step), distance: 80) }
        XCTAssertEqual(rotation.state, .possible)
        for step in 21...45 { pose(degrees: Double(step), distance: 80) }
        XCTAssertTrue(rotation.state.isActive, "36° is 25 px: a deliberate twist")
    }

    func testFingersLandingAndLiftingNeverTurnTheMap() {
        let (rotation, _, _) = mapRecognizers()
        twoDown()
        for step in 1...30 { pose(degrees: Double(step)) }
        let before = rotation.rotation
        // A third finger lands far off the line, rests, and lifts: no turn.
        input.wait(8)
        input.down(2, 100, 100)
        XCTAssertEqual(rotation.rotation, before, accuracy: 1e-12)
        input.wait(8)
        input.up(2)
        XCTAssertEqual(rotation.rotation, before, accuracy: 1e-12)
        // A third finger lands while the other two move: only their own turn counts.
        input.wait(8)
        input.frame([.down(id: 3, at: Point(x: 700, y: 900)),
                     .moved(id: 0, to: finger(0, degrees: 32, distance: 300)),
                     .moved(id: 1, to: finger(1, degrees: 32, distance: 300))])
        XCTAssertEqual(rotation.rotation, before + 2, accuracy: 1e-9)
        // All three turn together by 10° about their centroid: the rotation follows.
        let ids: [Int32] = [0, 1, 3]
        let points = [finger(0, degrees: 32, distance: 300), finger(1, degrees: 32, distance: 300), Point(x: 700, y: 900)]
        let c = Point(x: points.map(\.x).reduce(0, +) / 3, y: points.map(\.y).reduce(0, +) / 3)
        let a = 10 * Double.pi / 180
        input.wait(8)
        input.frame(zip(ids, points).map { id, p in
            let d = p - c
            return .moved(id: id, to: Point(x: c.x + d.x * cos(a) - d.y * sin(a), y: c.y + d.x * sin(a) + d.y * cos(a)))
        })
        XCTAssertEqual(rotation.rotation, before + 12, accuracy: 1e-9)
        // One of the pair lifts: two remain, still rotating, no jump.
        input.wait(8)
        input.up(0)
        XCTAssertTrue(rotation.state.isActive)
        XCTAssertEqual(rotation.rotation, before + 12, accuracy: 1e-9)
    }

    func testLiftingToOneFingerEndsTheRotation() {
        let (rotation, _, _) = mapRecognizers()
        twoDown()
        for step in 1...30 { pose(degrees: Double(step)) }
        input.wait(8)
        input.up(1)
        XCTAssertEqual(rotation.state, .possible, "ended and reset")
        XCTAssertEqual(recorder.events.filter { $0.hasPrefix("rotation") }.last, "rotation ended")
    }
}
