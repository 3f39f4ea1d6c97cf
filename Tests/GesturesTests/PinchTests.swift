import Gestures
import Input
import XCTest

/// Pinch: scale, focal point, working with a two-finger pan.
final class PinchTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private let pinch = PinchGestureRecognizer(name: "pinch")
    private lazy var input = Driver(root: root)

    override func setUp() {
        root.addGestureRecognizer(pinch)
        recorder.watch(pinch)
    }

    func testScaleIsTheFingerDistanceRelativeToTouchDownAroundTheirMidpoint() {
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, -50, 0), (1, 50, 0)])
        XCTAssertEqual(recorder.visible, ["pinch began"])
        XCTAssertEqual(pinch.scale, 2, accuracy: 1e-9)
        XCTAssertEqual(pinch.focalPoint(in: nil), Point(x: 350, y: 500))
        let view = addView("map", Rect(x: 50, y: 100, width: 600, height: 600), to: root)
        XCTAssertEqual(pinch.focalPoint(in: view), Point(x: 300, y: 400))
        input.dragTogether([(0, 75, 0), (1, -75, 0)])
        XCTAssertEqual(pinch.scale, 0.5, accuracy: 1e-9)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["pinch began", "pinch ended"])
    }

    func testOneFingerNeverBeginsAPinch() {
        input.down(0, 300, 500)
        input.drag(0, by: 200, 200)
        input.up(0)
        XCTAssertEqual(recorder.visible, [])
    }

    func testASmallSpreadChangeIsNoPinch() {
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, -8, 0), (1, 8, 0)])
        XCTAssertEqual(recorder.visible, [])
    }

    func testAThirdFingerDoesNotMakeTheScaleJump() {
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, -50, 0), (1, 50, 0)])
        input.down(2, 350, 900)
        XCTAssertEqual(pinch.scale, 2, accuracy: 1e-9)
        input.up(2)
        XCTAssertEqual(pinch.scale, 2, accuracy: 1e-9)
    }

    func testPinchAndTwoFingerPanRunTogetherWhenPaired() {
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2, maximumTouches: 2)
        root.addGestureRecognizer(pan)
        pinch.recognizeSimultaneously(with: pan)
        recorder.watch(pinch, pan)
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, -30, 40), (1, 70, 40)])
        XCTAssertEqual(Set(recorder.visible), ["pinch began", "pan began"])
        XCTAssertEqual(pinch.scale, 2, accuracy: 1e-9)
        // The centroid moved (20, 40); the slop comes off along that direction.
        let moved = Point(x: 20, y: 40), length = (20.0 * 20 + 40 * 40).squareRoot()
        let expected = moved * (1 - GestureConstants.touchSlop / length)
        XCTAssertEqual(pan.translation(in: nil).x, expected.x, accuracy: 1e-9)
        XCTAssertEqual(pan.translation(in: nil).y, expected.y, accuracy: 1e-9)
    }

    func testUnpairedTheFirstToBeginMakesTheOtherFail() {
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2, maximumTouches: 2)
        root.addGestureRecognizer(pan)
        recorder.watch(pinch, pan)
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, 0, 40), (1, 0, 40)])
        input.dragTogether([(0, -50, 0), (1, 50, 0)])
        XCTAssertEqual(Array(recorder.events.prefix(2)), ["pan began", "pinch failed"])
        XCTAssertEqual(recorder.visible, ["pan began"], "the pinch never begins")
        XCTAssertEqual(pinch.state, .possible, "the loser is reset, ready for the next gesture")
    }
}
