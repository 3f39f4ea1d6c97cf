import Gestures
import Input
import XCTest

final class HitTestingTests: XCTestCase {
    func testTouchLandsOnTheTopmostDeepestView() {
        let root = makeWindow()
        let card = addView("card", Rect(x: 100, y: 100, width: 200, height: 200), to: root)
        let button = addView("button", Rect(x: 10, y: 10, width: 50, height: 50), to: card)
        let overlay = addView("overlay", Rect(x: 150, y: 150, width: 100, height: 100), to: root)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 120, y: 120)) === button)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 200, y: 200)) === overlay)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 290, y: 120)) === card)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 5, y: 5)) === root)
        XCTAssertNil(root.hitTest(windowPoint: Point(x: 900, y: 5)))
    }

    func testHiddenDisabledAndNonInteractiveViewsLetTouchesThrough() {
        let root = makeWindow()
        let under = addView("under", Rect(x: 0, y: 0, width: 100, height: 100), to: root)
        let hidden = addView("hidden", Rect(x: 0, y: 0, width: 100, height: 100), to: root)
        hidden.isHidden = true
        let p = Point(x: 50, y: 50)
        XCTAssertTrue(root.hitTest(windowPoint: p) === under)
        hidden.isHidden = false
        hidden.isEnabled = false
        XCTAssertTrue(root.hitTest(windowPoint: p) === under)
        hidden.isEnabled = true
        hidden.isUserInteractionEnabled = false
        XCTAssertTrue(root.hitTest(windowPoint: p) === under)
        hidden.isUserInteractionEnabled = true
        XCTAssertTrue(root.hitTest(windowPoint: p) === hidden)
    }

    func testScrolledContentIsHitWhereItIsDrawn() {
        let root = makeWindow()
        let page = addView("page", Rect(x: 0, y: 0, width: 800, height: 1280), to: root)
        let row = addView("row", Rect(x: 0, y: 2000, width: 800, height: 80), to: page)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 400, y: 40)) === page)
        page.boundsOrigin = Point(x: 0, y: 1980)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 400, y: 40)) === row)
        XCTAssertEqual(row.convert(fromWindow: Point(x: 400, y: 40)), Point(x: 400, y: 20))
        XCTAssertEqual(row.convert(toWindow: Point(x: 400, y: 20)), Point(x: 400, y: 40))
    }

    func testFramesInWindowFollowScrolling() {
        let root = makeWindow()
        let page = addView("page", Rect(x: 0, y: 0, width: 800, height: 1280), to: root)
        let button = addView("button", Rect(x: 100, y: 500, width: 24, height: 24), to: page)
        button.hitInsets = EdgeInsets.enlarging(button.frame.size, toAtLeast: 48)
        page.boundsOrigin.y = 200
        XCTAssertEqual(button.frameInWindow, Rect(x: 100, y: 300, width: 24, height: 24))
        XCTAssertEqual(button.hitFrameInWindow, Rect(x: 88, y: 288, width: 48, height: 48))
    }

    func testTapTenPixelsOutsideAnEnlargedButtonStillHitsIt() {
        let root = makeWindow()
        let button = addView("button", Rect(x: 100, y: 100, width: 24, height: 24), to: root)
        button.hitInsets = EdgeInsets(all: -12)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 90, y: 112)) === button)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 134, y: 134)) === button)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 137, y: 112)) === root)
    }

    func testTrueBoundsBeatAnotherTargetsEnlargedArea() {
        let root = makeWindow()
        let a = addView("a", Rect(x: 100, y: 100, width: 24, height: 24), to: root)
        a.hitInsets = EdgeInsets(all: -12)
        let b = addView("b", Rect(x: 130, y: 100, width: 24, height: 24), to: root)
        b.hitInsets = EdgeInsets(all: -12)
        // (132, 110) is in A's enlargement and in B's true bounds; B is also on top, so check
        // with A on top too.
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 132, y: 110)) === b)
        root.addChild(a) // A is now topmost
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 132, y: 110)) === b)
    }

    func testWhereEnlargedTargetsOverlapTheNearestWins() {
        let root = makeWindow()
        let a = addView("a", Rect(x: 100, y: 100, width: 24, height: 24), to: root)
        let b = addView("b", Rect(x: 140, y: 100, width: 24, height: 24), to: root)
        a.hitInsets = EdgeInsets(all: -12)
        b.hitInsets = EdgeInsets(all: -12)
        // Gap between 124 and 140: both enlargements cover it.
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 127, y: 110)) === a)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 137, y: 110)) === b)
        root.addChild(a)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 137, y: 110)) === b)
    }

    func testEnlargedPinBeatsTheMapItSitsOn() {
        let root = makeWindow()
        let map = addView("map", Rect(x: 0, y: 0, width: 400, height: 400), to: root)
        let pin = addView("pin", Rect(x: 200, y: 200, width: 16, height: 16), to: map)
        pin.hitInsets = EdgeInsets.enlarging(pin.frame.size, toAtLeast: 48)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 190, y: 190)) === pin)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 180, y: 180)) === map)
    }

    /// Decision (docs/GESTURES.md, "Clipping"): like UIKit, a clipping parent drops the part of
    /// a child's enlarged area that lies outside it; the touch goes to what is there instead.
    func testEnlargedAreaOutsideAClippingParentIsNotHit() {
        let root = makeWindow()
        let map = addView("map", Rect(x: 100, y: 100, width: 400, height: 400), to: root)
        map.clipsToBounds = true
        let pin = addView("pin", Rect(x: 0, y: 100, width: 16, height: 16), to: map)
        pin.hitInsets = EdgeInsets(all: -16)
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 104, y: 205)) === pin, "inside the map: enlarged hit")
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 92, y: 205)) === root, "outside the map: dropped")
        map.clipsToBounds = false
        XCTAssertTrue(root.hitTest(windowPoint: Point(x: 92, y: 205)) === pin, "without clipping it reaches the pin")
    }
}
