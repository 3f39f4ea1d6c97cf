import Gestures
import Input
import XCTest

/// Long press, double-tap-and-hold, and how they give way (scenarios 18, 28b, 37).
final class LongPressTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private lazy var input = Driver(root: root)

    @discardableResult
    private func addLongPress(taps: Int = 0, duration: Double = GestureConstants.longPressDuration,
                              name: String = "press") -> LongPressGestureRecognizer {
        let press = LongPressGestureRecognizer(name: name, taps: taps, minimumPressDuration: duration)
        root.addGestureRecognizer(press)
        recorder.watch(press)
        return press
    }

    func testAPressHeldStillFiresAfterTheDurationAndFollowsTheFinger() {
        let press = addLongPress()
        input.down(0, 100, 100)
        input.wait(GestureConstants.longPressDuration - 1)
        XCTAssertEqual(recorder.visible, [])
        input.wait(1)
        XCTAssertEqual(recorder.visible, ["press began"])
        input.move(0, 160, 100)
        XCTAssertEqual(press.location(in: nil), Point(x: 160, y: 100))
        XCTAssertEqual(press.state, .changed)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["press began", "press ended"])
    }

    func testShortMovementsAreAllowedLongOnesCancelThePress() {
        addLongPress()
        input.down(0, 100, 100)
        input.move(0, 100 + GestureConstants.longPressAllowableMovement, 100)
        input.wait(600)
        XCTAssertEqual(recorder.visible, ["press began"])
        input.settle()
        recorder.clear()
        input.down(0, 100, 100)
        input.move(0, 100 + GestureConstants.longPressAllowableMovement + 1, 100)
        input.wait(600)
        XCTAssertEqual(recorder.visible, [])
    }

    func testLiftingEarlyOrUsingTwoFingersIsNoLongPress() {
        addLongPress()
        input.tap(100, 100, holding: 400)
        input.wait(1000)
        input.down(0, 100, 100)
        input.down(1, 200, 100)
        input.wait(1000)
        input.settle()
        XCTAssertEqual(recorder.visible, [])
    }

    func testADurationOfZeroBeginsAtTouchDown() {
        addLongPress(duration: 0)
        input.down(0, 100, 100)
        XCTAssertEqual(recorder.visible, ["press began"])
    }

    func testOneTapRequiredMakesItADoubleTapAndHold() {
        let press = addLongPress(taps: 1, duration: 200)
        input.down(0, 100, 100)
        input.wait(300)
        XCTAssertEqual(recorder.visible, [], "a plain press is not enough")
        input.up(0)
        input.tap(100, 100)
        input.wait(100)
        input.down(0, 102, 100)
        input.wait(200)
        XCTAssertEqual(recorder.visible, ["press began"])
        XCTAssertEqual(press.pressLocation(in: nil), Point(x: 102, y: 100))
    }

    func testHoldingTheSecondTapOfADoubleTapIsNoLongPressAndADragThenZooms() {
        let doubleTap = TapGestureRecognizer(name: "double", taps: 2)
        let quickZoom = LongPressGestureRecognizer(name: "quickZoom", taps: 1, minimumPressDuration: 0)
        quickZoom.require(toFail: doubleTap)
        root.addGestureRecognizer(doubleTap)
        root.addGestureRecognizer(quickZoom)
        addLongPress()
        recorder.watch(doubleTap, quickZoom, root.gestureRecognizers[2])
        input.tap(100, 100)
        input.wait(100)
        input.down(0, 100, 100)
        input.wait(1000)
        XCTAssertEqual(recorder.visible, [], "no long press while the double tap is in progress")
        input.drag(0, by: 0, 20)
        XCTAssertEqual(recorder.visible, ["quickZoom began"])
        input.up(0)
        XCTAssertEqual(recorder.visible, ["quickZoom began", "quickZoom ended"], "and no double tap")
    }

    func testAScrollThatBeginsFirstCancelsTheLongPress() {
        addLongPress()
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(root.gestureRecognizers[0], pan)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        input.wait(1000)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["pan began", "pan ended"])
    }

    func testALongPressAllowedAlongsideTheScrollStillLetsItScroll() {
        let press = addLongPress()
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        press.recognizeSimultaneously(with: pan)
        recorder.watch(press, pan)
        input.down(0, 100, 100)
        input.wait(600)
        input.drag(0, by: 0, 50)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["press began", "pan began", "press ended", "pan ended"])
    }

    func testALongPressOnAPinWinsOverTheScroll() {
        let pin = addView("pin", Rect(x: 90, y: 90, width: 20, height: 20), to: root)
        let press = LongPressGestureRecognizer(name: "press")
        pin.addGestureRecognizer(press)
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(press, pan)
        input.down(0, 100, 100)
        input.wait(600)
        input.drag(0, by: 0, 100)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["press began", "press ended"], "the page does not scroll under a held pin")
    }
}
