import Gestures
import Input
import XCTest

/// Taps, double taps and two-finger taps (gestures.md scenarios 8–16, 21, 40).
final class TapTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private let doubleTap = TapGestureRecognizer(name: "double", taps: 2)
    private let singleTap = TapGestureRecognizer(name: "single")
    private lazy var input = Driver(root: root)

    override func setUp() {
        root.addGestureRecognizer(doubleTap)
        recorder.watch(doubleTap, singleTap)
    }

    /// Adds a single tap that waits for the double tap to fail.
    private func addWaitingSingleTap() {
        singleTap.require(toFail: doubleTap)
        root.addGestureRecognizer(singleTap)
    }

    func testTwoQuickTapsAreOneDoubleTapOnTheSecondLift() {
        input.tap(10, 10)
        input.wait(100)
        input.down(1, 12, 12)
        input.wait(50)
        XCTAssertEqual(recorder.visible, [])
        input.up(1)
        XCTAssertEqual(recorder.visible, ["double ended"])
        XCTAssertEqual(doubleTap.state, .possible, "reset once reported")
    }

    func testASecondTapFarAwayIsNoDoubleTapButStartsANewOne() {
        input.tap(10, 10)
        input.wait(100)
        input.tap(130, 130, id: 1)
        XCTAssertEqual(recorder.count("double ended"), 0)
        input.wait(100)
        input.tap(132, 131, id: 2)
        XCTAssertEqual(recorder.count("double ended"), 1, "the far tap was the first of a new double tap")
    }

    func testMovingDuringTheFirstTapMeansNoDoubleTap() {
        input.down(0, 10, 10)
        input.move(0, 25, 10)
        input.up(0)
        input.wait(50)
        input.tap(25, 10)
        input.wait(1000)
        XCTAssertEqual(recorder.count("double ended"), 0)
    }

    func testALongGapResetsButAThirdQuickTapCompletesADoubleTap() {
        input.tap(10, 10)
        input.wait(5000)
        input.tap(10, 10)
        XCTAssertEqual(recorder.count("double ended"), 0)
        input.wait(100)
        input.tap(10, 10)
        XCTAssertEqual(recorder.count("double ended"), 1)
    }

    func testHoldingTheFirstTapDoesNotPreventADoubleTap() {
        input.tap(10, 10, holding: 1000)
        input.wait(100)
        input.tap(10, 10)
        XCTAssertEqual(recorder.count("double ended"), 1)
    }

    func testHoldingTheSecondTapStillCountsAsADoubleTap() {
        input.tap(10, 10)
        input.wait(100)
        input.tap(10, 10, holding: 2000)
        XCTAssertEqual(recorder.count("double ended"), 1)
    }

    func testTwoOverlappingFingersAreNotADoubleTap() {
        input.down(0, 10, 10)
        input.wait(20)
        input.down(1, 20, 20)
        input.wait(20)
        input.up(0)
        input.up(1)
        input.wait(1000)
        XCTAssertEqual(recorder.count("double ended"), 0)
    }

    func testADragWinningDuringTheFirstTapMeansNoDoubleTap() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(doubleTap, pan)
        input.down(0, 10, 10)
        input.drag(0, by: 0, 50)
        input.up(0)
        input.wait(50)
        input.tap(10, 60)
        input.wait(1000)
        XCTAssertEqual(recorder.visible, ["pan began", "pan ended"])
    }

    func testADragWinningDuringTheSecondTapMeansNoDoubleTap() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(doubleTap, pan)
        input.tap(10, 10)
        input.wait(100)
        input.down(0, 10, 10)
        input.drag(0, by: 0, 50)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["pan began", "pan ended"])
    }

    func testSingleTapWaitsForTheDoubleTapWindowAndNoLonger() {
        addWaitingSingleTap()
        input.tap(10, 10)
        XCTAssertEqual(recorder.visible, [])
        input.wait(GestureConstants.doubleTapTimeout - 1)
        XCTAssertEqual(recorder.visible, [])
        XCTAssertEqual(input.system.nextDeadline, input.time + 1)
        input.wait(1)
        XCTAssertEqual(recorder.visible, ["single ended"])
    }

    func testSingleTapIsImmediateWhenNoDoubleTapIsWaiting() {
        let other = makeWindow()
        let tap = TapGestureRecognizer(name: "tap")
        other.addGestureRecognizer(tap)
        let r = Recorder()
        r.watch(tap)
        let d = Driver(root: other)
        d.tap(10, 10)
        XCTAssertEqual(r.visible, ["tap ended"])
    }

    func testASecondTouchWithin40msIsChatterNotADoubleTap() {
        addWaitingSingleTap()
        input.tap(10, 10)
        input.wait(20)
        input.tap(10, 10)
        input.wait(1000)
        XCTAssertEqual(recorder.count("double ended"), 0)
        XCTAssertEqual(recorder.count("single ended"), 2)
    }

    func testTwoTapsFarApartOnTouchAreTwoSingleTaps() {
        addWaitingSingleTap()
        input.tap(100, 100)
        input.wait(100)
        input.tap(300, 100, id: 1)
        input.wait(1000)
        XCTAssertEqual(recorder.count("double ended"), 0)
        XCTAssertEqual(recorder.count("single ended"), 2)
    }

    func testTwoMouseClicksFarApartAreNoDoubleClick() {
        input.click(100, 100)
        input.wait(100)
        input.click(300, 100)
        XCTAssertEqual(recorder.count("double ended"), 0)
        input.wait(100)
        input.click(300, 102)
        XCTAssertEqual(recorder.count("double ended"), 1, "the far click started a new double click")
    }

    func testAMouseClickWithTheRightButtonIsNoTap() {
        addWaitingSingleTap()
        input.mouseMove(10, 10)
        input.mouseButton(pressed: true, .right)
        input.mouseButton(pressed: false, .right)
        input.wait(1000)
        XCTAssertEqual(recorder.visible, [])
    }

    func testTwoFingerTapNeedsExactlyTwoFingers() {
        let twoFinger = TapGestureRecognizer(name: "two", touches: 2)
        root.removeGestureRecognizer(doubleTap)
        root.addGestureRecognizer(twoFinger)
        recorder.watch(twoFinger)
        input.tap(10, 10)
        XCTAssertEqual(recorder.visible, [], "one finger")
        input.down(0, 10, 10)
        input.down(1, 60, 10)
        input.down(2, 110, 10)
        input.settle()
        XCTAssertEqual(recorder.visible, [], "three fingers")
        input.down(0, 10, 10)
        input.wait(40)
        input.down(1, 60, 10)
        input.wait(50)
        input.up(1)
        input.wait(30)
        XCTAssertEqual(recorder.visible, [])
        input.up(0)
        XCTAssertEqual(recorder.visible, ["two ended"])
        XCTAssertEqual(twoFinger.location(in: nil), Point(x: 35, y: 10))
    }

    func testATapThatMovesFartherThanTheSlopIsNoTap() {
        addWaitingSingleTap()
        input.down(0, 10, 10)
        input.move(0, 10, 10 + GestureConstants.touchSlop + 1)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(recorder.visible, [])
        input.down(0, 10, 10)
        input.move(0, 10, 10 + GestureConstants.touchSlop)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(recorder.visible, ["single ended"], "within the slop it is still a tap")
    }
}
