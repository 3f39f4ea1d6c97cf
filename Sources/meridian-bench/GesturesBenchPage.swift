import Gestures
import Input
import MeridianApp
import UI
#if canImport(Glibc)
import Glibc
#endif

/// The page the benchmark drives: Meridian's own page (`UI.MeridianPage`) at 800×1280, with
/// the gesture graph and the actions it ships (camera, pins, log), and where its parts are,
/// so the stream lands on them.
struct BenchLayout {
    /// The map's frame in the window, pins' centres and the zoom buttons'.
    let map: Rect
    let pin: Point
    let secondPin: Point
    let zoomInButton: Point
    let zoomOutButton: Point
    let row: Point

    /// The shipped page; `MERIDIAN_GESTURES_ROTATE=0` builds it as `--no-rotate` does, to
    /// see what the rotation costs.
    static func page() -> MeridianPage {
        MeridianPage(.init(width: 800, height: 1280, allowsRotation: getenv("MERIDIAN_GESTURES_ROTATE").map { String(cString: $0) } != "0"),
                     places: samplePlaces)
    }

    /// The shipped sample's places, read once: their pins and rows are on the page as in
    /// `meridian --headless`, so the stream's pin drags and row taps land on real targets.
    private static let samplePlaces = ShippedSample.places()

    init(_ page: MeridianPage) {
        let snap = page.snapshot
        map = snap.mapFrame
        let inside = BenchLayout.pinsInside(snap)
        pin = inside.first ?? BenchLayout.centre(map)
        secondPin = inside.dropFirst().first ?? pin
        zoomInButton = snap.targets.first { $0.id == "zoomIn" }.map { BenchLayout.centre($0.frame) } ?? BenchLayout.centre(map)
        zoomOutButton = snap.targets.first { $0.id == "zoomOut" }.map { BenchLayout.centre($0.frame) } ?? BenchLayout.centre(map)
        row = snap.targets.first { $0.id.hasPrefix("place-") }.map { BenchLayout.centre($0.frame) } ?? Point(x: 400, y: 1000)
    }

    static func centre(_ r: Rect) -> Point { Point(x: r.minX + r.size.width / 2, y: r.minY + r.size.height / 2) }

    /// The centres of the pins well inside the map, so a finger on them lands on the pin.
    static func pinsInside(_ snap: PageSnapshot) -> [Point] {
        let m = snap.mapFrame
        return snap.pins.filter { (p: PageSnapshot.Target) -> Bool in
            let f = p.frame
            let x = f.minX > m.minX + 60 && f.maxX < m.maxX - 120
            let y = f.minY > m.minY + 60 && f.maxY < m.maxY - 60
            return x && y
        }.map { centre($0.frame) }
    }
}

/// A long input stream of what people do on the demo page, at 120 Hz, built once.
struct BenchStream {
    private(set) var frames: [InputFrame] = []
    /// Motion-only frames in the middle of running gestures (a two-finger map pan, pinch and
    /// rotation).
    private(set) var steadyRange = 0..<0
    private var time = 0.0
    /// How many frames the scratch page has been handed.
    private var fed = 0

    /// The stream, aimed as a person aims: before each pin tap and drag, a scratch copy of the
    /// page is brought up to that moment and the fingers go where a pin is then (the map moved
    /// and zoomed since the stream began). Each cycle's zooms cancel out (+1 double tap, ±quick
    /// zoom, ±pinch, −1 twice by two-finger taps, +1 double click, the buttons' +1 and −1), so
    /// the pins stay on screen cycle after cycle.
    static func build(cycles: Int, on layout: BenchLayout) -> BenchStream {
        let scratch = BenchLayout.page()
        var s = BenchStream()
        // The old bench tree's map stood at y 420; Meridian's map is where the layout says.
        let dy = layout.map.minY - 420
        func at(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y + dy) }
        func by(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
        // The steady segment first: a long two-finger pan-pinch-and-twist on the map (the twist
        // swings ±40°, so the rotation begins early and runs with the pan and pinch).
        s.touch([.down(id: 0, at: at(200, 700)), .down(id: 1, at: at(400, 700))])
        for i in 1...30 { s.touch([.moved(id: 0, to: at(200, 700 + Double(i))), .moved(id: 1, to: at(400, 700 + Double(i)))]) }
        let steadyStart = s.frames.count
        for i in 0..<20_000 {
            let phase = Double(i) * 0.01
            let spread = 100 + 40 * sin(phase)
            let cx = 300 + 30 * sin(phase * 0.7), cy = 730 + 30 * cos(phase * 0.9)
            let turn = 40 * sin(phase * 0.5) * Double.pi / 180
            let ox = spread * cos(turn), oy = spread * sin(turn)
            s.touch([.moved(id: 0, to: at(cx - ox, cy - oy)), .moved(id: 1, to: at(cx + ox, cy + oy))])
        }
        s.steadyRange = steadyStart..<s.frames.count
        s.touch([.up(id: 0, at: at(200, 730)), .up(id: 1, at: at(400, 730))])
        s.wait(500)

        for c in 0..<cycles {
            let dir: Double = c % 2 == 0 ? -1 : 1
            // One finger on the map scrolls the page (after the grace window); one finger on the
            // list scrolls it back, so every cycle starts with the page at the top.
            s.drag(id: 0, from: at(150, 800), by: by(0, -120), frames: 30)
            s.wait(300)
            s.drag(id: 0, from: layout.row, by: by(3, 140), frames: 40)
            s.wait(300)
            // Every zoom by a finger or the mouse is about one free spot of the map (no pin there),
            // the buttons' zoom in and out about the map's centre cancel, and each odd cycle's
            // pinch and twist retrace the even cycle's fingers backwards, so two cycles leave the
            // camera where they found it (the place under the fingers follows the fingers).
            let c0 = at(300, 700)
            func around(_ x: Double, _ y: Double) -> Point { Point(x: c0.x + x, y: c0.y + y) }
            // Two fingers pan and pinch the map: spreading 100 → 180 px while moving up 40 px,
            // then the same path backwards.
            func pinchAt(_ k: Double) -> (Point, Point) {
                let half = 50 + 40 * k
                return (around(-half, -40 * k), around(half, -40 * k))
            }
            let path = (0...40).map { pinchAt(dir < 0 ? Double($0) / 40 : 1 - Double($0) / 40) }
            s.touch([.down(id: 0, at: path[0].0), .down(id: 1, at: path[0].1)])
            for p in path.dropFirst() { s.touch([.moved(id: 0, to: p.0), .moved(id: 1, to: p.1)]) }
            s.touch([.up(id: 0, at: path[40].0), .up(id: 1, at: path[40].1)])
            s.wait(300)
            // Two fingers twist the map 40° and back the next cycle (the rotation begins after its
            // threshold either way).
            let turnFrom = dir < 0 ? 0.0 : 40.0, turnBy = dir < 0 ? 40.0 : -40.0
            func twist(_ k: Double) -> (Point, Point) {
                let a = (turnFrom + turnBy * k) * Double.pi / 180
                return (around(-80 * cos(a), -80 * sin(a)), around(80 * cos(a), 80 * sin(a)))
            }
            let start = twist(0)
            s.touch([.down(id: 0, at: start.0), .down(id: 1, at: start.1)])
            for i in 1...20 { let p = twist(Double(i) / 20); s.touch([.moved(id: 0, to: p.0), .moved(id: 1, to: p.1)]) }
            let last = twist(1)
            s.touch([.up(id: 0, at: last.0), .up(id: 1, at: last.1)])
            s.wait(300)
            // A double tap (+1) and a double-tap-drag on the map (in one cycle, out the next).
            s.tap(id: 0, at: c0)
            s.wait(100)
            s.tap(id: 1, at: around(3, 2))
            s.wait(400)
            s.tap(id: 0, at: c0)
            s.wait(100)
            s.drag(id: 0, from: c0, by: by(0, 100 * -dir), frames: 30)
            s.wait(400)
            // Two two-finger taps (−1 each).
            for _ in 0..<2 {
                s.touch([.down(id: 0, at: around(-30, 0)), .down(id: 1, at: around(30, 0))])
                s.wait(60)
                s.touch([.up(id: 0, at: around(-30, 0)), .up(id: 1, at: around(30, 0))])
                s.wait(400)
            }
            // A single tap (reported after the window), a pin tap and a pin drag, aimed at the
            // pins where they are now; the drag goes back the next cycle.
            s.tap(id: 2, at: at(500, 850))
            s.wait(350)
            let pins = s.pinsNow(on: scratch)
            s.tap(id: 0, at: pins.first ?? layout.pin)
            s.wait(350)
            let now = s.pinsNow(on: scratch)
            s.drag(id: 3, from: now.dropFirst().first ?? now.first ?? layout.secondPin, by: by(30 * dir, 20 * dir), frames: 30)
            s.wait(200)
            // A mouse double click (+1), then the zoom-in and zoom-out buttons.
            s.click(at: c0)
            s.wait(100)
            s.click(at: around(1, 0))
            s.wait(400)
            s.tap(id: 1, at: layout.zoomInButton)
            s.wait(200)
            s.tap(id: 1, at: layout.zoomOutButton)
            s.wait(200)
        }
        return s
    }

    /// Where the pins inside the map are now: the scratch page is handed the frames so far.
    private mutating func pinsNow(on page: MeridianPage) -> [Point] {
        for f in frames[fed...] { page.handle(f) }
        fed = frames.count
        page.advance(to: time)
        let snap = page.snapshot
        let inside = BenchLayout.pinsInside(snap)
        if getenv("MERIDIAN_GESTURES_DEBUG") != nil {
            Bench.progress("t=\(Int(time)) zoom=\(snap.zoom) center=\(snap.center) bearing=\(snap.bearing) pins=\(snap.pins.count) inside=\(inside.count)")
        }
        return inside
    }

    private mutating func touch(_ changes: [TouchChange]) {
        time += 8.3
        frames.append(.touch(TouchFrame(time: time, changes: changes)))
    }

    private mutating func wait(_ ms: Double) { time += ms }

    private mutating func tap(id: Int32, at p: Point) {
        touch([.down(id: id, at: p)])
        wait(50)
        touch([.up(id: id, at: p)])
    }

    private mutating func drag(id: Int32, from p: Point, by d: Point, frames n: Int) {
        touch([.down(id: id, at: p)])
        for i in 1...n { touch([.moved(id: id, to: p + d * (Double(i) / Double(n)))]) }
        touch([.up(id: id, at: p + d)])
    }

    private mutating func click(at p: Point) {
        time += 8.3
        frames.append(.pointer(PointerFrame(time: time, moved: p)))
        frames.append(.pointer(PointerFrame(time: time, buttons: [(.left, true)])))
        wait(60)
        frames.append(.pointer(PointerFrame(time: time, buttons: [(.left, false)])))
    }
}
