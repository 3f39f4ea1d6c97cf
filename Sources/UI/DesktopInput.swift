import Glibc
import Geo
import Gestures
import Input

/// Mouse wheel, touchpad and keyboard: the desktop equivalents of the touch gestures.
extension MeridianPage {
    /// Wheel detents and continuous scrolling move the page this much per unit of `axis` value.
    static let wheelScrollFactor = 3.0
    /// Ctrl+wheel zooms this many levels per detent.
    static let wheelZoomPerDetent = 0.5

    /// Tab moves through these: the map (so arrows pan it), its buttons, the pins, the list rows.
    /// Tab order: the map, its buttons (the compass while it shows, as for touch), pins, rows.
    public var focusOrder: [String] {
        ["map", zoomIn.name, zoomOut.name] + (compass.isHidden ? [] : [compass.name]) + pinViews.map(\.name) + rowViews.map(\.name)
    }

    /// The focused target; nil also while the focused one is not in the order (a hidden compass).
    public var focusedTarget: String? { focusID.flatMap { focusOrder.contains($0) ? $0 : nil } }

    /// The pointer's position in map coordinates, when it is over the visible map.
    private var pointerOnMap: Point? {
        guard let p = pointerPosition else { return nil }
        let frame = mapFrameInWindow
        guard frame.contains(p) else { return nil }
        return Point(x: p.x - frame.minX, y: p.y - frame.minY)
    }

    func handleScroll(_ f: PointerFrame) {
        for axis in f.axes where axis.orientation == .vertical {
            if modifiers.contains(.control), let p = pointerOnMap {
                // Ctrl+wheel zooms the map around the pointer; wheel up (negative) zooms in.
                // value120 fractions add up; without detents, 15 units of `value` make one.
                let steps = axis.detents ?? axis.value / 15
                var c = camera
                stopMapMotion()
                c.zoom(by: -steps * MeridianPage.wheelZoomPerDetent, around: ScreenPoint(x: p.x, y: p.y))
                setCamera(c)
                settleZoom(around: p)
            } else {
                scrollMotion = nil
                setScroll(min(max(scrollY + axis.value * MeridianPage.wheelScrollFactor, 0), maxScrollY))
            }
        }
    }

    /// A right-button drag on the map turns it about the view's centre: dragging right turns
    /// the map clockwise (`mouseRotationPerPixel` degrees per px). The left button is the
    /// gesture system's; the right one is ours.
    func handleRightDrag(_ f: PointerFrame) {
        guard allowsRotation else { return }
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        for (button, pressed) in f.buttons where button == .right {
            if pressed, mouseRotation == nil, let p = pointerOnMap {
                stopMapMotion()
                mouseRotation = (camera.bearing, p.x)
            } else if !pressed, mouseRotation != nil {
                mouseRotation = nil
                invalidateMap()
            }
        }
        if f.left { mouseRotation = nil }
        if let r = mouseRotation, f.moved != nil, let p = pointerPosition {
            let x = p.x - mapFrameInWindow.minX
            var c = camera
            c.setBearing(r.bearing - (x - r.x) * MeridianPage.mouseRotationPerPixel, around: centre)
            setCamera(c)
        }
    }

    func handleTouchpad(_ g: TouchpadGesture) {
        switch g {
        case .pinchBegin:
            guard let p = pointerOnMap else { return }
            stopMapMotion()
            touchpadPinch = (camera.worldPoint(at: ScreenPoint(x: p.x, y: p.y)), camera.zoom, p, camera.bearing, 0)
        case .pinchUpdate(let dx, let dy, let scale, let rotation):
            guard var pinch = touchpadPinch, scale > 0, scale.isFinite else { return }
            pinch.at = Point(x: pinch.at.x + dx, y: pinch.at.y + dy)
            // libinput's angle delta is clockwise degrees; the map turns with the fingers.
            if allowsRotation, rotation.isFinite { pinch.twist += rotation }
            touchpadPinch = pinch
            var c = camera
            c.setZoom(pinch.zoom + log2(scale), around: ScreenPoint(x: pinch.at.x, y: pinch.at.y))
            c.setBearing(pinch.bearing - pinch.twist, around: ScreenPoint(x: pinch.at.x, y: pinch.at.y))
            let s = c.screenPoint(ofWorld: pinch.anchor)
            c.pan(by: ScreenPoint(x: pinch.at.x - s.x, y: pinch.at.y - s.y))
            setCamera(c)
        case .pinchEnd:
            if let pinch = touchpadPinch { settleZoom(around: pinch.at) }
            touchpadPinch = nil
            invalidateMap()
        case .holdBegin:
            // Fingers resting on the touchpad stop a glide, as on a touchscreen.
            scrollMotion = nil
            stopMapMotion()
        case .swipeBegin, .swipeUpdate, .swipeEnd, .holdEnd:
            break
        }
    }

    func handleKey(_ k: KeyEvent) {
        modifiers = k.modifiers
        guard k.state != .released else { return }
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        let arrows: Set<String> = ["Left", "Right", "Up", "Down"]
        if allowsRotation, k.modifiers.contains(.shift), k.keysym == "Left" || k.keysym == "Right" {
            // MapLibre's keys: Shift+Left lowers the bearing, Shift+Right raises it. A turn
            // still running continues from its target, so quick presses add up.
            let base = cameraAnimation?.targetBearing ?? camera.bearing
            animateBearing(to: base + (k.keysym == "Left" ? -1 : 1) * MeridianPage.keyRotationStep)
            return
        }
        if focusedTarget == "map", arrows.contains(k.keysym) {
            panMapWithArrow(k.keysym)
            return
        }
        switch k.keysym {
        case "plus", "equal", "KP_Add":
            animateZoom(to: zoomTarget(levels: 1), around: centre)
        case "minus", "KP_Subtract":
            animateZoom(to: zoomTarget(levels: -1), around: centre)
        case "Up", "Down":
            scrollBy(k.keysym == "Up" ? -48 : 48)
        case "Page_Up", "KP_Page_Up":
            scrollBy(-0.9 * layout.windowHeight)
        case "Page_Down", "KP_Page_Down":
            scrollBy(0.9 * layout.windowHeight)
        case "space":
            scrollBy((k.modifiers.contains(.shift) ? -0.9 : 0.9) * layout.windowHeight)
        case "Home":
            scrollBy(-scrollY)
        case "End":
            scrollBy(maxScrollY - scrollY)
        case "Tab", "ISO_Left_Tab":
            moveFocus(backwards: k.keysym == "ISO_Left_Tab" || k.modifiers.contains(.shift))
        case "Return", "KP_Enter":
            activateFocused()
        case "Escape":
            focusID = nil
            callout = nil
            invalidate()
        default:
            break
        }
    }

    /// Arrows move the view the way they point: the content moves the other way.
    private func panMapWithArrow(_ key: String) {
        let step = 80.0
        let d: ScreenPoint
        switch key {
        case "Left": d = ScreenPoint(x: step, y: 0)
        case "Right": d = ScreenPoint(x: -step, y: 0)
        case "Up": d = ScreenPoint(x: 0, y: step)
        default: d = ScreenPoint(x: 0, y: -step)
        }
        stopMapMotion()
        var c = camera
        c.pan(by: d)
        setCamera(c)
    }

    private func scrollBy(_ dy: Double) {
        scrollMotion = .spring(from: scrollY, to: min(max(scrollY + dy, 0), maxScrollY), startTime: now, duration: 200)
        invalidate()
    }

    private func moveFocus(backwards: Bool) {
        focusVisible = true
        let order = focusOrder, n = order.count
        if let id = focusID, let i = order.firstIndex(of: id) {
            focusID = order[(i + (backwards ? n - 1 : 1)) % n]
        } else if focusID == compass.name, let z = order.firstIndex(of: zoomOut.name) {
            // The focused compass hid (north up): it stood right after zoom-out.
            focusID = backwards ? order[z] : order[(z + 1) % n]
        } else {
            focusID = order[backwards ? n - 1 : 0]
        }
        revealFocused()
        invalidate()
    }

    /// Scrolls the page so the focused target is in view.
    private func revealFocused() {
        guard let id = focusedTarget, let frame = targetFrameInPage(id) else { return }
        if frame.minY < scrollY + PageLayout.headerHeight {
            scrollBy(frame.minY - PageLayout.headerHeight - scrollY)
        } else if frame.maxY > scrollY + layout.windowHeight {
            scrollBy(frame.maxY - layout.windowHeight + 16 - scrollY)
        }
    }

    private func activateFocused() {
        guard let id = focusedTarget else { return }
        if id == zoomIn.name {
            activateZoomButton(id, delta: 1)
        } else if id == zoomOut.name {
            activateZoomButton(id, delta: -1)
        } else if id == compass.name {
            activateCompass()
        } else if id.hasPrefix("pin-") {
            selectPin(id)
        } else if id.hasPrefix("place-"), let place = places.first(where: { "place-\($0.id)" == id }) {
            activatePlace(place)
        }
    }

    /// A target's frame in page coordinates.
    func targetFrameInPage(_ id: String) -> Rect? {
        let m = layout.mapFrame
        if id == "map" { return m }
        for v in [zoomIn, zoomOut, compass] + pinViews where v.name == id {
            return Rect(x: m.minX + v.frame.minX, y: m.minY + v.frame.minY, width: v.frame.size.width, height: v.frame.size.height)
        }
        return rowViews.first { $0.name == id }?.frame
    }
}
