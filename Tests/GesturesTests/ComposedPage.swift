import Gestures
import Input
import UI
#if canImport(Glibc)
import Glibc
#endif

/// Meridian's demo page as a gesture tree: a scrolling page holding a menu button, a map with
/// pins and a zoom button, and list rows — with the gesture graph the UI ships
/// (`UI.PageGestureGraph`, the same recognizers and relations) and a tiny stand-in for the
/// UI's state (scroll offset, map zoom and offset, pin positions) and a log of what a user
/// would notice. The full page with its real actions is tested in AppTests.
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

    /// The graph as it ships; the tests reach the recognizers through it (`page.graph.mapTap`).
    private(set) var graph: PageGestureGraph!

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
    private var quickZoomStartY = 0.0
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
        // The page follows a vertical finger while there is content that way.
        graph = PageGestureGraph(page: page, map: map, pins: pins, targets: [menu, zoomIn] + rows) { [unowned self] direction in
            direction == .up ? scrollY < contentHeight - page.frame.size.height : scrollY > 0
        }
        wirePage()
        wireMap()
        wirePins()
        wireTargets()
    }

    private func wirePage() {
        graph.pageScroll.action = { [unowned self] pan in
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
        graph.mapPan.action = { [unowned self] pan in
            guard pan.state.isActive else { return }
            mapOffset = mapOffset + pan.translation(in: map)
            pan.setTranslation(.zero, in: map)
            if pan.state == .began { log.append("mapPan") }
        }
        graph.mapMouseDrag.action = { [unowned self] drag in
            guard drag.state.isActive else { return }
            mapOffset = mapOffset + drag.translation(in: map)
            drag.setTranslation(.zero, in: map)
        }
        graph.mapPinch.action = { [unowned self] pinch in
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
        graph.mapDoubleTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapZoom += 1
            log.append("doubleTapZoom")
        }
        graph.mapQuickZoom.action = { [unowned self] press in
            switch press.state {
            case .began:
                zoomAtStart = mapZoom
                quickZoomStartY = press.location(in: map).y
                log.append("quickZoom")
            case .changed:
                // Down zooms in, at the shipped rate, from where it began (past the slop: no jump).
                mapZoom = zoomAtStart + (press.location(in: map).y - quickZoomStartY)
                    / PageGestureGraph.quickZoomPixelsPerLevel
            default:
                break
            }
        }
        graph.mapTap.action = { [unowned self] tap in
            if tap.state == .recognized { log.append("mapTap") }
        }
        graph.mapTwoFingerTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapZoom -= 1
            log.append("twoFingerTapZoom")
        }
        graph.mapObserver.action = { [unowned self] tap in
            if tap.state == .recognized { log.append("observedTap") }
        }
    }

    private func wirePins() {
        for (pin, (drag, tap)) in zip(pins, zip(graph.pinDrags, graph.pinTaps)) {
            drag.action = { [unowned self, unowned pin] pan in
                guard pan.state.isActive || pan.state == .ended else { return }
                let t = pan.translation(in: map)
                pin.frame.origin = pin.frame.origin + t
                pan.setTranslation(.zero, in: map)
                if pan.state == .ended { log.append("pinDragEnded \(pin.name)") }
            }
            tap.action = { [unowned self, unowned pin] tap in
                if tap.state == .recognized { log.append("pinTap \(pin.name)") }
            }
        }
    }

    private func wireTargets() {
        for (target, tap) in zip([menu, zoomIn] + rows, graph.targetTaps) {
            tap.action = { [unowned self, unowned target] tap in
                guard tap.state == .recognized else { return }
                if target === zoomIn { mapZoom += 1 }
                log.append("targetTap \(target.name)")
            }
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
