import Foundation
import Geo
import Gestures
import Testing

/// Behaviours 2–5: one-finger zoom, taps that steal nothing, draggable pins, enlarged targets.
@Suite struct ZoomTapAndPinTests {
    @Test func aDoubleTapZoomsInOneLevelAroundTheTapOnceAndReportsNoTap() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: 120, y: 80))
        let place = start.coordinate(at: p)
        var t = TraceBuilder()
        t.tap(p)
        t.wait(100)
        t.tap(p)
        let end = try Replay.dump(t)
        #expect(end.zoom == start.zoom + 1)
        #expect(end.log("doubleTapZoom").count == 1)
        #expect(end.log("mapTap").isEmpty, "neither tap of a double tap is a single tap")
        #expect(end.windowPoint(of: place).distance(to: p) < 1, "the tapped place stays under the finger")
    }

    @Test func theDoubleTapZoomIsAnimatedAndOverWithin300ms() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        t.tap(p)
        t.wait(100)
        t.tap(p)
        t.wait(120)
        t.line("wait")   // a state dump taken mid-animation still shows the zoom on its way
        let mid = try Replay.run(t, arguments: []).dump
        #expect(mid.zoom == start.zoom + 1, "the replay settles animations before dumping")
        let entry = try #require(mid.log("doubleTapZoom").first)
        #expect((entry["zoom"] as? Double) == start.zoom + 1)
    }

    @Test func doubleTapAndDragDownZoomsInUpZoomsOutAndNeverAddsADoubleTapZoom() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: 0, y: -120))
        let place = start.coordinate(at: p)
        // The drag-zoom starts once the press has travelled the slop up or down (a slide during
        // a slow double tap is not one), from where the finger is then.
        let slop = GestureConstants.quickZoomSlop
        for (dy, expected) in [(100.0 + slop, 1.0), (-100.0 - slop, -1.0)] {
            var t = TraceBuilder()
            t.tap(p)
            t.wait(100)
            t.drag([(0, p)], by: P(x: 0, y: dy), steps: 12, rest: 60)
            let end = try Replay.dump(t)
            let change = end.zoom - start.zoom
            #expect(abs(change - expected) < 0.2, "dragging \(dy) px changed the zoom by \(change) (75–150 px per level past the slop)")
            #expect(end.log("doubleTapZoom").isEmpty && end.log("mapTap").isEmpty)
            #expect(end.windowPoint(of: place).distance(to: p) < 1, "anchored at the tapped point")
            #expect(end.scrollY == 0)
        }
    }

    @Test func aSingleTapReportsTheCoordinateUnderTheFingerAfterTheDoubleTapWindow() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: -150, y: 100))
        var t = TraceBuilder()
        t.wait(10)
        t.tap(p)
        let end = try Replay.dump(t)
        let tap = try #require(end.log("mapTap").first)
        let expected = start.coordinate(at: p)
        #expect(abs((tap["lat"] as? Double ?? 0) - expected.latitude) < 1e-9)
        #expect(abs((tap["lon"] as? Double ?? 0) - expected.longitude) < 1e-9)
        #expect(tap["x"] as? Double == p.x && tap["y"] as? Double == p.y)
        #expect((tap["t"] as? Double ?? 0) >= 70 + 300 - 1, "reported only once a second tap can no longer come")
        #expect(end.observedTaps == 1, "the observer saw it too")
        #expect(end.zoom == start.zoom && end.center == start.center)
    }

    @Test func theObserverSeesTapsWithoutChangingWhoWins() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        t.tap(p)
        t.wait(100)
        t.tap(p)
        let end = try Replay.dump(t)
        #expect(end.log("doubleTapZoom").count == 1, "the double tap still won")
        #expect(end.observedTaps == 0, "the observer reports single taps only, so it saw none here")
    }

    @Test func aTapOnAPinSelectsIt() throws {
        let start = try Replay.initial()
        let pin = try #require(start.visiblePins.first)
        var t = TraceBuilder()
        t.tap(pin.frame.center)
        let end = try Replay.dump(t)
        #expect(end.log("pinTap").first?["id"] as? String == pin.id)
        #expect(end.log("mapTap").isEmpty)
    }

    @Test func aDragThatStartsOnAPinMovesThePinNotTheMapOrThePage() throws {
        let start = try Replay.initial()
        let pin = try #require(start.visiblePins.first)
        var t = TraceBuilder()
        t.drag([(0, pin.frame.center)], by: P(x: 80, y: 40))
        let end = try Replay.dump(t)
        let moved = try #require(end.pin(pin.id))
        #expect(moved.frame.center.distance(to: pin.frame.center + P(x: 80, y: 40)) < 1, "the pin followed the finger")
        let dropped = try #require(end.log("pinDragEnded").first)
        let c = end.coordinate(at: pin.frame.center + P(x: 80, y: 40))
        #expect(abs((dropped["lat"] as? Double ?? 0) - c.latitude) < 1e-6 && abs((dropped["lon"] as? Double ?? 0) - c.longitude) < 1e-6)
        #expect(moved.coordinate.map { abs($0.latitude - c.latitude) < 1e-6 } == true, "and stays there")
        #expect(end.center == start.center && end.scrollY == 0)
        #expect(end.log("cooperativeHint").isEmpty)
    }

    @Test func twoPinsFollowTwoFingersAtOnce() throws {
        let start = try Replay.initial()
        let pins = start.visiblePins
        try #require(pins.count >= 2)
        let a = pins[0], b = pins[1]
        var t = TraceBuilder()
        t.down(0, a.frame.center)
        t.down(1, b.frame.center)
        t.frame()
        for i in 1...12 {
            t.wait(16)
            let k = Double(i) / 12
            t.move(0, a.frame.center + P(x: 40 * k, y: 30 * k))
            t.move(1, b.frame.center + P(x: -30 * k, y: 20 * k))
            t.frame()
        }
        t.wait(60)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(try #require(end.pin(a.id)).frame.center.distance(to: a.frame.center + P(x: 40, y: 30)) < 1)
        #expect(try #require(end.pin(b.id)).frame.center.distance(to: b.frame.center + P(x: -30, y: 20)) < 1)
        #expect(end.log("pinDragEnded").count == 2)
        #expect(end.center == start.center && end.zoom == start.zoom, "two fingers on pins are not a map gesture")
    }

    @Test func everyTargetHasAHitAreaOfAtLeast48pxAroundASmallerVisual() throws {
        let start = try Replay.initial()
        for item in start.pins + start.targets {
            #expect(item.hitFrame.width >= 48 && item.hitFrame.height >= 48, "\(item.id) hit area \(item.hitFrame.width)x\(item.hitFrame.height)")
        }
        for item in start.pins + start.targets.filter({ $0.id.hasPrefix("zoom") }) {
            #expect(item.frame.width < 48, "\(item.id)'s visual is small (\(item.frame.width) px)")
        }
    }

    @Test func aTapInsideTheEnlargedAreaButOutsideTheButtonStillPressesIt() throws {
        let start = try Replay.initial()
        let zoomIn = try #require(start.target("zoomIn"))
        let p = P(x: zoomIn.hitFrame.x + 3, y: zoomIn.hitFrame.y + zoomIn.hitFrame.height - 3)
        #expect(!zoomIn.frame.contains(p) && zoomIn.hitFrame.contains(p))
        var t = TraceBuilder()
        t.tap(p)
        let end = try Replay.dump(t)
        #expect(end.log("targetTap").first?["id"] as? String == "zoomIn")
        #expect(end.zoom == start.zoom + 1)
    }

    @Test func whereEnlargedAreasOverlapTheNearestTargetWins() throws {
        // Zoomed out, the pins crowd together and their 48-px areas overlap.
        let start = try Replay.initial(["--zoom", "13.5"])
        let visible = start.pins.filter { start.mapFrame.contains($0.frame.center) }
        var pair: (Dump.Item, Dump.Item)?
        for a in visible {
            for b in visible where a.id < b.id {
                let d = a.frame.center.distance(to: b.frame.center)
                if d > 24 && d < 44 { pair = (a, b) }
            }
        }
        let (a, b) = try #require(pair, "no two pins with overlapping hit areas at zoom 13.5")
        // A point in both hit areas, outside both visuals, nearer to a.
        let p = P(x: a.frame.center.x + (b.frame.center.x - a.frame.center.x) * 0.45,
                  y: a.frame.center.y + (b.frame.center.y - a.frame.center.y) * 0.45)
        #expect(a.hitFrame.contains(p) && b.hitFrame.contains(p))
        var t = TraceBuilder()
        t.tap(p)
        let end = try Replay.dump(t, ["--zoom", "13.5"])
        #expect(end.log("pinTap").first?["id"] as? String == a.id)
    }

    @Test func aListRowCentresTheMapOnItsPlace() throws {
        let start = try Replay.initial()
        let row = try #require(start.targets.first { $0.id == "place-kiasma" })
        var t = TraceBuilder()
        t.tap(row.frame.center)
        let end = try Replay.dump(t)
        #expect(end.log("targetTap").first?["id"] as? String == "place-kiasma")
        let kiasma = try #require(end.pin("pin-kiasma")?.coordinate)
        #expect(abs(end.center.latitude - kiasma.latitude) < 1e-6 && abs(end.center.longitude - kiasma.longitude) < 1e-6)
    }

    @Test func replayingOneTraceTwiceGivesIdenticalDumps() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.drag([(0, start.freeMapPoint())], by: P(x: 0, y: -120), steps: 6, rest: 0)
        t.wait(500)
        t.tap(start.freeMapPoint(near: P(x: 200, y: 300)))
        let a = try Replay.run(t).dump.raw as NSDictionary, b = try Replay.run(t).dump.raw as NSDictionary
        #expect(a == b)
    }
}
