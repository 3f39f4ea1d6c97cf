import Gestures
import Input
#if canImport(Glibc)
import Glibc
#endif

/// The demo page's gesture tree as the UI wires it (the same wiring as
/// Tests/GesturesTests/ComposedPage.swift), with actions that only update a few numbers, so the
/// benchmark measures the gesture layer and not the UI.
final class BenchPage {
    let window = GestureView(name: "window", frame: Rect(x: 0, y: 0, width: 800, height: 1280))
    let page = GestureView(name: "page", frame: Rect(x: 0, y: 0, width: 800, height: 1280))
    let map = GestureView(name: "map", frame: Rect(x: 16, y: 420, width: 768, height: 560))
    private(set) var recognizers: [GestureRecognizer] = []
    var recognizerCount: Int { recognizers.count }
    private var zoom = 11.0
    private var zoomAtStart = 11.0
    private var mapOffset = Point.zero
    private var scrollAtStart = 0.0
    private var taps = 0

    init() {
        window.addChild(page)
        let menu = GestureView(name: "menu", frame: Rect(x: 16, y: 16, width: 24, height: 24))
        page.addChild(menu)
        page.addChild(map)
        map.clipsToBounds = true
        let pins = (0..<2).map { GestureView(name: "pin-\($0 + 1)", frame: Rect(x: 200 + Double($0) * 200, y: 200, width: 16, height: 16)) }
        for pin in pins { map.addChild(pin) }
        let zoomIn = GestureView(name: "zoomIn", frame: Rect(x: 728, y: 16, width: 24, height: 24))
        map.addChild(zoomIn)
        for i in 0..<20 {
            page.addChild(GestureView(name: "row-\(i)", frame: Rect(x: 0, y: 1000 + Double(i) * 100, width: 800, height: 96)))
        }
        for v in [menu, zoomIn] + pins { v.hitInsets = EdgeInsets.enlarging(v.frame.size, toAtLeast: 48) }

        let scroll = PanGestureRecognizer(name: "pageScroll", maximumTouches: 1)
        page.canScroll = { [unowned page] d in
            d == .up ? page.boundsOrigin.y < 1920 : d == .down ? page.boundsOrigin.y > 0 : false
        }
        scroll.action = { [unowned self] pan in
            if pan.state == .began { scrollAtStart = page.boundsOrigin.y }
            guard pan.state.isActive else { return }
            page.boundsOrigin.y = min(max(scrollAtStart - pan.translation(in: page).y, 0), 1920)
        }
        add(scroll, to: page)

        let mapPan = PanGestureRecognizer(name: "mapPan", minimumTouches: 2, maximumTouches: 2)
        mapPan.action = { [unowned self] pan in
            guard pan.state.isActive else { return }
            mapOffset = mapOffset + pan.translation(in: map)
            pan.setTranslation(.zero, in: map)
        }
        let pinch = PinchGestureRecognizer(name: "mapPinch")
        pinch.action = { [unowned self] p in
            if p.state == .began { zoomAtStart = zoom }
            if p.state.isActive { zoom = zoomAtStart + (p.scale - 1) }
        }
        pinch.recognizeSimultaneously(with: mapPan)
        let doubleTap = TapGestureRecognizer(name: "mapDoubleTap", taps: 2)
        doubleTap.action = { [unowned self] t in if t.state == .ended { zoom += 1 } }
        let quickZoom = LongPressGestureRecognizer(name: "mapQuickZoom", taps: 1, minimumPressDuration: 0)
        quickZoom.require(toFail: doubleTap)
        quickZoom.action = { [unowned self] q in
            if q.state == .began { zoomAtStart = zoom }
            if q.state.isActive { zoom = zoomAtStart + (q.location(in: map).y - q.pressLocation(in: map).y) / 75 }
        }
        let tap = TapGestureRecognizer(name: "mapTap")
        tap.require(toFail: doubleTap)
        tap.require(toFail: quickZoom)
        tap.action = { [unowned self] t in if t.state == .ended { taps += 1 } }
        let twoFingerTap = TapGestureRecognizer(name: "mapTwoFingerTap", touches: 2)
        twoFingerTap.action = { [unowned self] t in if t.state == .ended { zoom -= 1 } }
        let observer = TapGestureRecognizer(name: "tapObserver")
        observer.isObserver = true
        observer.require(toFail: doubleTap)
        observer.require(toFail: quickZoom)
        observer.action = { [unowned self] t in if t.state == .ended { taps += 1 } }
        for r: GestureRecognizer in [mapPan, pinch, doubleTap, quickZoom, tap, twoFingerTap, observer] { add(r, to: map) }

        for pin in pins {
            let drag = PanGestureRecognizer(name: "\(pin.name) drag", maximumTouches: 1)
            drag.action = { [unowned pin, unowned self] pan in
                guard pan.state.isActive else { return }
                pin.frame.origin = pin.frame.origin + pan.translation(in: map)
                pan.setTranslation(.zero, in: map)
            }
            let pinTap = TapGestureRecognizer(name: "\(pin.name) tap")
            pinTap.action = { [unowned self] t in if t.state == .ended { taps += 1 } }
            add(drag, to: pin)
            add(pinTap, to: pin)
        }
        for target in [menu, zoomIn] {
            let t = TapGestureRecognizer(name: "\(target.name) tap")
            t.action = { [unowned self] t in if t.state == .ended { taps += 1 } }
            add(t, to: target)
        }
    }

    private func add(_ r: GestureRecognizer, to view: GestureView) {
        view.addGestureRecognizer(r)
        recognizers.append(r)
    }
}

/// A long input stream of what people do on the demo page, at 120 Hz, built once.
struct BenchStream {
    private(set) var frames: [InputFrame] = []
    /// Motion-only frames in the middle of running gestures (a two-finger map pan and pinch).
    private(set) var steadyRange = 0..<0
    private var time = 0.0

    static func build(cycles: Int) -> BenchStream {
        var s = BenchStream()
        // The steady segment first: a long two-finger pan-and-pinch on the map.
        s.touch([.down(id: 0, at: Point(x: 200, y: 700)), .down(id: 1, at: Point(x: 400, y: 700))])
        for i in 1...30 { s.touch([.moved(id: 0, to: Point(x: 200, y: 700 + Double(i))), .moved(id: 1, to: Point(x: 400, y: 700 + Double(i)))]) }
        let steadyStart = s.frames.count
        for i in 0..<20_000 {
            let phase = Double(i) * 0.01
            let spread = 100 + 40 * sin(phase)
            let cx = 300 + 30 * sin(phase * 0.7), cy = 730 + 30 * cos(phase * 0.9)
            s.touch([.moved(id: 0, to: Point(x: cx - spread, y: cy)), .moved(id: 1, to: Point(x: cx + spread, y: cy))])
        }
        s.steadyRange = steadyStart..<s.frames.count
        s.touch([.up(id: 0, at: Point(x: 200, y: 730)), .up(id: 1, at: Point(x: 400, y: 730))])
        s.wait(500)

        for c in 0..<cycles {
            let dir: Double = c % 2 == 0 ? -1 : 1
            // One finger on the map scrolls the page (after the grace window); one finger on the
            // list scrolls it back, so every cycle starts with the page at the top.
            s.drag(id: 0, from: Point(x: 150, y: 800), by: Point(x: 0, y: -120), frames: 30)
            s.wait(300)
            s.drag(id: 0, from: Point(x: 400, y: 1000), by: Point(x: 3, y: 140), frames: 40)
            s.wait(300)
            // Two fingers pan and pinch the map.
            s.touch([.down(id: 0, at: Point(x: 250, y: 700)), .down(id: 1, at: Point(x: 350, y: 700))])
            for i in 1...40 {
                let k = Double(i)
                s.touch([.moved(id: 0, to: Point(x: 250 - k, y: 700 + k * dir)),
                         .moved(id: 1, to: Point(x: 350 + k, y: 700 + k * dir))])
            }
            s.touch([.up(id: 0, at: Point(x: 210, y: 700 + 40 * dir)), .up(id: 1, at: Point(x: 390, y: 700 + 40 * dir))])
            s.wait(300)
            // A double tap and a double-tap-drag on the map.
            s.tap(id: 0, at: Point(x: 300, y: 700))
            s.wait(100)
            s.tap(id: 1, at: Point(x: 303, y: 702))
            s.wait(400)
            s.tap(id: 0, at: Point(x: 300, y: 700))
            s.wait(100)
            s.drag(id: 0, from: Point(x: 300, y: 700), by: Point(x: 0, y: 100 * -dir), frames: 30)
            s.wait(400)
            // A single tap (reported after the window), a pin tap, a pin drag, a button tap.
            s.tap(id: 2, at: Point(x: 500, y: 850))
            s.wait(350)
            s.tap(id: 0, at: Point(x: 224, y: 628))
            s.wait(350)
            s.drag(id: 3, from: Point(x: 424, y: 628), by: Point(x: 30 * dir, y: 20 * dir), frames: 30)
            s.wait(200)
            s.tap(id: 1, at: Point(x: 28, y: 28))
            s.wait(200)
            // A two-finger tap and a mouse double click.
            s.touch([.down(id: 0, at: Point(x: 300, y: 700)), .down(id: 1, at: Point(x: 360, y: 700))])
            s.wait(60)
            s.touch([.up(id: 0, at: Point(x: 300, y: 700)), .up(id: 1, at: Point(x: 360, y: 700))])
            s.wait(400)
            s.click(at: Point(x: 300, y: 700))
            s.wait(100)
            s.click(at: Point(x: 301, y: 700))
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
