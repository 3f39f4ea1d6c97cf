import Foundation
import Geo
import Testing

/// Two-finger rotation through the real app (headless replays, geometry from the state dump):
/// everything that maps screen to world keeps working at 0, 37, 90 and 180 degrees; only a
/// deliberate twist turns the map; the compass turns it back; `--no-rotate` keeps north up.
@Suite struct RotationReplayTests {
    static let bearings = [0.0, 37, 90, 180]

    /// A trace that first turns the map to `bearing` with a touchpad pinch's rotation around
    /// the map's centre (libinput's angle is clockwise, and a clockwise turn lowers the bearing).
    static func turned(to bearing: Double, _ start: Dump) -> TraceBuilder {
        var t = TraceBuilder()
        guard bearing != 0 else { return t }
        let c = start.mapFrame.center
        t.pointer("enter \(c.x) \(c.y)")
        t.line("pinch begin 2")
        t.wait(16)
        t.line("pinch update 0 0 1 \(-bearing)")
        t.wait(16)
        t.line("pinch end")
        t.wait(50)
        return t
    }

    static func difference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    /// A point of the map, nearest its centre, such that fingers landing at it plus each of
    /// `offsets` all land on bare map, 40 px from every pin's and button's hit area.
    static func spot(_ d: Dump, for offsets: [P]) -> P {
        let m = d.mapFrame
        let obstacles = d.pins.map(\.hitFrame) + d.targets.filter { !$0.id.hasPrefix("place-") }.map(\.hitFrame)
        func clear(_ p: P) -> Bool {
            p.x > m.x + 20 && p.x < m.x + m.width - 20 && p.y > m.y + 20 && p.y < m.y + m.height - 20
                && obstacles.allSatisfy { h in
                    let dx = max(h.x - p.x, 0, p.x - (h.x + h.width)), dy = max(h.y - p.y, 0, p.y - (h.y + h.height))
                    return (dx * dx + dy * dy).squareRoot() >= 40
                }
        }
        var best: P?
        var y = m.y
        while y < m.y + m.height {
            var x = m.x
            while x < m.x + m.width {
                let c = P(x: x, y: y)
                if offsets.allSatisfy({ clear(c + $0) }), best.map({ c.distance(to: m.center) < $0.distance(to: m.center) }) ?? true { best = c }
                x += 8
            }
            y += 8
        }
        return best ?? m.center
    }

    /// The initial page turned to `bearing`, as a dump.
    static func start(at bearing: Double) throws -> Dump {
        let initial = try Replay.initial()
        let dump = try Replay.dump(turned(to: bearing, initial))
        #expect(difference(dump.bearing, bearing) < 1e-9, "the touchpad turned the map to \(dump.bearing), not \(bearing)")
        return dump
    }

    @Test(arguments: bearings)
    func aTwoFingerPanKeepsThePlaceUnderTheFingers(bearing: Double) throws {
        let start = try Self.start(at: bearing)
        let c0 = Self.spot(start, for: [P(x: -60, y: -5), P(x: 60, y: 5)])
        let a = c0 + P(x: -60, y: -5), b = c0 + P(x: 60, y: 5)
        let mid = P(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        let place = start.coordinate(at: mid)
        var t = Self.turned(to: bearing, start)
        let delta = P(x: 70, y: -50)
        t.drag([(0, a), (1, b)], by: delta, steps: 15, rest: 80)
        let end = try Replay.dump(t)
        #expect(end.windowPoint(of: place).distance(to: mid + delta) < 1.5, "bearing \(bearing)")
        #expect(Self.difference(end.bearing, bearing) < 1e-9, "a pan does not rotate")
    }

    @Test(arguments: bearings)
    func aPinchZoomsAroundTheFingersAndNeverRotates(bearing: Double) throws {
        let start = try Self.start(at: bearing)
        let mid = Self.spot(start, for: [P(x: -40, y: 0), P(x: 40, y: 0)])
        let place = start.coordinate(at: mid)
        var t = Self.turned(to: bearing, start)
        // 80 px apart to 240 px apart: three times the spread, log2(3) ≈ 1.58 levels.
        let a = mid + P(x: -40, y: 0), b = mid + P(x: 40, y: 0)
        t.down(0, a)
        t.down(1, b)
        t.frame()
        for i in 1...20 {
            t.wait(16)
            let k = Double(i) / 20
            t.move(0, a + P(x: -80 * k, y: 0))
            t.move(1, b + P(x: 80 * k, y: 0))
            t.frame()
        }
        t.wait(60)
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(abs(end.zoom - start.zoom - log2(3.0)) < 0.02, "zoom \(end.zoom - start.zoom) at bearing \(bearing)")
        #expect(end.windowPoint(of: place).distance(to: mid) < 1.5, "the place between the fingers stays there")
        #expect(Self.difference(end.bearing, bearing) < 1e-9)
    }

    @Test(arguments: bearings)
    func aDoubleTapZoomsInAroundTheTap(bearing: Double) throws {
        let start = try Self.start(at: bearing)
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: 110, y: 70))
        let place = start.coordinate(at: p)
        var t = Self.turned(to: bearing, start)
        t.tap(p)
        t.wait(100)
        t.tap(p)
        let end = try Replay.dump(t)
        #expect(end.zoom == (start.zoom + 1).rounded(.down))
        #expect(end.windowPoint(of: place).distance(to: p) < 1, "bearing \(bearing)")
        #expect(Self.difference(end.bearing, bearing) < 1e-9)
    }

    @Test(arguments: bearings)
    func aTapReportsTheCoordinateUnderTheFinger(bearing: Double) throws {
        let start = try Self.start(at: bearing)
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: -130, y: 90))
        var t = Self.turned(to: bearing, start)
        t.tap(p)
        t.wait(400)
        let end = try Replay.dump(t)
        let tap = try #require(end.log("mapTap").first)
        let expected = start.coordinate(at: p)
        #expect(abs((tap["lat"] as? Double ?? .nan) - expected.latitude) < 1e-9)
        #expect(abs((tap["lon"] as? Double ?? .nan) - expected.longitude) < 1e-9)
        // Independent of the dump's own camera: the tapped place is where the map shows it.
        #expect(end.windowPoint(of: expected).distance(to: p) < 1e-6)
    }

    @Test(arguments: bearings)
    func aDraggedPinLandsUnderTheFingerAndItsHitAreaFollowsIt(bearing: Double) throws {
        let start = try Self.start(at: bearing)
        let pin = try #require(start.visiblePins.first, "a pin inside the map at bearing \(bearing)")
        let grab = pin.frame.center
        // The pin's frame sits where its coordinate is drawn at this bearing.
        #expect(start.windowPoint(of: try #require(pin.coordinate)).distance(to: grab) < 1e-6)
        #expect(pin.hitFrame.width >= 48 && pin.hitFrame.height >= 48 && pin.hitFrame.contains(grab))
        var t = Self.turned(to: bearing, start)
        let delta = P(x: 60, y: 40)
        t.drag([(0, grab)], by: delta, steps: 12, rest: 60)
        let end = try Replay.dump(t)
        let ended = try #require(end.log("pinDragEnded").first { $0["id"] as? String == pin.id })
        let dropped = Coordinate(latitude: ended["lat"] as? Double ?? .nan, longitude: ended["lon"] as? Double ?? .nan)
        #expect(end.windowPoint(of: dropped).distance(to: grab + delta) < 1, "bearing \(bearing)")
        let moved = try #require(end.pin(pin.id))
        #expect(moved.frame.center.distance(to: grab + delta) < 1)
        #expect(Self.difference(end.bearing, bearing) < 1e-9, "dragging a pin does not turn the map")
    }

    /// Two fingers 200 px apart turn 45° clockwise about their middle, 3° a frame.
    static func twist(_ t: inout TraceBuilder, around c: P, degrees: Double, step: Double = 3, radius: Double = 100) {
        func at(_ side: Double, _ angle: Double) -> P {
            let a = angle * Double.pi / 180
            return P(x: c.x + side * radius * cos(a), y: c.y + side * radius * sin(a))
        }
        t.down(0, at(-1, 0))
        t.down(1, at(1, 0))
        t.frame()
        var angle = 0.0
        while abs(angle) < abs(degrees) - 1e-9 {
            angle += degrees > 0 ? step : -step
            t.wait(16)
            t.move(0, at(-1, angle))
            t.move(1, at(1, angle))
            t.frame()
        }
        t.wait(60)
        t.up(0)
        t.up(1)
        t.frame()
    }

    @Test func aDeliberateTwistRotatesAboutTheFingersAndShowsTheCompass() throws {
        let start = try Replay.initial()
        #expect(start.target("compass") == nil, "no compass while north is up")
        let c = Self.spot(start, for: [P(x: -100, y: 0), P(x: 100, y: 0)])
        let place = start.coordinate(at: c)
        var t = TraceBuilder()
        Self.twist(&t, around: c, degrees: 45)
        let end = try Replay.dump(t)
        // 12° and 25 px of arc (15° at 100 px) before it begins; then every degree counts:
        // a clockwise twist turns the map clockwise, the bearing goes down from 360.
        #expect(Self.difference(end.bearing, 360 - 30) < 1e-6, "bearing \(end.bearing)")
        #expect(end.windowPoint(of: place).distance(to: c) < 1, "the place under the fingers' middle stays there")
        let compass = try #require(end.target("compass"))
        #expect(compass.hitFrame.width >= 48 && compass.hitFrame.height >= 48)
        // Counter-clockwise turns the other way.
        var back = TraceBuilder()
        Self.twist(&back, around: c, degrees: -45)
        #expect(Self.difference(try Replay.dump(back).bearing, 30) < 1e-6)
    }

    @Test func aPinchOrPanWithAngleNoiseNeverRotates() throws {
        let start = try Replay.initial()
        let c = Self.spot(start, for: [P(x: -80, y: 0), P(x: 80, y: 0)])
        var t = TraceBuilder()
        // A pinch from 120 to 300 px whose finger line wobbles ±7°, then a pan whose fingers
        // jitter ±5 px each.
        t.down(0, c + P(x: -60, y: 0))
        t.down(1, c + P(x: 60, y: 0))
        t.frame()
        for i in 1...30 {
            t.wait(16)
            let r = 60 + 3 * Double(i), a = 7 * sin(Double(i) / 2) * Double.pi / 180
            t.move(0, c + P(x: -r * cos(a), y: -r * sin(a)))
            t.move(1, c + P(x: r * cos(a), y: r * sin(a)))
            t.frame()
        }
        t.up(0)
        t.up(1)
        t.frame()
        t.wait(400)
        let a = c + P(x: -80, y: 0), b = c + P(x: 80, y: 0)
        t.down(0, a)
        t.down(1, b)
        t.frame()
        for i in 1...30 {
            t.wait(16)
            let k = Double(i) * 4, j = Double((i * 7) % 11) - 5, l = Double((i * 5) % 11) - 5
            t.move(0, a + P(x: k + j, y: -k / 2 + l))
            t.move(1, b + P(x: k - l, y: -k / 2 + j))
            t.frame()
        }
        t.up(0)
        t.up(1)
        t.frame()
        let end = try Replay.dump(t)
        #expect(end.zoom > start.zoom + 1, "the pinch zoomed")
        #expect(end.bearing == 0, "but nothing turned: bearing \(end.bearing)")
        #expect(end.target("compass") == nil)
    }

    @Test func tappingTheCompassTurnsNorthUpAnimated() throws {
        let start = try Replay.initial()
        var t = Self.turned(to: 37, start)
        let turned = try Replay.dump(t)
        let compass = try #require(turned.target("compass"))
        let centre = turned.center
        t.tap(compass.frame.center)
        t.wait(120)
        let mid = try Replay.dump(t)
        #expect(mid.log("targetTap").contains { $0["id"] as? String == "compass" })
        t.wait(400)
        let end = try Replay.dump(t)
        #expect(end.bearing == 0)
        #expect(end.target("compass") == nil, "the compass goes once north is up")
        #expect(abs(end.center.latitude - centre.latitude) < 1e-9 && abs(end.center.longitude - centre.longitude) < 1e-9,
                "north comes up about the map's centre")
        #expect(end.log("mapTap").isEmpty, "the compass tap is not a map tap")
    }

    @Test func keysAndARightButtonDragRotate() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        for key in ["Shift_L", "Right"] { t.line("key pressed \(key)") }
        t.line("key released Right")
        t.wait(20)
        t.line("key pressed Right")
        t.line("key released Right")
        t.line("key released Shift_L")
        t.wait(500)
        #expect(Self.difference(try Replay.dump(t).bearing, 30) < 1e-9, "two quick Shift+Right add up to 30°")
        var d = TraceBuilder()
        let c = start.mapFrame.center
        d.pointer("enter \(c.x) \(c.y)")
        d.pointer("button right pressed")
        for i in 1...10 {
            d.wait(16)
            d.pointer("motion \(c.x + 10 * Double(i)) \(c.y)")
        }
        d.pointer("button right released")
        let dragged = try Replay.dump(d)
        // 100 px to the right turns the map clockwise by 50°.
        #expect(Self.difference(dragged.bearing, 310) < 1e-9, "bearing \(dragged.bearing)")
        #expect(abs(dragged.center.latitude - start.center.latitude) < 1e-9, "about the map's centre")
        #expect(dragged.log("mapTap").isEmpty)
    }

    @Test func noRotateKeepsNorthUp() throws {
        let start = try Replay.initial(["--no-rotate"])
        let c = Self.spot(start, for: [P(x: -100, y: 0), P(x: 100, y: 0)])
        var t = Self.turned(to: 37, start)
        Self.twist(&t, around: c, degrees: 60)
        t.wait(400)
        t.line("key pressed Shift_L")
        t.line("key pressed Right")
        t.line("key released Right")
        t.line("key released Shift_L")
        t.pointer("motion \(c.x) \(c.y)")
        t.pointer("button right pressed")
        t.pointer("motion \(c.x + 80) \(c.y)")
        t.pointer("button right released")
        let end = try Replay.dump(t, ["--no-rotate"])
        #expect(end.bearing == 0)
        #expect(end.target("compass") == nil)
        // The same trace without the option does turn the map.
        #expect(try Replay.dump(t).bearing != 0)
    }
}
