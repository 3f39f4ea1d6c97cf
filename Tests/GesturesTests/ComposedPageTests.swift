import Gestures
import Input
import XCTest

/// The five defining behaviours on the whole demo page (ComposedPage.swift).
final class ComposedPageTests: XCTestCase {
    private let page = ComposedPage()
    private lazy var input = Driver(root: page.window)

    /// An empty spot of the map, in the window.
    private var mapSpot: Point { page.inWindow(map: Point(x: 100, y: 300)) }

    func testOneFingerDragOnThePageScrollsItWithoutAJump() {
        input.down(0, 400, 1150)
        input.drag(0, by: 0, -200)
        XCTAssertEqual(page.scrollY, 188, accuracy: 1e-9, "200 px drag minus the 12 px slop")
        input.up(0)
        XCTAssertEqual(page.log, [])
    }

    func testOffTheMapThePageScrollsAtTheFirstMovePastTheSlop() {
        var beganAt: Double?
        page.graph.pageScroll.onStateChange = { [unowned self] r in if r.state == .began { beganAt = input.time } }
        input.down(0, 400, 1150)
        input.wait(8)
        input.move(0, 400, 1150 - GestureConstants.touchSlop - 1)
        XCTAssertEqual(beganAt, 8, "nothing on the list needs a second finger, so nothing waits")
    }

    func testOneFingerDragOnTheMapScrollsThePageNotTheMap() {
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: 0, -150, steps: 15)
        input.up(0)
        XCTAssertEqual(page.scrollY, 138, accuracy: 1e-9)
        XCTAssertEqual(page.mapOffset, .zero)
        XCTAssertEqual(page.log, ["cooperativeHint"])
    }

    func testAFlingOfThePageGlidesOnAndAPauseBeforeLiftingDoesNot() {
        input.down(0, 400, 1150)
        input.drag(0, by: 0, -300, steps: 10, stepMs: 8)
        input.up(0)
        let glide = try? XCTUnwrap(page.pageMomentum)
        XCTAssertGreaterThan(glide?.totalOffset.y ?? 0, 100, "flicked up: the content keeps moving up the page")

        input.wait(1000)
        input.down(0, 400, 1150)
        input.drag(0, by: 0, -300, steps: 10, stepMs: 8)
        input.wait(60)
        input.up(0)
        XCTAssertNil(page.pageMomentum, "the finger rested 60 ms before lifting")
    }

    func testTwoFingersPanThenPinchTheMapAndThePageStaysPut() {
        let a = mapSpot, b = mapSpot + Point(x: 100, y: 0)
        input.down(0, a.x, a.y)
        input.wait(40)
        input.down(1, b.x, b.y)
        input.dragTogether([(0, 40, 30), (1, 40, 30)])
        XCTAssertEqual(page.log, ["mapPan"])
        XCTAssertEqual(page.mapOffset.x, 40, accuracy: 1e-9, "the map follows the fingers from touch-down, slop included")
        XCTAssertEqual(page.mapOffset.y, 30, accuracy: 1e-9)
        input.dragTogether([(0, -50, 0), (1, 50, 0)])
        XCTAssertEqual(page.log, ["mapPan", "mapPinch"])
        XCTAssertEqual(page.mapZoom, 11 + log2(200.0 / 100.0), accuracy: 1e-9)
        input.up(0)
        input.up(1)
        input.wait(1000)
        XCTAssertEqual(page.scrollY, 0)
        XCTAssertEqual(page.log, ["mapPan", "mapPinch"], "no tap, no residual pan after the pinch")
    }

    func testASecondFingerWithinTheGraceWindowMakesItAMapGesture() {
        input.down(0, mapSpot.x, mapSpot.y)
        input.wait(20)
        input.move(0, mapSpot.x, mapSpot.y - 6)
        input.wait(40)
        input.down(1, mapSpot.x + 80, mapSpot.y)
        input.dragTogether([(0, 0, -40), (1, 0, -40)])
        XCTAssertEqual(page.scrollY, 0)
        XCTAssertEqual(page.log, ["mapPan"])
    }

    func testOnceThePageScrollsASecondFingerDoesNotTakeItOver() {
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: 0, -30, steps: 15, stepMs: 10)
        XCTAssertEqual(page.log, ["cooperativeHint"])
        let scrolled = page.scrollY
        XCTAssertGreaterThan(scrolled, 0)
        input.down(1, mapSpot.x + 80, mapSpot.y)
        input.dragTogether([(0, 0, -40), (1, 0, -40)])
        XCTAssertEqual(page.log, ["cooperativeHint"], "the map neither pans nor pinches")
        XCTAssertEqual(page.scrollY, scrolled + 40, accuracy: 1e-9, "the page keeps following the first finger")
    }

    func testDoubleTapZoomsInOnceAndIsNotAlsoASingleTap() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.tap(mapSpot.x + 5, mapSpot.y + 5, id: 1)
        XCTAssertEqual(page.mapZoom, 12)
        input.wait(1000)
        XCTAssertEqual(page.log, ["doubleTapZoom"])
    }

    func testDoubleTapAndDragDownZoomsInAndUpZoomsOut() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: 0, GestureConstants.quickZoomSlop + 1, steps: 1)
        XCTAssertEqual(page.mapZoom, 11, "past the slop it begins where the finger is: no jump")
        input.drag(0, by: 0, 200)
        XCTAssertEqual(page.mapZoom, 13, accuracy: 1e-9, "200 px down at the shipped 100 px per level")
        input.drag(0, by: 0, -300)
        XCTAssertEqual(page.mapZoom, 10, accuracy: 1e-9)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.log, ["quickZoom"], "no +1 double-tap zoom, no tap, no page scroll")
        XCTAssertEqual(page.scrollY, 0)
    }

    func testASlowDoubleTapWhoseSecondPressSlidesIsADoubleTapNotADragZoom() {
        input.tap(mapSpot.x, mapSpot.y, holding: 250)
        input.wait(120)
        input.down(0, mapSpot.x, mapSpot.y)
        // 5 mm at the reference density, slowly, a little sideways too: past the touch slop.
        input.drag(0, by: 6, 5 * GestureConstants.pixelsPerMillimetre, steps: 20, stepMs: 16)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.mapZoom, 12, "one level in, once")
        XCTAssertEqual(page.log, ["doubleTapZoom"], "no drag-zoom, no tap, no page scroll")
        XCTAssertEqual(page.scrollY, 0)
    }

    func testASecondPressSlidingSidewaysIsNeitherADoubleTapNorADragZoom() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: GestureConstants.quickZoomSlop + 20, 4)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.mapZoom, 11)
        XCTAssertFalse(page.log.contains("quickZoom"))
        XCTAssertFalse(page.log.contains("doubleTapZoom"))
        XCTAssertEqual(page.scrollY, 0)
    }

    func testASecondTouchTooLateThenADragDoesNotZoom() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(510)
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: 0, -100)
        input.up(0)
        XCTAssertEqual(page.mapZoom, 11)
        XCTAssertEqual(page.log, ["mapTap", "observedTap", "cooperativeHint"], "the drag scrolls the page")
    }

    func testASecondTouchTooFarAwayThenADragDoesNotZoom() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.down(0, mapSpot.x + GestureConstants.doubleTapMaxDistance + 30, mapSpot.y)
        input.drag(0, by: 0, -100)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.mapZoom, 11)
        XCTAssertFalse(page.log.contains("quickZoom"))
        XCTAssertFalse(page.log.contains("doubleTapZoom"))
    }

    func testASmallWobbleOnARowStillTapsItAndALargerOneScrolls() {
        let row = page.rows[1].convert(toWindow: Point(x: 400, y: 48))
        input.down(0, row.x, row.y)
        input.move(0, row.x, row.y - GestureConstants.touchSlop)
        input.up(0)
        XCTAssertEqual(page.log, ["targetTap row-1"])
        XCTAssertEqual(page.scrollY, 0)
        input.wait(500)
        input.down(0, row.x, row.y)
        input.move(0, row.x, row.y - GestureConstants.touchSlop - 2)
        input.up(0)
        XCTAssertEqual(page.log, ["targetTap row-1"], "the page took the touch: no tap")
        XCTAssertEqual(page.scrollY, 2, accuracy: 1e-9)
    }

    func testLiftingThePinchFingersApartLeavesNoPanBehind() {
        let a = mapSpot, b = mapSpot + Point(x: 100, y: 0)
        input.frame([.down(id: 0, at: a), .down(id: 1, at: b)])
        input.dragTogether([(0, -40, 0), (1, 40, 0)])
        XCTAssertEqual(page.log, ["mapPinch"])
        let offset = page.mapOffset
        input.up(0)
        input.wait(30)
        input.drag(1, by: 0, -50)
        input.up(1)
        input.wait(1000)
        XCTAssertEqual(page.log, ["mapPinch"])
        XCTAssertEqual(page.mapOffset, offset)
        XCTAssertEqual(page.scrollY, 0, "the remaining finger does not scroll the page either")
    }

    func testSingleTapOnTheMapIsReportedOnlyAfterTheDoubleTapWindow() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(GestureConstants.doubleTapTimeout - 1)
        XCTAssertEqual(page.log, [])
        input.wait(1)
        XCTAssertEqual(Set(page.log), ["mapTap", "observedTap"])
        XCTAssertEqual(page.log.count, 2)
    }

    func testTheObserverSeesTapsWithoutTakingThemFromTheMap() {
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(1000)
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.tap(mapSpot.x, mapSpot.y)
        input.wait(1000)
        XCTAssertEqual(page.log.filter { $0 == "observedTap" }.count, 1, "one single tap; the double tap is not two")
        XCTAssertEqual(page.log.filter { $0 == "mapTap" }.count, 1)
        XCTAssertEqual(page.log.last, "doubleTapZoom")
    }

    func testTwoFingerTapZoomsOut() {
        input.down(0, mapSpot.x, mapSpot.y)
        input.wait(30)
        input.down(1, mapSpot.x + 60, mapSpot.y)
        input.wait(60)
        input.up(0)
        input.wait(10)
        input.up(1)
        input.wait(1000)
        XCTAssertEqual(page.log, ["twoFingerTapZoom"])
        XCTAssertEqual(page.mapZoom, 10)
    }

    func testTappingAPinSelectsItAtOnceAndIsNoMapTap() {
        let pin = page.pins[0]
        let c = pin.convert(toWindow: Point(x: 8, y: 8))
        input.tap(c.x, c.y)
        // The map's observer sees every tap inside the map, the pin's included, and reports it
        // without waiting: the pin's tap already ruled out a double tap.
        XCTAssertEqual(page.log, ["pinTap pin-1", "observedTap"])
        input.wait(1000)
        XCTAssertEqual(page.log, ["pinTap pin-1", "observedTap"])
    }

    func testAnEnlargedTargetTakesATapOutsideItsIcon() {
        // 14 px left of the 24 px zoom icon: inside its 48 px target.
        let icon = page.zoomIn.convert(toWindow: .zero)
        input.tap(icon.x - 10, icon.y + 12)
        XCTAssertEqual(page.log.first, "targetTap zoomIn")
        XCTAssertEqual(page.mapZoom, 12)
        input.tap(page.menu.frame.minX - 10, page.menu.frame.maxY + 10, id: 1)
        XCTAssertEqual(page.log.filter { $0.hasPrefix("targetTap") }, ["targetTap zoomIn", "targetTap menu"])
    }

    func testADragThatStartsOnAPinDragsThePinNotThePage() {
        let pin = page.pins[0]
        let before = pin.frame.origin
        let c = pin.convert(toWindow: Point(x: 8, y: 8))
        input.down(0, c.x, c.y)
        input.drag(0, by: 60, -80)
        input.up(0)
        XCTAssertEqual(page.scrollY, 0)
        // The pin stays under the finger from touch-down on, slop included.
        XCTAssertEqual(pin.frame.origin.x - before.x, 60, accuracy: 1e-9)
        XCTAssertEqual(pin.frame.origin.y - before.y, -80, accuracy: 1e-9)
        XCTAssertEqual(page.log, ["pinDragEnded pin-1"])
    }

    func testTwoPinsDraggedAtOnceMoveIndependently() {
        let (p1, p2) = (page.pins[0], page.pins[1])
        let (o1, o2) = (p1.frame.origin, p2.frame.origin)
        let c1 = p1.convert(toWindow: Point(x: 8, y: 8)), c2 = p2.convert(toWindow: Point(x: 8, y: 8))
        input.down(0, c1.x, c1.y)
        input.wait(30)
        input.down(1, c2.x, c2.y)
        input.dragTogether([(0, 0, 100), (1, 100, 0)])
        input.up(0)
        input.up(1)
        XCTAssertEqual(p1.frame.origin.y - o1.y, 100, accuracy: 1e-9)
        XCTAssertEqual(p1.frame.origin.x, o1.x, accuracy: 1e-9)
        XCTAssertEqual(p2.frame.origin.x - o2.x, 100, accuracy: 1e-9)
        XCTAssertEqual(p2.frame.origin.y, o2.y, accuracy: 1e-9)
        XCTAssertEqual(page.scrollY, 0)
        XCTAssertEqual(Set(page.log), ["pinDragEnded pin-1", "pinDragEnded pin-2"])
        XCTAssertEqual(page.mapOffset, .zero)
    }

    func testReleasingADragOverAPinIsNoTap() {
        let pin = page.pins[0].convert(toWindow: Point(x: 8, y: 8))
        input.down(0, pin.x - 50, pin.y + 50)
        input.drag(0, by: 50, -50)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.log, ["cooperativeHint"])
    }

    func testAtTheTopAOneFingerPullDownOnTheMapDoesNothing() {
        // The page cannot scroll down past its top, so it does not compete; the map needs two fingers.
        input.down(0, mapSpot.x, mapSpot.y)
        input.drag(0, by: 0, 80)
        input.up(0)
        input.wait(1000)
        XCTAssertEqual(page.scrollY, 0)
        XCTAssertEqual(page.log, [])
        XCTAssertEqual(page.mapOffset, .zero)
    }

    func testMouseDoubleClickZoomsAndMouseDragPansTheMap() {
        input.click(mapSpot.x, mapSpot.y)
        input.wait(100)
        input.click(mapSpot.x + 2, mapSpot.y)
        XCTAssertEqual(page.log, ["doubleTapZoom"])
        input.wait(1000)
        input.mouseMove(mapSpot.x, mapSpot.y)
        input.mouseButton(pressed: true)
        for i in 1...10 {
            input.wait(10)
            input.mouseMove(mapSpot.x, mapSpot.y - Double(i) * 10)
        }
        input.mouseButton(pressed: false)
        XCTAssertEqual(page.mapOffset, Point(x: 0, y: -100), "the map follows the mouse exactly")
        XCTAssertEqual(page.scrollY, 0, "the mouse scrolls the page with the wheel, not by dragging")
    }

    func testAfterEverythingEndsEveryRecognizerIsBackToPossible() {
        input.tap(mapSpot.x, mapSpot.y)
        input.down(1, mapSpot.x, mapSpot.y)
        input.down(2, mapSpot.x + 50, mapSpot.y)
        input.dragTogether([(1, 10, 10), (2, 60, 10)])
        input.settle()
        for r in page.allRecognizers { XCTAssertEqual(r.state, .possible, r.name) }
        XCTAssertTrue(input.system.activeRecognizers.isEmpty)
        XCTAssertNil(input.system.nextDeadline)
    }
}
