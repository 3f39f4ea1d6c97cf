import Glibc
import Geo
import Gestures
import Input
import Render

/// The gesture graph of the page, and what each recognizer does. The rules in one place:
/// - One finger anywhere scrolls the page, the map included (a cooperative map, with a hint);
///   two fingers on the map pan, pinch and (after a deliberate twist) rotate it together; the
///   mouse drags the map.
/// - The map's single tap waits for the double tap and the double-tap-and-drag to fail, so a
///   double tap never also reports a tap; the observer sees taps and never takes them.
/// - Pins and buttons sit deeper than the map and the page, so a drag that starts on a pin
///   moves the pin, and a tap on a button is the button's.
extension MeridianPage {
    func wireGestures() {
        pageScroll.allowedTouchKinds = .finger
        page.addGestureRecognizer(pageScroll)
        page.canScroll = { direction in direction == .up || direction == .down }
        pageScroll.action = { [unowned self] pan in pageScrolled(pan) }

        for r: GestureRecognizer in [mapPan, mapPinch, mapMouseDrag, mapDoubleTap, mapQuickZoom, mapTap,
                                     mapTwoFingerTap, mapObserver] {
            map.addGestureRecognizer(r)
        }
        mapPan.allowedTouchKinds = .finger
        mapPinch.allowedTouchKinds = .finger
        mapQuickZoom.allowedTouchKinds = .finger
        mapTwoFingerTap.allowedTouchKinds = .finger
        mapMouseDrag.allowedTouchKinds = .mouse
        // The place under the fingers stays under them from touch-down on, slop included.
        mapPan.removesSlopFromTranslation = false
        mapMouseDrag.removesSlopFromTranslation = false
        mapPinch.recognizeSimultaneously(with: mapPan)
        wireRotation()
        mapQuickZoom.require(toFail: mapDoubleTap)
        mapTap.require(toFail: mapDoubleTap)
        mapTap.require(toFail: mapQuickZoom)
        mapObserver.isObserver = true
        mapObserver.require(toFail: mapDoubleTap)
        mapObserver.require(toFail: mapQuickZoom)

        mapPan.action = { [unowned self] _ in mapMovedByFingers() }
        mapPinch.action = { [unowned self] _ in mapMovedByFingers() }
        mapMouseDrag.action = { [unowned self] drag in mapDragged(drag) }
        mapDoubleTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            let p = tap.location(in: map)
            let target = (camera.zoom + 1).rounded(.down)
            animateZoom(to: target, around: ScreenPoint(x: p.x, y: p.y))
            record("doubleTapZoom", [("zoom", .number(min(target, camera.maxZoom)))])
        }
        mapQuickZoom.action = { [unowned self] press in quickZoom(press) }
        mapTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            mapTapped(at: tap.location(in: map))
        }
        mapTwoFingerTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            let p = tap.location(in: map)
            let target = (camera.zoom - 1).rounded(.up)
            animateZoom(to: target, around: ScreenPoint(x: p.x, y: p.y))
            record("twoFingerTapZoom", [("zoom", .number(max(target, camera.minZoom)))])
        }
        mapObserver.action = { [unowned self] tap in
            if tap.state == .recognized { observedMapTaps += 1 }
        }

        for pin in pinViews { wirePin(pin) }
        let compassTap = TapGestureRecognizer(name: "compassTap")
        compassTap.action = { [unowned self] tap in
            guard tap.state == .recognized else { return }
            activateCompass()
        }
        compass.addGestureRecognizer(compassTap)
        for (button, delta) in [(zoomIn, 1.0), (zoomOut, -1.0)] {
            let tap = TapGestureRecognizer(name: "\(button.name)Tap")
            tap.action = { [unowned self, unowned button] tap in
                guard tap.state == .recognized else { return }
                activateZoomButton(button.name, delta: delta)
            }
            button.addGestureRecognizer(tap)
        }
        for (row, place) in zip(rowViews, places) {
            let tap = TapGestureRecognizer(name: "\(row.name)Tap")
            tap.action = { [unowned self] tap in
                guard tap.state == .recognized else { return }
                activatePlace(place)
            }
            row.addGestureRecognizer(tap)
        }
    }

    private func wirePin(_ pin: GestureView) {
        let drag = PanGestureRecognizer(name: "\(pin.name)Drag", maximumTouches: 1)
        drag.removesSlopFromTranslation = false
        var grabOffset = Point.zero
        drag.action = { [unowned self, unowned pin] pan in
            switch pan.state {
            case .began:
                stopMapMotion()
                // Keep the finger where it grabbed the pin, slop included.
                let centre = camera.screenPoint(of: pinCoordinates[pin.name] ?? camera.centerCoordinate)
                let start = pan.location(in: map) - pan.translation(in: map)
                grabOffset = Point(x: centre.x, y: centre.y) - start
                fallthrough
            case .changed:
                let p = pan.location(in: map) + grabOffset
                pinCoordinates[pin.name] = camera.coordinate(at: ScreenPoint(x: p.x, y: p.y))
                layoutPins()
                invalidateMap()
            case .ended:
                if let c = pinCoordinates[pin.name] {
                    record("pinDragEnded", [("id", .text(pin.name)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
                }
                invalidateMap()
            default:
                break
            }
        }
        let tap = TapGestureRecognizer(name: "\(pin.name)Tap")
        tap.action = { [unowned self, unowned pin] tap in
            guard tap.state == .recognized else { return }
            selectPin(pin.name)
        }
        pin.addGestureRecognizer(drag)
        pin.addGestureRecognizer(tap)
    }

    // MARK: Actions

    private func pageScrolled(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            scrollMotion = nil
            scrollAtGestureStart = scrollY
            if let v = pan.startView, v === map || map.isAncestor(of: v) {
                hintUntil = now + MeridianPage.hintDuration
                record("cooperativeHint")
                invalidateMap()
            }
            fallthrough
        case .changed:
            let wanted = scrollAtGestureStart - pan.translation(in: page).y
            setScroll(rubberBand(wanted))
        case .ended:
            let v = pan.velocity(in: page)
            releaseScroll(velocity: -v.y)
        case .cancelled, .failed:
            releaseScroll(velocity: 0)
        default:
            break
        }
    }

    /// Past either end the page follows the finger at half speed, up to a quarter of the window.
    private func rubberBand(_ y: Double) -> Double {
        let limit = layout.windowHeight / 4
        if y < 0 { return -min(limit, -y / 2) }
        if y > maxScrollY { return maxScrollY + min(limit, (y - maxScrollY) / 2) }
        return y
    }

    /// The finger let go: glide on, or spring back from an overscroll.
    func releaseScroll(velocity: Double) {
        if scrollY < 0 || scrollY > maxScrollY {
            springBack()
        } else if let m = Momentum(velocity: Point(x: 0, y: velocity), at: now) {
            scrollMotion = .glide(m, from: scrollY)
        }
        invalidate()
    }

    private func springBack() {
        let target = min(max(scrollY, 0), maxScrollY)
        scrollMotion = .spring(from: scrollY, to: target, startTime: now, duration: 300)
    }

    /// Two fingers on the map: zoom follows the pinch, and the world point that was under the
    /// fingers' centroid at touch-down is put back under the centroid — whichever recognizer
    /// reports first, the result is the same.
    private func mapMovedByFingers() {
        let active: [GestureRecognizer] = [mapPan, mapPinch, mapRotate].filter { $0.state.isActive }
        guard let lead = active.first else {
            if mapAnchor != nil {
                settleZoom(around: mapPinch.location(in: map))
                if mapPan.state == .ended { startFling(velocity: mapPan.velocity(in: map)) }
            }
            mapAnchor = nil
            return
        }
        let centroid = lead.location(in: map)
        if mapAnchor == nil {
            stopMapMotion()
            zoomAtGestureStart = camera.zoom
            bearingAtGestureStart = camera.bearing
            let start = mapPan.state.isActive ? centroid - mapPan.translation(in: map) : centroid
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: start.x, y: start.y))
        }
        var c = camera
        if mapPinch.state.isActive, mapPinch.scale > 0, mapPinch.scale.isFinite {
            c.setZoom(zoomAtGestureStart + log2(mapPinch.scale), around: ScreenPoint(x: centroid.x, y: centroid.y))
        }
        if mapRotate.state.isActive {
            // A clockwise twist turns the map clockwise: the bearing decreases.
            c.setBearing(bearingAtGestureStart - mapRotate.rotation, around: ScreenPoint(x: centroid.x, y: centroid.y))
        }
        if let anchor = mapAnchor {
            let s = c.screenPoint(ofWorld: anchor)
            c.pan(by: ScreenPoint(x: centroid.x - s.x, y: centroid.y - s.y))
        }
        setCamera(c)
    }

    /// The rotation runs with the pan and the pinch on the same two fingers, and like them
    /// takes the fingers away from the two-finger tap once it begins.
    private func wireRotation() {
        map.addGestureRecognizer(mapRotate)
        mapRotate.allowedTouchKinds = .finger
        mapRotate.isEnabled = allowsRotation
        mapRotate.recognizeSimultaneously(with: mapPan)
        mapRotate.recognizeSimultaneously(with: mapPinch)
        mapRotate.action = { [unowned self] _ in mapMovedByFingers() }
    }

    /// The compass: north up again, turning about the map's centre.
    func activateCompass() {
        record("targetTap", [("id", .text(compass.name))])
        animateBearing(to: 0)
    }

    private func mapDragged(_ drag: PanGestureRecognizer) {
        switch drag.state {
        case .began:
            stopMapMotion()
            let p = drag.location(in: map) - drag.translation(in: map)
            mapAnchor = camera.worldPoint(at: ScreenPoint(x: p.x, y: p.y))
            fallthrough
        case .changed:
            guard let anchor = mapAnchor else { return }
            let p = drag.location(in: map)
            var c = camera
            let s = c.screenPoint(ofWorld: anchor)
            c.pan(by: ScreenPoint(x: p.x - s.x, y: p.y - s.y))
            setCamera(c)
        case .ended:
            mapAnchor = nil
            startFling(velocity: drag.velocity(in: map))
        default:
            mapAnchor = nil
        }
    }

    private func quickZoom(_ press: LongPressGestureRecognizer) {
        switch press.state {
        case .began:
            stopMapMotion()
            zoomAtGestureStart = camera.zoom
            fallthrough
        case .changed:
            // Down zooms in, up zooms out, anchored where the second tap landed.
            let anchor = press.pressLocation(in: map)
            let dy = press.location(in: map).y - anchor.y
            var c = camera
            c.setZoom(zoomAtGestureStart + dy / MeridianPage.quickZoomPixelsPerLevel, around: ScreenPoint(x: anchor.x, y: anchor.y))
            setCamera(c)
        case .ended, .cancelled:
            settleZoom(around: press.pressLocation(in: map))
        default:
            break
        }
    }

    /// After a free zoom (pinch, double-tap-and-drag, wheel) the zoom moves by under 0.005 of a
    /// level to one where tiles span whole device pixels: pan frames are then plain copies
    /// (docs/MAP-ENGINE.md, Render). `p` (map coordinates) stays where it is.
    func settleZoom(around p: Point) {
        let crisp = MapRenderer.crispZoom(camera.zoom, scale: renderScale)
        guard crisp != camera.zoom, crisp.isFinite else { return }
        var c = camera
        c.setZoom(crisp, around: ScreenPoint(x: p.x, y: p.y))
        setCamera(c)
    }

    private func mapTapped(at p: Point) {
        let c = camera.coordinate(at: ScreenPoint(x: p.x, y: p.y))
        let w = map.convert(toWindow: p)
        record("mapTap", [("x", .number(w.x)), ("y", .number(w.y)), ("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
        callout = (c, now + MeridianPage.calloutDuration)
        let hadSelectionOrFocus = selectedPin != nil || focusIndex != focusOrder.firstIndex(of: "map")
        selectedPin = nil
        focusIndex = focusOrder.firstIndex(of: "map")
        if hadSelectionOrFocus { invalidate() } else { invalidateMap() }
    }

    func selectPin(_ id: String) {
        selectedPin = id
        record("pinTap", [("id", .text(id))])
        invalidate()
    }

    func activateZoomButton(_ id: String, delta: Double) {
        record("targetTap", [("id", .text(id))])
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        animateZoom(to: (delta > 0 ? (camera.zoom + 1).rounded(.down) : (camera.zoom - 1).rounded(.up)), around: centre)
    }

    func activatePlace(_ place: Place) {
        record("targetTap", [("id", .text("place-\(place.id)"))])
        selectedPin = "pin-\(place.id)"
        let target = pinCoordinates["pin-\(place.id)"] ?? place.coordinate
        stopMapMotion()
        cameraAnimation = CameraAnimation(start: camera, startTime: now, duration: 300, targetZoom: max(camera.zoom, 15),
                                          focus: ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2),
                                          targetCenter: WebMercator.world(target))
        invalidate()
    }

    // MARK: Motion

    func animateZoom(to zoom: Double, around p: ScreenPoint) {
        stopMapMotion()
        let z = min(max(zoom, camera.minZoom), camera.maxZoom)
        cameraAnimation = CameraAnimation(start: camera, startTime: now, duration: MeridianPage.zoomAnimationDuration,
                                          targetZoom: z, focus: p, targetCenter: nil)
        invalidateMap()
    }

    /// Turns the map to `bearing` about the view's centre, the short way round, animated.
    func animateBearing(to bearing: Double) {
        let centre = ScreenPoint(x: camera.size.width / 2, y: camera.size.height / 2)
        stopMapMotion()
        var a = CameraAnimation(start: camera, startTime: now, duration: MeridianPage.northUpAnimationDuration,
                                targetZoom: camera.zoom, focus: centre, targetCenter: nil)
        a.targetBearing = bearing
        cameraAnimation = a
        invalidateMap()
    }

    private func startFling(velocity: Point) {
        guard let m = Momentum(velocity: velocity, at: now) else { return }
        mapFling = (m, camera)
    }

    func stopMapMotion() {
        cameraAnimation = nil
        mapFling = nil
    }

    /// Moves every animation to `now`; finished ones end exactly at their target.
    func stepAnimations() {
        if let motion = scrollMotion {
            let (y, finished) = motion.position(at: now)
            if case .glide = motion, y < 0 || y > maxScrollY {
                // The glide hit an end: a short bounce instead of a hard stop.
                let edge = y < 0 ? 0.0 : maxScrollY
                let overshoot = min(48, abs(y - edge))
                setScroll(edge + (y < 0 ? -overshoot : overshoot))
                springBack()
            } else {
                setScroll(y)
                if finished { scrollMotion = nil }
            }
        }
        if let a = cameraAnimation {
            setCamera(a.camera(at: now))
            if a.isFinished(at: now) { cameraAnimation = nil }
        }
        if let f = mapFling {
            var c = f.start
            let o = f.momentum.offset(at: now)
            c.pan(by: ScreenPoint(x: o.x, y: o.y))
            setCamera(c)
            if f.momentum.isFinished(at: now) { mapFling = nil }
        }
    }
}
