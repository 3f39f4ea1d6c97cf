import Gestures
import Input
import XCTest

/// The arena's rules: who gets a touch, who waits, who gives way (scenarios 3, 4, 25, 31, 32, 35).
final class ArenaTests: XCTestCase {
    private let root = makeWindow()
    private let recorder = Recorder()
    private lazy var input = Driver(root: root)

    func testTheDeeperViewsGestureWinsAndKeepsItsTouch() {
        let slider = addView("slider", Rect(x: 0, y: 0, width: 400, height: 60), to: root)
        let knob = PanGestureRecognizer(name: "knob")
        slider.addGestureRecognizer(knob)
        let page = PanGestureRecognizer(name: "page")
        root.addGestureRecognizer(page)
        recorder.watch(knob, page)
        input.down(0, 100, 30)
        input.drag(0, by: 40, 0)
        input.drag(0, by: 0, 400) // a large orthogonal move later
        input.up(0)
        XCTAssertEqual(recorder.visible, ["knob began", "knob ended"])
    }

    func testWhenOneBeginsTheOthersOnItsTouchFail() {
        let a = PanGestureRecognizer(name: "a")
        let b = PanGestureRecognizer(name: "b")
        root.addGestureRecognizer(a)
        root.addGestureRecognizer(b)
        recorder.watch(a, b)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        XCTAssertEqual(recorder.events.prefix(2), ["a began", "b failed"])
    }

    func testAYesFromEitherSideLetsThemRunTogether() {
        let a = PanGestureRecognizer(name: "a")
        let b = PanGestureRecognizer(name: "b")
        root.addGestureRecognizer(a)
        root.addGestureRecognizer(b)
        b.shouldRecognizeSimultaneously = { _, other in other === a }
        recorder.watch(a, b)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        XCTAssertEqual(recorder.visible, ["a began", "b began"])
    }

    func testAVetoedGestureFailsAndLeavesTheTouchToOthers() {
        let a = PanGestureRecognizer(name: "a")
        let b = PanGestureRecognizer(name: "b")
        var asked = 0
        a.shouldBegin = { _ in
            asked += 1
            return false
        }
        defer { XCTAssertEqual(asked, 1) }
        root.addGestureRecognizer(a)
        root.addGestureRecognizer(b)
        recorder.watch(a, b)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        XCTAssertEqual(recorder.events.prefix(2), ["a failed", "b began"])
    }

    func testRequireToFailHoldsAGestureBackAndFailsItIfTheOtherWins() {
        let tap = TapGestureRecognizer(name: "tap")
        let double = TapGestureRecognizer(name: "double", taps: 2)
        tap.require(toFail: double)
        root.addGestureRecognizer(tap)
        root.addGestureRecognizer(double)
        recorder.watch(tap, double)
        input.tap(100, 100)
        XCTAssertEqual(recorder.visible, [])
        input.wait(100)
        input.tap(100, 100)
        XCTAssertEqual(recorder.events, ["double ended", "tap failed"])
    }

    func testAnAncestorsDragWaitsBrieflyForASecondFingerOnADeeperView() {
        let map = addView("map", Rect(x: 0, y: 400, width: 800, height: 400), to: root)
        let mapPan = PanGestureRecognizer(name: "map", minimumTouches: 2, maximumTouches: 2)
        map.addGestureRecognizer(mapPan)
        let page = PanGestureRecognizer(name: "page", maximumTouches: 1)
        root.addGestureRecognizer(page)
        var beganAt: Double?
        page.action = { [unowned self] in if $0.state == .began { beganAt = input.time } }
        input.down(0, 100, 600)
        input.drag(0, by: 0, -60, steps: 6, stepMs: 10) // past the slop at 30 ms
        XCTAssertNil(beganAt, "still waiting for a second finger")
        input.drag(0, by: 0, -60, steps: 6, stepMs: 10)
        XCTAssertEqual(beganAt, GestureConstants.secondFingerGraceWindow)
        XCTAssertEqual(page.translation(in: nil).y, -(120 - GestureConstants.touchSlop), accuracy: 1e-9,
                       "everything moved while waiting counts")
    }

    func testWhenTheSecondFingerComesInTimeTheDeeperGestureGetsTheTouches() {
        // The ancestor's pan takes any number of fingers, so only the wait decides the race.
        let map = addView("map", Rect(x: 0, y: 400, width: 800, height: 400), to: root)
        let mapPan = PanGestureRecognizer(name: "map", minimumTouches: 2, maximumTouches: 2)
        map.addGestureRecognizer(mapPan)
        let page = PanGestureRecognizer(name: "page")
        root.addGestureRecognizer(page)
        recorder.watch(mapPan, page)
        input.down(0, 100, 600)
        input.drag(0, by: 0, -30, steps: 3, stepMs: 10)
        XCTAssertEqual(recorder.visible, [], "the page waits")
        input.down(1, 200, 600)
        input.dragTogether([(0, 0, -40), (1, 0, -40)])
        input.up(0)
        input.up(1)
        XCTAssertEqual(recorder.visible, ["map began", "map ended"])
    }

    func testAQuickFlickLiftedDuringTheWaitStillScrolls() {
        let map = addView("map", Rect(x: 0, y: 400, width: 800, height: 400), to: root)
        map.addGestureRecognizer(PanGestureRecognizer(name: "map", minimumTouches: 2, maximumTouches: 2))
        let page = PanGestureRecognizer(name: "page", maximumTouches: 1)
        root.addGestureRecognizer(page)
        recorder.watch(page)
        var velocity = Point.zero
        page.action = { if $0.state == .ended { velocity = $0.velocity(in: nil) } }
        input.down(0, 100, 600)
        input.drag(0, by: 0, -80, steps: 5, stepMs: 10)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["page began", "page ended"])
        XCTAssertLessThan(velocity.y, -1000)
    }

    func testTheWaitIsOnlyForGesturesOnDeeperViews() {
        // A pin's drag does not wait for the map's two-finger pan: the pin is the deeper view.
        let map = addView("map", Rect(x: 0, y: 400, width: 800, height: 400), to: root)
        map.addGestureRecognizer(PanGestureRecognizer(name: "map", minimumTouches: 2, maximumTouches: 2))
        let pin = addView("pin", Rect(x: 90, y: 190, width: 20, height: 20), to: map)
        let drag = PanGestureRecognizer(name: "pin", maximumTouches: 1)
        pin.addGestureRecognizer(drag)
        recorder.watch(drag)
        input.down(0, 100, 600)
        input.move(0, 100, 620)
        XCTAssertEqual(recorder.visible, ["pin began"])
    }

    func testCancelResetsEverythingAndReusedIdsStartAfresh() {
        let pan = PanGestureRecognizer(name: "pan", minimumTouches: 2, maximumTouches: 2)
        let pinch = PinchGestureRecognizer(name: "pinch")
        let one = PanGestureRecognizer(name: "one", maximumTouches: 1)
        pinch.recognizeSimultaneously(with: pan)
        for r: GestureRecognizer in [pan, pinch, one] { root.addGestureRecognizer(r) }
        recorder.watch(pan, pinch, one)
        input.frame([.down(id: 0, at: Point(x: 300, y: 500)), .down(id: 1, at: Point(x: 400, y: 500))])
        input.dragTogether([(0, -50, 20), (1, 50, 20)])
        XCTAssertEqual(Set(recorder.visible), ["pan began", "pinch began"])
        recorder.clear()
        input.cancel()
        XCTAssertEqual(Set(recorder.visible), ["pan cancelled", "pinch cancelled"])
        XCTAssertTrue(input.system.activeTouches.isEmpty)
        XCTAssertTrue(input.system.activeRecognizers.isEmpty)
        recorder.clear()
        input.up(1) // a late lift for a forgotten id is ignored
        input.down(1, 300, 500)
        input.drag(1, by: 0, 100)
        input.up(1)
        XCTAssertEqual(recorder.visible, ["one began", "one ended"], "a fresh one-finger drag is not a pinch")
    }

    func testDisablingARunningGestureCancelsIt() {
        let pan = PanGestureRecognizer(name: "pan")
        root.addGestureRecognizer(pan)
        recorder.watch(pan)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        pan.isEnabled = false
        input.drag(0, by: 0, 50)
        input.up(0)
        XCTAssertEqual(recorder.visible, ["pan began", "pan cancelled"])
        pan.isEnabled = true
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50)
        XCTAssertEqual(recorder.visible.last, "pan began")
    }

    func testAnObserverSeesEveryTouchAndChangesNothing() {
        let card = addView("card", Rect(x: 0, y: 0, width: 400, height: 400), to: root)
        let drag = PanGestureRecognizer(name: "drag")
        card.addGestureRecognizer(drag)
        let observer = ObserverGestureRecognizer(name: "observer")
        root.addGestureRecognizer(observer)
        var seen: [ObserverGestureRecognizer.Phase] = []
        observer.onTouch = { _, phase, _ in seen.append(phase) }
        recorder.watch(drag, observer)
        input.down(0, 100, 100)
        input.drag(0, by: 0, 50, steps: 3)
        input.up(0)
        XCTAssertEqual(seen, [.began, .moved, .moved, .moved, .ended])
        XCTAssertEqual(recorder.visible, ["drag began", "drag ended"])
        input.down(0, 100, 100)
        input.cancel()
        XCTAssertEqual(seen.last, .cancelled)
    }

    func testAnObservingTapNeitherBlocksNorIsBlocked() {
        let button = addView("button", Rect(x: 0, y: 0, width: 100, height: 100), to: root)
        let tap = TapGestureRecognizer(name: "tap")
        button.addGestureRecognizer(tap)
        let watcher = TapGestureRecognizer(name: "watcher")
        watcher.isObserver = true
        root.addGestureRecognizer(watcher)
        recorder.watch(tap, watcher)
        input.tap(50, 50)
        XCTAssertEqual(recorder.visible, ["tap ended", "watcher ended"])
    }

    func testTimersAreOnlyAsLongAsSomethingWaits() {
        let double = TapGestureRecognizer(name: "double", taps: 2)
        root.addGestureRecognizer(double)
        XCTAssertNil(input.system.nextDeadline)
        input.tap(100, 100)
        XCTAssertEqual(input.system.nextDeadline, input.time + GestureConstants.doubleTapTimeout)
        input.wait(GestureConstants.doubleTapTimeout)
        XCTAssertNil(input.system.nextDeadline)
        XCTAssertTrue(input.system.activeRecognizers.isEmpty)
    }
}
