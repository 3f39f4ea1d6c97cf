import Foundation
import Geo
import Render
import Testing

/// Behaviour 1: one finger scrolls the page, even over the map; two fingers move the map.
@Suite struct CooperativeMapTests {
    @Test func oneFingerOnTheMapScrollsThePageAndShowsTheHintButNeverMovesTheMap() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.drag([(0, start.freeMapPoint())], by: P(x: 0, y: -300))
        let end = try Replay.dump(t)
        #expect(end.scrollY > 250 && end.scrollY <= 300, "the page followed the finger: scrollY \(end.scrollY)")
        #expect(end.center == start.center && end.zoom == start.zoom, "the map did not move")
        #expect(end.log("cooperativeHint").count == 1)
        #expect(end.log("mapTap").isEmpty && end.log("targetTap").isEmpty, "a pan never ends in a tap")
    }

    @Test func aFlickGlidesOnAfterTheFingerLifts() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.drag([(0, P(x: 400, y: 1000))], by: P(x: 0, y: -200), steps: 5, rest: 0)
        let end = try Replay.dump(t)
        #expect(end.scrollY > 260, "momentum carried the page past the 200 px dragged: \(end.scrollY)")
        #expect(end.scrollY <= end.contentHeight - end.windowHeight)
        #expect(end.center == start.center)
    }

    @Test func draggingPastTheTopBouncesBack() throws {
        var t = TraceBuilder()
        t.drag([(0, P(x: 400, y: 900))], by: P(x: 0, y: 250))
        let end = try Replay.dump(t)
        #expect(end.scrollY == 0)
    }

    @Test func twoFingersPanTheMapWithThePlaceUnderThemStayingUnderThem() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        let a = c + P(x: -60, y: 0), b = c + P(x: 60, y: 0)
        let place = start.coordinate(at: c)
        var t = TraceBuilder()
        t.drag([(0, a), (1, b)], by: P(x: 120, y: 80))
        let end = try Replay.dump(t)
        let now = end.windowPoint(of: place)
        #expect(now.distance(to: c + P(x: 120, y: 80)) < 1, "the place is at \(now), the fingers' centroid at \(c + P(x: 120, y: 80))")
        #expect(end.scrollY == 0, "the page did not move")
        #expect(end.log("cooperativeHint").isEmpty)
    }

    @Test func pinchingZoomsByTheLogOfTheDistanceRatioAroundTheCentroid() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        let place = start.coordinate(at: c)
        var t = TraceBuilder()
        t.down(0, c + P(x: -50, y: 0))
        t.down(1, c + P(x: 50, y: 0))
        t.frame()
        for i in 1...20 {
            t.wait(16)
            let d = 50 + 43 * Double(i) / 20   // half-distance 50 → 93: a zoom change of log2(1.86)
            t.move(0, c + P(x: -d, y: 0))
            t.move(1, c + P(x: d, y: 0))
            t.frame()
        }
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(abs(end.zoom - (start.zoom + log2(1.86))) < 0.01, "zoom \(start.zoom) → \(end.zoom)")
        #expect(abs(MapRenderer.crispZoom(end.zoom, scale: 1) - end.zoom) < 1e-9, "the settled zoom draws tiles on whole pixels")
        #expect(end.windowPoint(of: place).distance(to: c) < 1, "the centroid's place stays put")
        #expect(end.scrollY == 0)
    }

    @Test func releasingTwoFingersWithSpeedFlingsTheMap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        let place = start.coordinate(at: c)
        var t = TraceBuilder()
        t.drag([(0, c + P(x: -60, y: 0)), (1, c + P(x: 60, y: 0))], by: P(x: 150, y: 0), steps: 6, rest: 0)
        let end = try Replay.dump(t)
        let now = end.windowPoint(of: place)
        #expect(now.x - c.x > 200, "the map glided on past the 150 px dragged: moved \(now.x - c.x)")
        #expect(abs(now.y - c.y) < 2)
    }

    @Test func aTwoFingerTapZoomsOutOneLevel() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        var t = TraceBuilder()
        t.down(0, c + P(x: -40, y: 0))
        t.down(1, c + P(x: 40, y: 0))
        t.frame()
        t.wait(80)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.zoom == start.zoom - 1)
        #expect(end.log("twoFingerTapZoom").count == 1)
        #expect(end.log("mapTap").isEmpty)
    }

    @Test func aSecondFingerWithinTheGraceWindowStillMovesTheMap() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        var t = TraceBuilder()
        t.down(0, c + P(x: -60, y: 0))
        t.frame()
        t.wait(16)
        t.move(0, c + P(x: -60, y: -20))   // already past the slop, but within the grace window
        t.frame()
        t.wait(32)
        t.down(1, c + P(x: 60, y: -20))
        t.frame()
        for i in 1...10 {
            t.wait(16)
            t.move(0, c + P(x: -60, y: -20 - 8 * Double(i)))
            t.move(1, c + P(x: 60, y: -20 - 8 * Double(i)))
            t.frame()
        }
        t.wait(60)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.scrollY == 0, "the page did not take the gesture")
        #expect(end.center != start.center, "the map moved")
    }

    @Test func onceThePageScrollsALateSecondFingerDoesNotTurnItIntoAMapGesture() throws {
        let start = try Replay.initial()
        let c = start.freeMapPoint(clearance: 80)
        var t = TraceBuilder()
        t.down(0, c)
        t.frame()
        for i in 1...15 {
            t.wait(16)
            t.move(0, c + P(x: 0, y: -6 * Double(i)))
            t.frame()
        }
        t.down(1, c + P(x: 100, y: -90))
        t.frame()
        for i in 1...10 {
            t.wait(16)
            t.move(0, c + P(x: 0, y: -90 - 6 * Double(i)))
            t.move(1, c + P(x: 100 + 10 * Double(i), y: -90 - 6 * Double(i)))
            t.frame()
        }
        t.wait(60)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.center == start.center && end.zoom == start.zoom, "the map never moved")
        #expect(end.scrollY > 100, "the page kept scrolling: \(end.scrollY)")
    }
}
