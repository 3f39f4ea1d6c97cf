import Gestures
import Input
import XCTest

/// Drags: slop, touch counts, translation, velocity, scroll containers.
final class PanTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private lazy var input = Driver(root: root)

    func testTheFirstScrollDeltaExcludesTheSlop() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        var began: Point?
        pan.action = { if $0.state == .began { began = $0.translation(in: nil) } }
        input.down(0, 100, 100)
        input.move(0, 100, 100 + GestureConstants.touchSlop + 5)
        XCTAssertEqual(began, Point(x: 0, y: 5), "the content moves 5 px, not 17")
    }

    func testWithoutSlopRemovalTheTranslationIsTheWholeMovement() {
        let pan = PanGestureRecognizer(name: "pan")
        pan.removesSlopFromTranslation = false
        root.addGestureRecognizer(pan)
        input.down(0, 100, 100)
        input.move(0, 100, 120)
        XCTAssertEqual(pan.translation(in: nil), Point(x: 0, y: 20))
    }

    func testADraggedViewFollowsTheFingerExactly() {
        let card = addView("card", Rect(x: 100, y: 100, width: 80, height: 80), to: root)
        let pan = PanGestureRecognizer(name: "drag")
        pan.removesSlopFromTranslation = false
        card.addGestureRecognizer(pan)
        let root = root
        pan.action = { pan in
            card.frame.origin = card.frame.origin + pan.translation(in: root)
            pan.setTranslation(.zero, in: root)
        }
        input.down(0, 120, 130)
        var path: [Point] = []
        for i in 1...20 {
            input.wait(8)
            let finger = Point(x: 120 + Double(i) * 7, y: 130 + Double(i * i))
            input.move(0, finger.x, finger.y)
            if pan.state.isActive { path.append(finger - card.frame.origin) }
        }
        XCTAssertFalse(path.isEmpty)
        for offset in path { XCTAssertEqual(offset, Point(x: 20, y: 30), "the finger keeps its grip on the card") }
    }

    func testExactlyTwoFingersPanWithTwoFingersOnly() {
        let pan = PanGestureRecognizer(name: "two", minimumTouches: 2, maximumTouches: 2)
        root.addGestureRecognizer(pan)
        recorder.watch(pan)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 100)
        input.up(0)
        XCTAssertEqual(recorder.visible, [], "one finger")
        input.frame([.down(id: 0, at: Point(x: 100, y: 100)), .down(id: 1, at: Point(x: 200, y: 100)),
                     .down(id: 2, at: Point(x: 300, y: 100))])
        input.dragTogether([(0, 0, 50), (1, 0, 50), (2, 0, 50)])
        input.settle()
        XCTAssertEqual(recorder.visible, [], "three fingers")
        input.frame([.down(id: 0, at: Point(x: 100, y: 100)), .down(id: 1, at: Point(x: 200, y: 100))])
        input.dragTogether([(0, 0, 50), (1, 0, 50)])
        XCTAssertEqual(recorder.visible, ["two began"])
        input.up(1)
        XCTAssertEqual(recorder.visible, ["two began", "two ended"], "ends when fewer than two remain")
    }

    func testAFingerLandingOrLiftingMidDragDoesNotMakeItJump() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        let before = pan.translation(in: nil)
        input.down(1, 500, 500)
        XCTAssertEqual(pan.translation(in: nil), before)
        input.dragTogether([(0, 0, 10), (1, 0, 10)])
        XCTAssertEqual(pan.translation(in: nil).y, before.y + 10, accuracy: 1e-9)
        input.up(0)
        XCTAssertEqual(pan.translation(in: nil).y, before.y + 10, accuracy: 1e-9)
        input.drag(1, by: 0, 10)
        XCTAssertEqual(pan.translation(in: nil).y, before.y + 20, accuracy: 1e-9)
    }

    func testAContainerThatCannotScrollThatWayLetsTheDragThrough() {
        let page = addView("page", Rect(x: 0, y: 0, width: 800, height: 1280), to: root)
        page.canScroll = { $0 == .up }
        let inner = PanGestureRecognizer(name: "page")
        page.addGestureRecognizer(inner)
        let outer = PanGestureRecognizer(name: "outer")
        root.addGestureRecognizer(outer)
        recorder.watch(inner, outer)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 60)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["outer began", "outer ended"], "the page cannot scroll down")
        recorder.clear()
        input.down(0, 100, 300)
        input.drag(0, by: 0, -60)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["page began", "page ended"])
    }

    func testAFlickHasTheFingersVelocity() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        var atLift: Point?
        pan.action = { if $0.state == .ended { atLift = $0.velocity(in: nil) } }
        input.down(0, 100, 600)
        input.drag(0, by: 0, -300, steps: 10, stepMs: 8) // 300 px in 80 ms
        input.up(0)
        XCTAssertEqual(atLift?.y ?? 0, -3750, accuracy: 1)
        XCTAssertEqual(atLift?.x ?? 1, 0, accuracy: 1e-9)
    }

    func testRestingBeforeLiftingMeansNoVelocity() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        var atLift: Point?
        pan.action = { if $0.state == .ended { atLift = $0.velocity(in: nil) } }
        input.down(0, 100, 600)
        input.drag(0, by: 0, -300, steps: 10, stepMs: 8)
        input.wait(GestureConstants.velocityRestTime + 1)
        input.up(0)
        XCTAssertEqual(atLift, .zero)
    }

    func testMouseDragsPanLikeAFinger() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(pan)
        input.mouseMove(100, 100)
        input.mouseButton(pressed: true)
        input.mouseMove(100, 150)
        XCTAssertEqual(pan.translation(in: nil), Point(x: 0, y: 50 - GestureConstants.mouseSlop), "a mouse has its own, much smaller slop")
        input.mouseButton(pressed: false)
        XCTAssertEqual(recorder.visible, ["pan began", "pan ended"])
    }

    func testLosingThePointerMidDragCancelsTheDrag() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(pan)
        input.mouseMove(100, 100)
        input.mouseButton(pressed: true)
        input.mouseMove(100, 150)
        input.system.handle(.pointer(PointerFrame(time: input.time, left: true)))
        input.mouseButton(pressed: false)
        XCTAssertEqual(recorder.visible, ["pan began", "pan cancelled"])
        XCTAssertTrue(input.system.activeTouches.isEmpty)
    }

    func testARecognizerCanIgnoreTheMouse() {
        let pan = PanGestureRecognizer(name: "pan")
        pan.allowedTouchKinds = .finger
        root.addGestureRecognizer(pan)
        recorder.watch(pan)
        input.mouseMove(100, 100)
        input.mouseButton(pressed: true)
        input.mouseMove(100, 150)
        input.mouseButton(pressed: false)
        XCTAssertEqual(recorder.visible, [])
    }
}
