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
    /// The map's frame in the window, a free spot on it, a pin's centre and a zoom button's.
    let map: Rect
    let pin: Point
    let secondPin: Point
    let zoomButton: Point
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
        func centre(_ r: Rect) -> Point { Point(x: r.minX + r.size.width / 2, y: r.minY + r.size.height / 2) }
        // Pins well inside the map, so a finger on them lands on the pin.
        let m = map
        let inside = snap.pins.filter { (p: PageSnapshot.Target) -> Bool in
            let f = p.frame
            let x = f.minX > m.minX + 60 && f.maxX < m.maxX - 120
            let y = f.minY > m.minY + 60 && f.maxY < m.maxY - 60
            return x && y
        }
        pin = inside.first.map { centre($0.frame) } ?? centre(map)
        secondPin = inside.dropFirst().first.map { centre($0.frame) } ?? pin
        zoomButton = snap.targets.first { $0.id == "zoomIn" }.map { centre($0.frame) } ?? centre(map)
        row = snap.targets.first { $0.id.hasPrefix("place-") }.map { centre($0.frame) } ?? Point(x: 400, y: 1000)
    }
}

/// A long input stream of what people do on the demo page, at 120 Hz, built once.
struct BenchStream {
    private(set) var frames: [InputFrame] = []
    /// Motion-only frames in the middle of running gestures (a two-finger map pan, pinch and
    /// rotation).
    private(set) var steadyRange = 0..<0
    private var time = 0.0

    static func build(cycles: Int, on layout: BenchLayout) -> BenchStream {
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
            // Two fingers pan and pinch the map.
            s.touch([.down(id: 0, at: at(250, 700)), .down(id: 1, at: at(350, 700))])
            for i in 1...40 {
                let k = Double(i)
                s.touch([.moved(id: 0, to: at(250 - k, 700 + k * dir)),
                         .moved(id: 1, to: at(350 + k, 700 + k * dir))])
            }
            s.touch([.up(id: 0, at: at(210, 700 + 40 * dir)), .up(id: 1, at: at(390, 700 + 40 * dir))])
            s.wait(300)
            // Two fingers twist the map 40° (the rotation begins after its threshold).
            s.touch([.down(id: 0, at: at(220, 700)), .down(id: 1, at: at(380, 700))])
            for i in 1...20 {
                let a = Double(i) * 2 * dir * Double.pi / 180
                s.touch([.moved(id: 0, to: at(300 - 80 * cos(a), 700 - 80 * sin(a))),
                         .moved(id: 1, to: at(300 + 80 * cos(a), 700 + 80 * sin(a)))])
            }
            let end = 40 * dir * Double.pi / 180
            s.touch([.up(id: 0, at: at(300 - 80 * cos(end), 700 - 80 * sin(end))), .up(id: 1, at: at(300 + 80 * cos(end), 700 + 80 * sin(end)))])
            s.wait(300)
            // A double tap and a double-tap-drag on the map.
            s.tap(id: 0, at: at(300, 700))
            s.wait(100)
            s.tap(id: 1, at: at(303, 702))
            s.wait(400)
            s.tap(id: 0, at: at(300, 700))
            s.wait(100)
            s.drag(id: 0, from: at(300, 700), by: by(0, 100 * -dir), frames: 30)
            s.wait(400)
            // A single tap (reported after the window), a pin tap, a pin drag, a button tap.
            s.tap(id: 2, at: at(500, 850))
            s.wait(350)
            s.tap(id: 0, at: layout.pin)
            s.wait(350)
            s.drag(id: 3, from: layout.secondPin, by: by(30 * dir, 20 * dir), frames: 30)
            s.wait(200)
            s.tap(id: 1, at: layout.zoomButton)
            s.wait(200)
            // A two-finger tap and a mouse double click.
            s.touch([.down(id: 0, at: at(300, 700)), .down(id: 1, at: at(360, 700))])
            s.wait(60)
            s.touch([.up(id: 0, at: at(300, 700)), .up(id: 1, at: at(360, 700))])
            s.wait(400)
            s.click(at: at(300, 700))
            s.wait(100)
            s.click(at: at(301, 700))
            s.wait(400)
        }
        return s
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
