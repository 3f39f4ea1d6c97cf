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

    /// Tab moves through these: the map (so arrows pan it), its buttons (the compass while it
    /// shows), the pins, the list rows.
    public var focusOrder: [TargetID] {
        [.map, .zoomIn, .zoomOut] + (viewport.compass.isHidden ? [] : [.compass])
            + viewport.pinPlaces.map { .pin($0) } + list.places.map { .row($0.id) }
    }

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
                viewport.stopMotion()
                c.zoom(by: -steps * MeridianPage.wheelZoomPerDetent, around: p)
                viewport.setCamera(c)
                viewport.settleZoom(around: p)
            } else {
                scroller.jump(by: axis.value * MeridianPage.wheelScrollFactor)
            }
        }
    }

    /// A right-button drag on the map turns it about the view's centre: dragging right turns
    /// the map clockwise (`mouseRotationPerPixel` degrees per px). The left button is the
    /// gesture system's; the right one is ours.
    func handleRightDrag(_ f: PointerFrame) {
        guard allowsRotation else { return }
        let centre = viewport.centre
        for (button, pressed) in f.buttons where button == .right {
            if pressed, mouseRotation == nil, let p = pointerOnMap {
                viewport.stopMotion()
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
            viewport.setCamera(c)
        }
    }

    func handleTouchpad(_ g: TouchpadGesture) {
        switch g {
        case .pinchBegin:
            guard let p = pointerOnMap else { return }
            viewport.stopMotion()
            touchpadPinch = (camera.worldPoint(at: p), camera.zoom, p, camera.bearing, 0)
        case .pinchUpdate(let dx, let dy, let scale, let rotation):
            guard var pinch = touchpadPinch, scale > 0, scale.isFinite else { return }
            pinch.at = Point(x: pinch.at.x + dx, y: pinch.at.y + dy)
            // libinput's angle delta is clockwise degrees; the map turns with the fingers.
            if allowsRotation, rotation.isFinite { pinch.twist += rotation }
            touchpadPinch = pinch
            var c = camera
            c.setZoom(pinch.zoom + log2(scale), around: pinch.at)
            c.setBearing(pinch.bearing - pinch.twist, around: pinch.at)
            let s = c.screenPoint(ofWorld: pinch.anchor)
            c.pan(by: pinch.at - s)
            viewport.setCamera(c)
        case .pinchEnd:
            if let pinch = touchpadPinch { viewport.settleZoom(around: pinch.at) }
            touchpadPinch = nil
            invalidateMap()
        case .holdBegin:
            // Fingers resting on the touchpad stop a glide, as on a touchscreen.
            scroller.stop()
            viewport.stopMotion()
        case .swipeBegin, .swipeUpdate, .swipeEnd, .holdEnd:
            break
        }
    }

    func handleKey(_ k: KeyEvent) {
        modifiers = k.modifiers
        guard k.state != .released else { return }
        let centre = viewport.centre
        let arrows: Set<String> = ["Left", "Right", "Up", "Down"]
        if allowsRotation, k.modifiers.contains(.shift), k.keysym == "Left" || k.keysym == "Right" {
            // MapLibre's keys: Shift+Left lowers the bearing, Shift+Right raises it. A turn
            // still running continues from its target, so quick presses add up.
            viewport.animateBearing(to: viewport.bearingTarget + (k.keysym == "Left" ? -1 : 1) * MeridianPage.keyRotationStep, at: now)
            return
        }
        if focus.current == .map, arrows.contains(k.keysym) {
            panMapWithArrow(k.keysym)
            return
        }
        switch k.keysym {
        case "plus", "equal", "KP_Add":
            viewport.animateZoom(to: viewport.zoomTarget(levels: 1), around: centre, at: now)
        case "minus", "KP_Subtract":
            viewport.animateZoom(to: viewport.zoomTarget(levels: -1), around: centre, at: now)
        case "Up", "Down":
            scrollBy(k.keysym == "Up" ? -48 : 48)
        case "Page_Up", "KP_Page_Up":
            scrollBy(-0.9 * layout.windowHeight)
        case "Page_Down", "KP_Page_Down":
            scrollBy(0.9 * layout.windowHeight)
        case "space":
            scrollBy((k.modifiers.contains(.shift) ? -0.9 : 0.9) * layout.windowHeight)
        case "Home":
            scrollBy(-exactScrollY)
        case "End":
            scrollBy(maxScrollY - exactScrollY)
        case "Tab", "ISO_Left_Tab":
            moveFocus(backwards: k.keysym == "ISO_Left_Tab" || k.modifiers.contains(.shift))
        case "Return", "KP_Enter":
            activateFocused()
        case "Escape":
            focus.set(nil)
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
        viewport.stopMotion()
        var c = camera
        c.pan(by: d)
        viewport.setCamera(c)
    }

    private func scrollBy(_ dy: Double) {
        scroller.animate(by: dy, at: now)
        invalidate()
    }

    private func moveFocus(backwards: Bool) {
        let order = focusOrder
        if focus.current == .compass, !order.contains(.compass) {
            // The focused compass hid (north up): go on from where it stood, after zoom-out.
            focus.set(.zoomOut)
            focus.visible = true
            if !backwards { focus.move(in: order, backwards: false) }
        } else {
            focus.move(in: order, backwards: backwards)
        }
        revealFocused()
        invalidate()
    }

    /// Scrolls the page so the focused target is in view.
    private func revealFocused() {
        guard let id = focus.current, let frame = targetFrameInPage(id) else { return }
        if frame.minY < scrollY + PageLayout.headerHeight {
            scrollBy(frame.minY - PageLayout.headerHeight - exactScrollY)
        } else if frame.maxY > scrollY + layout.windowHeight {
            scrollBy(frame.maxY - layout.windowHeight + 16 - exactScrollY)
        }
    }

    private func activateFocused() {
        guard let id = focus.current else { return }
        activate(id)
    }

    /// A target's frame in page coordinates.
    func targetFrameInPage(_ id: TargetID) -> Rect? {
        let m = layout.mapFrame
        if id == .map { return m }
        let onMap: GestureView?
        if case .pin(let place) = id { onMap = viewport.pin(of: place) } else { onMap = viewport.button(id) }
        if let v = onMap {
            return Rect(x: m.minX + v.frame.minX, y: m.minY + v.frame.minY, width: v.frame.size.width, height: v.frame.size.height)
        }
        if case .row(let place) = id { return list.row(of: place)?.frame }
        return nil
    }
}
