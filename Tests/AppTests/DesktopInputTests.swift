import Glibc
import Geo
import Testing

/// The desktop equivalents: wheel, Ctrl+wheel, touchpad pinch, mouse drag, double-click, keys.
@Suite struct DesktopInputTests {
    @Test func theWheelScrollsThePageEvenOverTheMap() throws {
        let start = try Replay.initial()
        let p = start.mapFrame.center
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.line("pointer axis-source wheel")
        t.line("pointer axis vertical 15 discrete 1")
        t.line("pointer frame")
        let end = try Replay.dump(t)
        #expect(end.scrollY > 0)
        #expect(end.center == start.center && end.zoom == start.zoom)
    }

    @Test func ctrlWheelZoomsTheMapAroundThePointer() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint(near: start.mapFrame.center + P(x: 150, y: -100))
        let place = start.coordinate(at: p)
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.line("key pressed Control_L")
        t.line("pointer axis-source wheel")
        t.line("pointer axis vertical -15 discrete -1")
        t.line("pointer frame")
        t.line("key released Control_L")
        let end = try Replay.dump(t)
        #expect(end.zoom > start.zoom, "wheel up with Ctrl zooms in")
        #expect(end.scrollY == 0)
        #expect(end.windowPoint(of: place).distance(to: p) < 1)
    }

    @Test func aTouchpadPinchZoomsAroundThePointer() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        let place = start.coordinate(at: p)
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.line("pinch begin 2")
        t.wait(16)
        t.line("pinch update 0 0 1.5 0")
        t.wait(16)
        t.line("pinch update 0 0 2.0 0")
        t.line("pinch end")
        let end = try Replay.dump(t)
        #expect(abs(end.zoom - (start.zoom + 1)) < 1e-9)
        #expect(end.windowPoint(of: place).distance(to: p) < 1)
    }

    @Test func aLeftButtonDragPansTheMapAndTheWheelNeverDoes() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        let place = start.coordinate(at: p)
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        t.pointer("button left pressed")
        for i in 1...10 {
            t.wait(16)
            t.pointer("motion \(p.x - 10 * Double(i)) \(p.y + 6 * Double(i))")
        }
        t.wait(80)
        t.pointer("button left released")
        let end = try Replay.dump(t)
        #expect(end.windowPoint(of: place).distance(to: p + P(x: -100, y: 60)) < 1)
        #expect(end.scrollY == 0, "a mouse drag on the map is the map's")
        #expect(end.log("mapTap").isEmpty)
    }

    @Test func aDoubleClickZoomsIn() throws {
        let start = try Replay.initial()
        let p = start.freeMapPoint()
        var t = TraceBuilder()
        t.pointer("enter \(p.x) \(p.y)")
        for _ in 0..<2 {
            t.pointer("button left pressed")
            t.wait(50)
            t.pointer("button left released")
            t.wait(80)
        }
        let end = try Replay.dump(t)
        #expect(end.zoom == start.zoom + 1)
        #expect(end.log("doubleTapZoom").count == 1)
    }

    @Test func plusAndMinusZoomTheMap() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.line("key pressed plus")
        t.line("key released plus")
        t.wait(400)
        t.line("key pressed plus")
        t.line("key released plus")
        t.wait(400)
        t.line("key pressed minus")
        t.line("key released minus")
        let end = try Replay.dump(t)
        #expect(end.zoom == start.zoom + 1)
    }

    @Test func tabFocusesTheMapAndArrowsThenPanIt() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.line("key pressed Tab")
        t.line("key released Tab")
        t.line("key pressed Left")
        t.line("key released Left")
        let end = try Replay.dump(t)
        #expect(end.focus == "map")
        let moved = end.windowPoint(of: start.center)
        #expect(moved.x > start.mapFrame.center.x + 50, "the view moved left, so the old centre is now right of centre")
        #expect(end.scrollY == 0)
    }

    @Test func tabReachesTheZoomButtonAndReturnPressesIt() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        for _ in 0..<2 {
            t.line("key pressed Tab")
            t.line("key released Tab")
        }
        t.line("key pressed Return")
        t.line("key released Return")
        let end = try Replay.dump(t)
        #expect(end.focus == "zoomIn")
        #expect(end.log("targetTap").first?["id"] as? String == "zoomIn")
        #expect(end.zoom == start.zoom + 1)
    }

    /// The compass is a target like the zoom buttons: in the Tab order right after them while
    /// it shows, and Return turns north up; once hidden, Tab skips it.
    @Test func tabReachesTheCompassWhileItShowsAndReturnTurnsNorthUp() throws {
        func tabs(_ t: inout TraceBuilder, _ n: Int) {
            for _ in 0..<n {
                t.line("key pressed Tab")
                t.line("key released Tab")
            }
        }
        var north = TraceBuilder()
        tabs(&north, 4)
        let unrotated = try Replay.dump(north)
        #expect(unrotated.target("compass") == nil)
        #expect(unrotated.focus?.hasPrefix("pin-") == true, "no compass while north is up: \(unrotated.focus ?? "nil")")

        var t = TraceBuilder()
        t.line("key pressed Shift_L")
        t.line("key pressed Right")
        t.line("key released Right")
        t.line("key released Shift_L")
        t.wait(500)
        tabs(&t, 4)
        let rotated = try Replay.dump(t)
        #expect(rotated.bearing != 0)
        #expect(rotated.target("compass") != nil)
        #expect(rotated.focus == "compass")
        t.line("key pressed Return")
        t.line("key released Return")
        t.wait(500)
        let turned = try Replay.dump(t)
        #expect(turned.log("targetTap").last?["id"] as? String == "compass")
        #expect(turned.bearing == 0, "north up again")
        tabs(&t, 1)
        let after = try Replay.dump(t)
        #expect(after.focus == unrotated.focus, "the hidden compass is skipped: \(after.focus ?? "nil")")
    }

    @Test func pageDownAndSpaceScrollThePage() throws {
        let start = try Replay.initial()
        var t = TraceBuilder()
        t.line("key pressed Page_Down")
        t.line("key released Page_Down")
        let end = try Replay.dump(t)
        #expect(abs(end.scrollY - min(0.9 * start.windowHeight, start.contentHeight - start.windowHeight)) < 1)
        var s = TraceBuilder()
        s.line("key pressed space")
        s.line("key released space")
        #expect(try Replay.dump(s).scrollY == end.scrollY)
    }

    @Test func showHitAreasTintsTheEnlargedAreaAroundAButton() throws {
        let start = try Replay.initial()
        let zoomIn = try #require(start.target("zoomIn"))
        let probe = P(x: zoomIn.hitFrame.x + 4, y: zoomIn.hitFrame.y + zoomIn.hitFrame.height / 2)
        let plain = try #require(Replay.run(TraceBuilder(), screenshot: true).png)
        let shown = try #require(Replay.run(TraceBuilder(), arguments: ["--show-hit-areas"], screenshot: true).png)
        defer {
            unlink(plain)
            unlink(shown)
        }
        let a = try #require(PNGImage(path: plain)), b = try #require(PNGImage(path: shown))
        let before = a.rgb(Int(probe.x), Int(probe.y)), after = b.rgb(Int(probe.x), Int(probe.y))
        #expect(after.r - after.g > before.r - before.g + 10, "magenta tint: \(before) → \(after)")
    }
}
