import Foundation
import Geo
import Testing

/// Issue 12: gestures that never surprise. Each behaviour replayed as a trace through the
/// headless app, with geometry from the state dump.
@Suite struct GestureSurpriseTests {
    /// Two fingers 120 px apart around `c`, down in one frame.
    private func twoDown(_ t: inout TraceBuilder, _ c: P, ids: (Int, Int) = (0, 1)) {
        t.down(ids.0, c + P(x: -60, y: 0))
        t.down(ids.1, c + P(x: 60, y: 0))
        t.frame()
    }

    /// Moves the given fingers from their positions by `d` in `steps` frames of 16 ms.
    private func move(_ t: inout TraceBuilder, _ fingers: [(Int, P)], by d: P, steps: Int = 8) {
        for i in 1...steps {
            t.wait(16)
            let k = Double(i) / Double(steps)
            for (id, p) in fingers { t.move(id, p + P(x: d.x * k, y: d.y * k)) }
            t.frame()
        }
    }

    // MARK: 1. A touch catches motion

    @Test func aTouchOnAGlidingPageStopsItAndIsNoTap() throws {
        var flick = TraceBuilder()
        flick.drag([(0, P(x: 400, y: 1200))], by: P(x: 0, y: -300), steps: 5, rest: 0)
        let free = try Replay.dump(flick)
        var caught = flick
        caught.wait(60)
        caught.tap(P(x: 400, y: 1000), id: 1)
        let end = try Replay.dump(caught)
        #expect(free.scrollY > 300, "the flick glides on: \(free.scrollY)")
        #expect(end.scrollY < free.scrollY - 100, "the touch stopped the glide: \(end.scrollY) vs \(free.scrollY)")
        #expect(end.log("targetTap").isEmpty, "and was no tap on the row under it")
    }

    @Test func aTouchOnAFlingingMapStopsItAndIsNoTap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(near: start.mapFrame.center + P(x: -150, y: 0), clearance: 70)
        var flick = TraceBuilder()
        twoDown(&flick, c)
        move(&flick, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 150, y: 0), steps: 5)
        flick.up(0)
        flick.up(1)
        flick.frame()
        let free = try Replay.dump(flick)
        var caught = flick
        caught.wait(40)
        caught.tap(start.freeMapPoint(), id: 2)
        let end = try Replay.dump(caught)
        let place = start.coordinate(at: c)
        let freeTravel = free.windowPoint(of: place).distance(to: c)
        let caughtTravel = end.windowPoint(of: place).distance(to: c)
        #expect(freeTravel > 250, "the flick flings on: \(freeTravel) px")
        #expect(caughtTravel < freeTravel - 60, "the touch stopped the fling: \(caughtTravel) px vs \(freeTravel) px")
        #expect(end.log("mapTap").isEmpty && end.observedTaps == 0, "and was no tap")
    }

    // MARK: 2. Adding or lifting fingers never moves the map

    @Test func fingersLandingAndLiftingMidPanNeverMoveTheMap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(near: start.mapFrame.center + P(x: -120, y: -80), clearance: 70)
        let f0 = c + P(x: -60, y: 0), f1 = c + P(x: 60, y: 0), f2 = c + P(x: 0, y: 70)
        let place = start.coordinate(at: f1)
        var t = TraceBuilder()
        twoDown(&t, c)
        move(&t, [(0, f0), (1, f1)], by: P(x: 100, y: 40))
        let d = P(x: 100, y: 40)
        t.wait(16)
        t.down(2, f2 + d)   // a third finger lands, nothing moves
        t.frame()
        move(&t, [(0, f0 + d), (1, f1 + d), (2, f2 + d)], by: P(x: 40, y: 0))
        let d2 = d + P(x: 40, y: 0)
        t.wait(16)
        t.up(0)             // one lifts, nothing moves
        t.frame()
        move(&t, [(1, f1 + d2), (2, f2 + d2)], by: P(x: 0, y: 50))
        t.wait(80)
        t.up(1)
        t.up(2)
        t.frame()
        let end = try Replay.dump(t)
        let expected = f1 + d2 + P(x: 0, y: 50)
        #expect(end.windowPoint(of: place).distance(to: expected) < 1,
                "the place under a finger stayed under it through every change of fingers: \(end.windowPoint(of: place)) vs \(expected)")
        #expect(abs(end.zoom - start.zoom) < 1e-9 && end.scrollY == 0)
    }

    // MARK: 3. Quick repeated taps add up

    @Test func twoQuickTapsOnPlusZoomInTwoLevels() throws {
        let start = try Replay.initial()
        let plus = try #require(start.target("zoomIn")).frame.center
        var t = TraceBuilder()
        t.tap(plus)
        t.wait(100)
        t.tap(plus, id: 1)
        let end = try Replay.dump(t)
        #expect(end.log("targetTap").count == 2)
        #expect(end.zoom == start.zoom + 2, "the second tap adds to the running zoom's target: \(end.zoom)")
    }

    @Test func twoQuickPlusKeysAndTwoQuickDoubleTapsZoomInTwoLevels() throws {
        let start = try Replay.initial()
        var keys = TraceBuilder()
        for _ in 0..<2 {
            keys.line("key pressed plus")
            keys.wait(40)
            keys.line("key released plus")
            keys.wait(40)
        }
        #expect(try Replay.dump(keys).zoom == start.zoom + 2)

        let p = start.freeMapPoint()
        var taps = TraceBuilder()
        for _ in 0..<2 {
            taps.tap(p)
            taps.wait(80)
            taps.tap(p)
            taps.wait(60)
        }
        let end = try Replay.dump(taps)
        #expect(end.log("doubleTapZoom").count == 2)
        #expect(end.zoom == start.zoom + 2, "the second double tap added to the first: \(end.zoom)")
    }

    // MARK: 4. Narrow edges

    @Test func aQuickPinchIsNoTwoFingerTapButASettledTwoFingerTapIs() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 70)
        var pinch = TraceBuilder()
        twoDown(&pinch, c)
        pinch.wait(16)
        pinch.move(0, c + P(x: -72, y: 0))   // 12 px each, spread +24 px, in one frame
        pinch.move(1, c + P(x: 72, y: 0))
        pinch.frame()
        pinch.wait(30)
        pinch.up(0)
        pinch.up(1)
        pinch.frame()
        let pinched = try Replay.dump(pinch)
        #expect(pinched.log("twoFingerTapZoom").isEmpty, "a quick pinch is no two-finger tap")
        #expect(pinched.zoom > start.zoom, "it zoomed in a little, as a pinch")

        var settle = TraceBuilder()
        twoDown(&settle, c)
        move(&settle, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 6, y: 15), steps: 6)
        settle.up(0)
        settle.up(1)
        settle.frame()
        let tapped = try Replay.dump(settle)
        #expect(tapped.log("twoFingerTapZoom").count == 1, "fingers that settle 16 px still tap (real taps settle 2.5–3 mm)")
        #expect(tapped.zoom == start.zoom - 1)
    }

    @Test func aSmallMouseDragPansTheMapAndIsNoClick() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        let place = start.coordinate(at: p)
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.pointer("button left pressed")
        for i in 1...3 {
            t.wait(16)
            t.pointer("motion \(p.x + 2 * Double(i)) \(p.y)")
        }
        t.wait(50)
        t.pointer("button left released")
        let end = try Replay.dump(t)
        #expect(end.log("mapTap").isEmpty, "a 6 px mouse drag is no click")
        #expect(end.windowPoint(of: place).distance(to: p + P(x: 6, y: 0)) < 0.5, "it dragged the map by 6 px")
    }

    @Test func afterTheWindowLosesKeyboardFocusCtrlNoLongerZooms() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.line("key pressed Control_L")
        t.line("key leave")     // released elsewhere: the compositor tells us nothing more
        t.wait(500)
        t.line("key enter")
        t.line("pointer axis-source wheel")
        t.line("pointer axis vertical -15 discrete -1")
        t.line("pointer frame")
        let end = try Replay.dump(t)
        #expect(end.zoom == start.zoom, "no zoom: Ctrl is not held any more")

        var held = TraceBuilder()
        held.pointer("enter \(p.x) \(p.y)")
        held.line("key pressed Control_L")
        held.line("pointer axis-source wheel")
        held.line("pointer axis vertical -15 discrete -1")
        held.line("pointer frame")
        #expect(try Replay.dump(held).zoom > start.zoom, "while focus stays, Ctrl+wheel zooms")
    }

    @Test func highResolutionWheelStepsAddUp() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.line("key pressed Control_L")
        for _ in 0..<4 {
            t.wait(10)
            t.line("pointer axis-source wheel")
            t.line("pointer axis vertical -3.75 value120 -30")
            t.line("pointer frame")
        }
        let end = try Replay.dump(t)
        #expect(abs(end.zoom - (start.zoom + 0.5)) < 0.01, "four quarter detents are one detent: \(end.zoom - start.zoom) levels")
    }

    // MARK: 5. A second finger after the first moved

    /// Whether `p` is at least `clearance` px from every pin's and map button's hit area.
    private func isClear(_ d: Dump, _ p: P, clearance: Double = 40) -> Bool {
        (d.pins + d.targets.filter { !$0.id.hasPrefix("place-") }).allSatisfy { item in
            let h = item.hitFrame
            let dx = max(h.x - p.x, 0, p.x - (h.x + h.width)), dy = max(h.y - p.y, 0, p.y - (h.y + h.height))
            return (dx * dx + dy * dy).squareRoot() >= clearance
        } && d.mapFrame.contains(p)
    }

    @Test func aSecondFingerAfterASidewaysDragDoesNotJumpTheMap() throws {
        let start = try Replay.initial()
        // The first finger lands at a, drags 200 px sideways to a2; the second lands at b.
        var found: (P, P, P)?
        var y = start.mapFrame.y + 80
        while found == nil && y < start.mapFrame.y + start.mapFrame.height - 180 {
            var x = start.mapFrame.x + 60
            while found == nil && x < start.mapFrame.x + start.mapFrame.width - 320 {
                let a = P(x: x, y: y), a2 = a + P(x: 200, y: 4), b = a2 + P(x: 0, y: 100)
                if [a, a2, b, a2 + P(x: -60, y: -30), b + P(x: -60, y: -30)].allSatisfy({ isClear(start, $0) }) { found = (a, a2, b) }
                x += 10
            }
            y += 10
        }
        let (a, a2, b) = try #require(found)
        var t = TraceBuilder()
        t.down(0, a)
        t.frame()
        move(&t, [(0, a)], by: P(x: 200, y: 4), steps: 10)   // sideways: nothing moves
        t.wait(30)
        t.down(1, b)
        t.frame()
        let c = P(x: (a2.x + b.x) / 2, y: (a2.y + b.y) / 2)
        let place = start.coordinate(at: c)
        move(&t, [(0, a2), (1, b)], by: P(x: -60, y: -30))
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.log("cooperativeHint").count == 1, "the sideways drag showed the two-finger hint")
        #expect(end.windowPoint(of: place).distance(to: c + P(x: -60, y: -30)) < 1,
                "the place under the two fingers when the second landed follows them: \(end.windowPoint(of: place))")
        #expect(end.scrollY == 0)
    }

    // MARK: 6. A re-grip continues the map gesture

    @Test func aRegripContinuesTheMapGestureAndNeverScrollsThePage() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(near: start.mapFrame.center + P(x: -120, y: -100), clearance: 70)
        let f0 = c + P(x: -60, y: 0), f1 = c + P(x: 60, y: 0)
        let place = start.coordinate(at: f0)
        var t = TraceBuilder()
        twoDown(&t, c)
        move(&t, [(0, f0), (1, f1)], by: P(x: 40, y: 0))
        t.wait(16)
        t.up(1)
        t.frame()
        let g0 = f0 + P(x: 40, y: 0)
        move(&t, [(0, g0)], by: P(x: 0, y: 30), steps: 6)    // the lone finger moves nothing
        t.wait(10)
        let g1 = f1 + P(x: 40, y: 10)
        t.down(1, g1)
        t.frame()
        let h0 = g0 + P(x: 0, y: 30)
        move(&t, [(0, h0), (1, g1)], by: P(x: 0, y: 80))
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.scrollY == 0, "the rest of the pinch did not scroll the page")
        // The map followed the first 40 px, stood still while one finger was up, then followed 80 px down.
        let expected = f0 + P(x: 40, y: 80)
        #expect(end.windowPoint(of: place).distance(to: expected) < 1, "\(end.windowPoint(of: place)) vs \(expected)")
    }

    // MARK: 7. Page and map never move at once

    @Test func whileThePageScrollsFingersLandingOnTheMapDoNotMoveIt() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        let s = P(x: 400, y: 1150)
        t.down(0, s)
        t.frame()
        move(&t, [(0, s)], by: P(x: 0, y: -100))
        let c = start.freeMapPoint(near: start.mapFrame.center, clearance: 80) + P(x: 0, y: -100)
        let fingers = [(1, c + P(x: -60, y: 0)), (2, c + P(x: 60, y: 0)), (3, c + P(x: 0, y: 60))]
        for (id, p) in fingers { t.down(id, p) }
        t.frame()
        move(&t, fingers.map { ($0.0, $0.1) } + [(0, s + P(x: 0, y: -100))], by: P(x: 0, y: -40))
        for (id, p) in fingers {   // and now a pinch with them
            t.move(id, c + (p - c) + P(x: (p.x - c.x) * 0.8, y: -40))
        }
        t.frame()
        t.wait(80)
        for id in 0...3 { t.up(id) }
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.scrollY > 100, "the page scrolled with its finger: \(end.scrollY)")
        #expect(end.center == start.center && end.zoom == start.zoom, "and the map did not move")
    }

    @Test func whileTheMapMovesAFingerOnTheListDoesNotScrollThePage() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 70)
        var t = TraceBuilder()
        twoDown(&t, c)
        move(&t, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 50, y: 0))
        let s = P(x: 400, y: 1150)
        t.down(2, s)
        t.frame()
        move(&t, [(2, s)], by: P(x: 0, y: -200))
        t.wait(80)
        for id in 0...2 { t.up(id) }
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.scrollY == 0, "the page stayed while the map moved")
        #expect(end.center != start.center)
    }

    // MARK: 8. Ghost taps

    @Test func aChatterContactJustBeforeAPinchIsNoTap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 70)
        var t = TraceBuilder()
        t.down(5, c + P(x: -58, y: 2))
        t.frame()
        t.wait(22)
        t.up(5)
        t.frame()
        t.wait(30)
        twoDown(&t, c)
        move(&t, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 0, y: 0), steps: 1)
        for i in 1...8 {
            t.wait(16)
            t.move(0, c + P(x: -60 - 5 * Double(i), y: 0))
            t.move(1, c + P(x: 60 + 5 * Double(i), y: 0))
            t.frame()
        }
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.log("mapTap").isEmpty && end.observedTaps == 0, "the 22 ms contact was no tap: \(end.logKinds)")
        #expect(end.zoom > start.zoom, "the pinch zoomed")
    }

    @Test func aTapWaitingOutTheDoubleTapWindowIsDroppedWhenTwoFingersPanTheMap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 70)
        var t = TraceBuilder()
        t.tap(c + P(x: 0, y: 40), id: 5)
        t.wait(120)
        twoDown(&t, c)
        move(&t, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 80, y: 0))
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.log("mapTap").isEmpty, "log: \(end.logKinds)")
        #expect(end.center != start.center)
    }

    // MARK: 9. What people mean

    @Test func aSidewaysOneFingerDragOnTheMapShowsTheTwoFingerHint() throws {
        let start = try Replay.initial()
        let a = start.freeMapPoint(near: start.mapFrame.center + P(x: -150, y: 0))
        var t = TraceBuilder()
        t.drag([(0, a)], by: P(x: 150, y: 10))
        let end = try Replay.dump(t)
        #expect(end.log("cooperativeHint").count == 1, "the hint is the only feedback a sideways drag can get")
        #expect(end.center == start.center && end.scrollY == 0)
    }

    // MARK: Keys and the wheel during a finger gesture

    /// Two fingers pan the map; in the middle, `input` (a key or Ctrl+wheel) changes the camera;
    /// the fingers move on. Returns the dump just after the change, with the fingers' centroid,
    /// and the dump at the end, with the centroid's motion since.
    private func keyedDuringAPan(_ input: (inout TraceBuilder) -> Void) throws -> (mid: Dump, centroid: P, end: Dump, moved: P) {
        let start = try Replay.initial()
        let c = start.freeMapPoint(near: start.mapFrame.center, clearance: 80)
        var t = TraceBuilder()
        t.pointer("enter \(c.x) \(c.y)")
        twoDown(&t, c)
        move(&t, [(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 0, y: 50))
        input(&t)
        t.wait(16)
        let centroid = c + P(x: 0, y: 50)
        let mid = try Replay.dump(t)
        let moved = P(x: 40, y: -30)
        move(&t, [(0, centroid + P(x: -60, y: 0)), (1, centroid + P(x: 60, y: 0))], by: moved)
        let end = try Replay.dump(t)
        return (mid, centroid, end, moved)
    }

    @Test func aZoomKeyDuringATwoFingerPanIsKeptAndThePanGoesOnFromIt() throws {
        let start = try Replay.initial()
        let r = try keyedDuringAPan { t in
            t.line("key pressed plus")
            t.line("key released plus")
        }
        #expect(abs(r.mid.zoom - (start.zoom + 1)) < 0.01, "the key zoomed in at once: \(r.mid.zoom)")
        #expect(abs(r.end.zoom - r.mid.zoom) < 0.01, "the fingers' next frames did not undo it: \(r.end.zoom)")
        let place = r.mid.coordinate(at: r.centroid)
        #expect(r.end.windowPoint(of: place).distance(to: r.centroid + r.moved) < 1,
                "the place under the fingers after the key stayed under them")
    }

    @Test func ctrlWheelDuringATwoFingerPanIsKeptAndThePanGoesOnFromIt() throws {
        let r = try keyedDuringAPan { t in
            t.line("key pressed Control_L")
            t.line("pointer axis-source wheel")
            t.line("pointer axis vertical -30 discrete -2")
            t.line("pointer frame")
            t.line("key released Control_L")
        }
        let start = try Replay.initial()
        #expect(r.mid.zoom > start.zoom + 0.9, "two detents zoomed in: \(r.mid.zoom)")
        #expect(abs(r.end.zoom - r.mid.zoom) < 0.01, "the fingers' next frames did not undo it: \(r.end.zoom)")
        let place = r.mid.coordinate(at: r.centroid)
        #expect(r.end.windowPoint(of: place).distance(to: r.centroid + r.moved) < 1)
    }

    @Test func anArrowKeyPanDuringATwoFingerPanIsKept() throws {
        let r = try keyedDuringAPan { t in
            t.line("key pressed Tab")   // focus the map: arrows pan it
            t.line("key released Tab")
            t.line("key pressed Left")
            t.line("key released Left")
        }
        #expect(r.mid.focus == "map")
        let place = r.mid.coordinate(at: r.centroid)
        #expect(r.end.windowPoint(of: place).distance(to: r.centroid + r.moved) < 1, "the arrow's pan was not undone")
    }
}
