import Gestures
import Input
#if canImport(Glibc)
import Glibc
#endif

/// Meridian's demo page as a gesture tree: a scrolling page holding a menu button, a map with
/// pins and a zoom button, and list rows — wired the way the UI wires it, with a tiny stand-in
/// for the UI's state (scroll offset, map camera, pin positions) and a log of what a user
/// would notice. docs/GESTURES.md walks through this wiring.
///
/// window
/// └─ page            scroll container: one-finger scroll (pan, max 1 finger), canScroll hook
///    ├─ menu         24×24 button, 48×48 target
///    ├─ map          clips; two-finger pan + pinch, double tap, double-tap-drag, single tap,
///    │  │            two-finger tap, a tap observer
///    │  ├─ pin-1…    16×16, 48×48 targets; drag (pan, max 1 finger) and tap
///    │  └─ zoomIn    24×24 button, 48×48 target
///    └─ row-0…       list rows (tap)
final class ComposedPage {
    let window = GestureView(name: "window", frame: Rect(x: 0, y: 0, width: 800, height: 1280))
    let page = GestureView(name: "page", frame: Rect(x: 0, y: 0, width: 800, height: 1280))
    let menu = GestureView(name: "menu", frame: Rect(x: 16, y: 16, width: 24, height: 24))
    let map = GestureView(name: "map", frame: Rect(x: 16, y: 420, width: 768, height: 560))
    let zoomIn = GestureView(name: "zoomIn", frame: Rect(x: 728, y: 16, width: 24, height: 24))
    private(set) var pins: [GestureView] = []
    private(set) var rows: [GestureView] = []

    let pageScroll = PanGestureRecognizer(name: "pageScroll", maximumTouches: 1)
    let mapPan = PanGestureRecognizer(name: "mapPan", minimumTouches: 2, maximumTouches: 2)
    let mapPinch = PinchGestureRecognizer(name: "mapPinch")
    let mapDoubleTap = TapGestureRecognizer(name: "mapDoubleTap", taps: 2)
    let mapQuickZoom = LongPressGestureRecognizer(name: "mapQuickZoom", taps: 1, minimumPressDuration: 0)
    let mapTap = TapGestureRecognizer(name: "mapTap")
    let mapTwoFingerTap = TapGestureRecognizer(name: "mapTwoFingerTap", touches: 2)
    let tapObserver = TapGestureRecognizer(name: "tapObserver")
    private(set) var pinDrags: [PanGestureRecognizer] = []
    private(set) var pinTaps: [TapGestureRecognizer] = []
    private(set) var targetTaps: [TapGestureRecognizer] = []

    // The UI's state, as far as gestures change it.
    let contentHeight = 3200.0
    var scrollY: Double { page.boundsOrigin.y }
    private(set) var mapZoom = 11.0
    /// The map's pan offset in px (the UI turns it into a new centre).
    private(set) var mapOffset = Point.zero
    /// What a user would notice, in order ("mapTap", "pinTap pin-1", "doubleTapZoom", …).
    private(set) var log: [String] = []
    /// The glide after the last page fling, if any.
    private(set) var pageMomentum: Momentum?

    private var zoomAtStart = 11.0
    private var scrollAtStart = 0.0

    init(pinCount: Int = 2) {
        window.addChild(page)
        page.addChild(menu)
        page.addChild(map)
        map.clipsToBounds = true
        for i in 0..<pinCount {
            let pin = GestureView(name: "pin-\(i + 1)", frame: Rect(x: 200 + Double(i) * 200, y: 200, width: 16, height: 16))
            map.addChild(pin)
            pins.append(pin)
        }
        map.addChild(zoomIn)
        for i in 0..<20 {
            let row = GestureView(name: "row-\(i)", frame: Rect(x: 0, y: 1000 + Double(i) * 100, width: 800, height: 96))
            page.addChild(row)
            rows.append(row)
        }
        for target in [menu, zoomIn] + pins {
            target.hitInsets = EdgeInsets.enlarging(target.frame.size, toAtLeast: 48)
        }
        wirePage()
        wireMap()
        wirePins()
        wireTargets()
    }

    private func wirePage() {
        page.addGestureRecognizer(pageScroll)
        // The page follows a vertical finger while there is content that way.
        page.canScroll = { [unowned self] direction in
            switch direction {
            case .up: return scrollY < contentHeight - page.frame.size.height
            case .down: return scrollY > 0
            case .left, .right: return false
            }
        }
        pageScroll.action = { [unowned self] pan in
            switch pan.state {
            case .began:
                scrollAtStart = scrollY
                pageMomentum = nil
                if let v = pan.startView, map.isAncestor(of: v) { log.append("cooperativeHint") }
                scroll(by: pan)
            case .changed:
                scroll(by: pan)
            case .ended:
                let v = pan.velocity(in: page)
                pageMomentum = Momentum(velocity: Point(x: 0, y: -v.y), at: pan.currentTime)
            default:
                break
            }
        }
    }

    private func scroll(by pan: PanGestureRecognizer) {
        let y = scrollAtStart - pan.translation(in: page).y
        page.boundsOrigin.y = min(max(y, 0), contentHeight - page.frame.size.height)
    }

    private func wireMap() {
        for r: GestureRecognizer in [mapPan, mapPinch, mapDoubleTap, mapQuickZoom, mapTap, mapTwoFingerTap, tapObserver] {
            map.addGestureRecognizer(r)
        }
        // Two fingers pan and pinch at once.
        mapPinch.recognizeSimultaneously(with: mapPan)
        // The single tap waits for the double tap and the double-tap-drag (MapLibre Native's graph).
        mapQuickZoom.require(toFail: mapDoubleTap)
        mapTap.require(toFail: mapDoubleTap)
        mapTap.require(toFail: mapQuickZoom)
        // The observer sees single taps without taking them from anyone.
        tapObserver.isObserver = true
        tapObserver.require(toFail: mapDoubleTap)
        tapObserver.require(toFail: mapQuickZoom)

        mapPan.action = { [unowned self] pan in
            guard pan.state.isActive else { return }
            mapOffset = mapOffset + pan.translation(in: map)
            pan.setTranslation(.zero, in: map)
            if pan.state == .began { log.append("mapPan") }
        }
        mapPinch.action = { [unowned self] pinch in
            switch pinch.state {
            case .began:
                zoomAtStart = mapZoom
                log.append("mapPinch")
                fallthrough
            case .changed:
                mapZoom = zoomAtStart + log2(pinch.scale)
            default:
                break
            }
        }
        mapDoubleTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapZoom += 1
            log.append("doubleTapZoom")
        }
        mapQuickZoom.action = { [unowned self] press in
            switch press.state {
            case .began:
                zoomAtStart = mapZoom
                log.append("quickZoom")
            case .changed:
                // Down zooms in, 75 px per zoom level (MapLibre Native's quick zoom).
                mapZoom = zoomAtStart + (press.location(in: map).y - press.pressLocation(in: map).y) / 75
            default:
                break
            }
        }
        mapTap.action = { [unowned self] tap in
            if tap.state == .recognized { log.append("mapTap") }
        }
        mapTwoFingerTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapZoom -= 1
            log.append("twoFingerTapZoom")
        }
        tapObserver.action = { [unowned self] tap in
            if tap.state == .recognized { log.append("observedTap") }
        }
    }

    private func wirePins() {
        for pin in pins {
            let drag = PanGestureRecognizer(name: "\(pin.name) drag", maximumTouches: 1)
            drag.action = { [unowned self, unowned pin] pan in
                guard pan.state.isActive || pan.state == .ended else { return }
                let t = pan.translation(in: map)
                pin.frame.origin = pin.frame.origin + t
                pan.setTranslation(.zero, in: map)
                if pan.state == .ended { log.append("pinDragEnded \(pin.name)") }
            }
            let tap = TapGestureRecognizer(name: "\(pin.name) tap")
            tap.action = { [unowned self, unowned pin] tap in
                if tap.state == .recognized { log.append("pinTap \(pin.name)") }
            }
            pin.addGestureRecognizer(drag)
            pin.addGestureRecognizer(tap)
            pinDrags.append(drag)
            pinTaps.append(tap)
        }
    }

    private func wireTargets() {
        for target in [menu, zoomIn] + rows {
            let tap = TapGestureRecognizer(name: "\(target.name) tap")
            tap.action = { [unowned self, unowned target] tap in
                guard tap.state == .recognized else { return }
                if target === zoomIn { mapZoom += 1 }
                log.append("targetTap \(target.name)")
            }
            target.addGestureRecognizer(tap)
            targetTaps.append(tap)
        }
    }

    /// Every recognizer in the tree.
    var allRecognizers: [GestureRecognizer] {
        var out: [GestureRecognizer] = []
        func walk(_ v: GestureView) {
            out += v.gestureRecognizers
            for c in v.children { walk(c) }
        }
        walk(window)
        return out
    }

    /// A point in the map's coordinates, in the window.
    func inWindow(map p: Point) -> Point { map.convert(toWindow: p) }
}
